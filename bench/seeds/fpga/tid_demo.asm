// tid_demo (the FPGA fork, seed 002): 123-code/gpu_design @098735a
// software/tid_demo.asm, copied unchanged below the launch header; its hex is
// software/tid_demo.hex.
// Launch: the default top (src/top.sv: BLOCK_DIM 8 = 2 warps x 4 lanes, one
// block per core on both cores), written as ushader directives in comments
// (docs/seeds/fpga.md); test/tb_warps.sv checks core 0.
// .blocks 2
// .threads 8
// Expected (BLOCK_DIM 8: 2 warps x 4 lanes, threadIdx global): R1 = 0..7.

; tid_demo: each of the 4 SIMT lanes copies its own threadIdx into R1.
; Before TID existed, the 4 lanes were unable to read R15 (%threadIdx), so they
; all held identical values. With TID, R1 = 0,1,2,3 across the 4 lanes — the
; first real per-thread divergence on this GPU.
TID R1
RET
