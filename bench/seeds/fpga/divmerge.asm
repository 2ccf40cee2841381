// divmerge (the FPGA fork, seed 002): 123-code/gpu_design @098735a
// software/divmerge_kernel.asm, copied unchanged below the launch header; its hex is
// software/divmerge_kernel.hex.
// Launch: the default top (src/top.sv: BLOCK_DIM 8 = 2 warps x 4 lanes, one
// block per core on both cores), written as ushader directives in comments
// (docs/seeds/fpga.md); test/tb_divmerge.sv checks core 0.
// .blocks 2
// .threads 8
// Expected: R3 = [10, 10, 20, 20] and R4 = [7, 7, 7, 7] on lanes 0..3
// (threads 4..7: R3 = 20, R4 = 7).

// Reconvergence test: a diamond followed by COMMON code that all lanes must run.
//   lanes 0,1 -> branch (R3=10), lanes 2,3 -> stay (R3=20)   [divergence]
//   then ALL lanes run: R4 = 7                                [reconvergence]
// Correct: R3=[10,10,20,20], R4=[7,7,7,7].
        TID  R1
        MOV  R2, #2
        CMP  R1, R2
        BRn  iftrue        // branch lanes(0,1) -> iftrue; stay(2,3) pushed
        MOV  R3, #20       // stay block (runs 2nd)
        SYNC               // stack empties -> fall into common
        MOV  R4, #7        // COMMON: every lane should set R4=7
        RET
iftrue: MOV  R3, #10       // branch block (runs 1st)
        SYNC               // pop -> stay block
