; matmul (upstream tiny-gpu, adam-maj/tiny-gpu @02b6c2c): C = A x B for 2x2
; matrices, one thread per element.  test/test_matmul.py holds the kernel as
; binary words (hex 50de 300f 9101 9202 9300 9404 9508 6602 5762 4707 9800
; 9900 5a62 3aa9 3aa3 7aa0 5b92 3bb7 3bb4 7bb0 5cab 388c 3991 2092 180c 3950
; 8098 f000) with this assembly in its comments; the text below is `ushader
; dis --isa tinygpu` of those words.  "BRn L12 ; loop while k < N" works
; only through the CMP quirk (docs/seeds/tinygpu.md): BRn branches when
; R9 != R2.  The testbench's launch, as ushader directives:
; .threads 4
; .data @0 1 2 3 4
; .data @4 1 2 3 4
; Expected: C at 8..11 = 7 10 15 22.
    MUL R0, %blockIdx, %blockDim
    ADD R0, R0, %threadIdx
    CONST R1, #1
    CONST R2, #2
    CONST R3, #0
    CONST R4, #4
    CONST R5, #8
    DIV R6, R0, R2
    MUL R7, R6, R2
    SUB R7, R0, R7
    CONST R8, #0
    CONST R9, #0
L12:
    MUL R10, R6, R2
    ADD R10, R10, R9
    ADD R10, R10, R3
    LDR R10, R10
    MUL R11, R9, R2
    ADD R11, R11, R7
    ADD R11, R11, R4
    LDR R11, R11
    MUL R12, R10, R11
    ADD R8, R8, R12
    ADD R9, R9, R1
    CMP R9, R2
    BRn L12
    ADD R9, R5, R0
    STR R9, R8
    RET
