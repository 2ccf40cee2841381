!!USHADERcp1.0
# Each work-item n writes 3n + 5 to buffer 0 and 0 + 1 + ... + n to buffer
# 1 (a loop of branches: lanes in lockstep diverge on the trip count), and
# counts itself with an atomic in buffer 2 (tests/compute_cli.test.sh).
GROUP_SIZE 4;
TEMP a, i, s;
MOV.U a, invocation.globalid;
MUL.U a.y, a.x, 3;
ADD.U a.y, a.y, 5;
MUL.U a.z, a.x, 4;
STORE.U32 buffer[0].y, a.z, a;
MOV.U s, 0;
MOV.U i, 0;
top:
BRA.GT.U done, i.x, a.x;
ADD.U s.x, s.x, i.x;
ADD.U i.x, i.x, 1;
BRA top;
done:
STORE.U32 buffer[1].x, a.z, s;
ATOM.ADD.U32 i.x, 0, 1, buffer[2];
END
