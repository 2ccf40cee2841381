; matadd (upstream tiny-gpu, adam-maj/tiny-gpu @02b6c2c): C[i] = A[i] + B[i]
; for 8 elements.  test/test_matadd.py holds the kernel as binary words
; (hex 50de 300f 9100 9208 9310 3410 7440 3520 7550 3645 3730 8076 f000) with
; this assembly in its comments; the text below is `ushader dis --isa
; tinygpu` of those words.  The testbench's launch, as ushader directives:
; .threads 8
; .data @0 0 1 2 3 4 5 6 7
; .data @8 0 1 2 3 4 5 6 7
; (8 threads: 2 blocks of THREADS_PER_BLOCK 4.)  Expected: C at 16..23 =
; 0 2 4 6 8 10 12 14 (the testbench checks data_memory[16 + i] = A[i] + B[i]).
    MUL R0, %blockIdx, %blockDim
    ADD R0, R0, %threadIdx
    CONST R1, #0
    CONST R2, #8
    CONST R3, #16
    ADD R4, R1, R0
    LDR R4, R4
    ADD R5, R2, R0
    LDR R5, R5
    ADD R6, R4, R5
    ADD R7, R3, R0
    STR R7, R6
    RET
