// sum07 (the FPGA fork, seed 002): the J++ demo's computation written in the
// fork's assembly.  Seed 002: "software/demo.jpp sums 0..7 on the GPU and
// yeets the result - each core replies with 28 (0x1C)"; demo.jpp is not in
// the 123-code/gpu_design snapshot (@098735a), so this kernel is ours: the
// loop J++'s grind_until lowers to (CMP + branch), then the yeet (STR to
// the UART offset 63, which ushader models as a plain store) and a store
// of the sum at byte 0 of each core's memory.
// Launch: the default top (BLOCK_DIM 8, one block per core on both cores):
// .blocks 2
// .threads 8
// Expected: R3 = 28 on every thread; byte 0 of each core's memory = 28.
        MOV  R3, #0         // sum
        MOV  R1, #0         // i
        MOV  R2, #8         // the bound
loop:   ADD  R3, R3, R1     // sum += i
        ADDI R1, R1, #1     // i++
        CMP  R1, R2
        BRn  loop           // while i < 8 (every lane alike: no divergence)
        MOV  R0, #0
        STR  R3, [R0]       // mem[0] = 28
        MOV  R0, #63        // the UART TX offset
        STR  R3, [R0]       // yeet 28
        RET
