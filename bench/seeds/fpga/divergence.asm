// divergence (the FPGA fork, seed 002): 123-code/gpu_design @098735a
// software/divergence_kernel.asm, copied unchanged below the launch header; its hex is
// software/divergence_kernel.hex.
// Launch: the default top (src/top.sv: BLOCK_DIM 8 = 2 warps x 4 lanes, one
// block per core on both cores), written as ushader directives in comments
// (docs/seeds/fpga.md); test/tb_divergence.sv checks core 0.
// .blocks 2
// .threads 8
// Expected: R3 = [10, 10, 20, 20] on lanes 0..3 (threads 4..7 stay: 20).

// Branch-divergence validation kernel.
//
// Each lane branches on its OWN threadIdx, so the 4 lanes of a warp must take
// different paths in lockstep:
//   threadIdx < 2  (lanes 0,1) -> take the branch     -> R3 = 10
//   threadIdx >= 2 (lanes 2,3) -> fall through (stay)  -> R3 = 20
//
// Correct SIMT divergence => R3 = [10, 10, 20, 20] across lanes 0..3.
// If divergence were broken (all lanes follow lane 0), every lane would take
// lane 0's branch and R3 would be [10, 10, 10, 10].
//
// Mechanism: BRn pushes the "stay" lanes onto the reconvergence stack and runs
// the "branch" lanes first at iftrue; SYNC pops to run the stay lanes.
        TID  R1            // R1 = threadIdx (per-lane: 0,1,2,3)
        MOV  R2, #2
        CMP  R1, R2        // N flag set where R1 < 2  (lanes 0,1)
        BRn  iftrue        // branch lanes -> iftrue; stay lanes pushed
        MOV  R3, #20       // STAY path (lanes 2,3) — runs 2nd via SYNC pop
        RET
iftrue: MOV  R3, #10       // BRANCH path (lanes 0,1) — runs 1st
        SYNC               // reconverge: pop -> run the stay path
