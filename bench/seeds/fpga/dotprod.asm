// dotprod (the FPGA fork, seed 002): 123-code/gpu_design @098735a
// software/dotprod_kernel.asm, copied unchanged below the launch header; its hex is
// software/dotprod_kernel.hex.
// Launch: the default top (src/top.sv: BLOCK_DIM 8 = 2 warps x 4 lanes, one
// block per core on both cores), written as ushader directives in comments
// (docs/seeds/fpga.md); test/tb_dotprod.sv checks core 0.
// .blocks 2
// .threads 8
// Expected: R3 = 26 on every lane.

// General-purpose proof: a software dot product using MUL + ADD (no MAC unit).
//   R3 = 2*3 + 4*5 = 6 + 20 = 26
MOV R1, #2
MOV R2, #3
MUL R5, R1, R2     // R5 = 6
MOV R1, #4
MOV R2, #5
MUL R6, R1, R2     // R6 = 20
ADD R3, R5, R6     // R3 = 26
RET
