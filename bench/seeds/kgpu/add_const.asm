; add_const (kGPU, seed 003): out[gid] = in[gid] + 5 with in[gid] = 3 gid.
; The kernel as printed in seed 003 ("add_const.asm") and, as a Python list,
; in neight777/kGPU Testbenches/gpu_testbench.py (commented out there);
; published result: 16 blocks x 8 threads, 128/128 outputs = 3 gid + 5
; (Testbenches/add_const_results.md).  The seed's ".data @256 0 3 6 9 ..."
; is written out in full below.
.blocks 16
.threads 8
.data @256 0 3 6 9 12 15 18 21 24 27 30 33 36 39 42 45
.data @272 48 51 54 57 60 63 66 69 72 75 78 81 84 87 90 93
.data @288 96 99 102 105 108 111 114 117 120 123 126 129 132 135 138 141
.data @304 144 147 150 153 156 159 162 165 168 171 174 177 180 183 186 189
.data @320 192 195 198 201 204 207 210 213 216 219 222 225 228 231 234 237
.data @336 240 243 246 249 252 255 258 261 264 267 270 273 276 279 282 285
.data @352 288 291 294 297 300 303 306 309 312 315 318 321 324 327 330 333
.data @368 336 339 342 345 348 351 354 357 360 363 366 369 372 375 378 381
MOV R1, #5 ; constant to add
MOV R7, #256 ; IN_BASE (input array base address)
MUL R3, %blockIdx, %blockDim
ADD R4, R3, %threadIdx ; gid = blockIdx * blockDim + threadIdx
ADD R6, R4, R7 ; addr(in[gid]) = IN_BASE + gid
LDR R5, R6 ; load in[gid] from global memory
ADD R2, R5, R1 ; out = in[gid] + 5
STR R2, R4 ; store out[gid] in global memory
RET ; end of kernel
