; diverge (kGPU, seed 003): out[gid] = threadIdx: lane t counts down from t,
; thread 0 skips the loop.  The kernel as printed in seed 003
; ("diverge.asm") and in neight777/kGPU Testbenches/gpu_testbench.py (the
; active KERNEL, whose check is out[gid] == gid % WARP_SIZE); published
; result: 16 blocks x 8 threads, 128/128 (Testbenches/diverge_results.md).
.blocks 16
.threads 8
ADD R1, %threadIdx, R0 ; counter = threadIdx (R0 is always 0)
MOV R2, #1 ; increment
MOV R6, #0 ; acc = 0
BEQ R1, R0, DONE ; thread 0 skips the loop
LOOP:
SUB R1, R1, R2 ; decrement counter
ADD R6, R6, R2 ; increment acc
BNE R1, R0, LOOP ; loop while counter != 0, threads diverge here
DONE: ; all threads reconverge here
MUL R3, %blockIdx, %blockDim
ADD R4, R3, %threadIdx ; gid = blockIdx * blockDim + threadIdx
STR R6, R4 ; store out[gid] = threadIdx in global memory
RET ; end of kernel
