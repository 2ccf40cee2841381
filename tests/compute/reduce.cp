!!USHADERcp1.0
# A workgroup sums its 64 inputs (buffer 0, uint32) in shared memory by a
# tree of barriers and writes the sum to buffer 1[group]: the reduction of
# GPU text books, here with BRA loops (tests/compute_cli.test.sh).
GROUP_SIZE 64;
SHARED_MEMORY 256;
TEMP t, a, v, w, k;
MOV.U t, invocation.localindex.x;
MUL.U a.x, invocation.globalid.x, 4;
LOAD.U32 v.x, a.x, buffer[0];
MUL.U a.y, t.x, 4;
STS.U32 shared.x, a.y, v.x;
BAR;
MOV.U k.x, 32;
step:
BRA.GE.U skip, t.x, k.x;
ADD.U a.z, t.x, k.x;
MUL.U a.z, a.z, 4;
LDS.U32 v.y, a.z;
LDS.U32 v.x, a.y;
ADD.U v.x, v.x, v.y;
STS.U32 shared.x, a.y, v.x;
skip:
BAR;
SHR.U k.x, k.x, 1;
BRA.NE.U step, k.x, 0;
BRA.NE.U end, t.x, 0;
LDS.U32 v.x, 0;
MUL.U a.w, invocation.groupid.x, 4;
STORE.U32 buffer[1].x, a.w, v.x;
end:
END
