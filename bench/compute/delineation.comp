// Delineation: peak and trough detection on a 512-sample signal, TinyBio's
// delineation stage in e-GPU (seed 000, arXiv 2505.08421).  Sample i (with
// 8 <= i < 504) is a peak (flag 1) when it exceeds the threshold and every
// other sample within 8 of it is smaller, a trough (flag -1) the mirror
// image; the search stops at the first neighbour that disproves it, so the
// threads diverge.  Counts of peaks and troughs by atomicAdd (commutative,
// old values unused).  Workgroups of 8.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer X { int x[]; };     // 512
layout(std430, binding = 1) writeonly buffer F { int flag[]; }; // 512
layout(std430, binding = 2) buffer C { uint peaks, troughs; };

const int W = 8, N = 512, THRESHOLD = 2000;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    int f = 0;
    if (i >= W && i < N - W) {
        int v = x[i];
        if (v > THRESHOLD || v < -THRESHOLD) {
            bool peak = v > 0;
            f = peak ? 1 : -1;
            for (int j = i - W; j <= i + W; j++) {
                if (j != i && (peak ? x[j] >= v : x[j] <= v)) {
                    f = 0;
                    break;
                }
            }
        }
    }
    flag[i] = f;
    if (f == 1)
        atomicAdd(peaks, 1u);
    else if (f == -1)
        atomicAdd(troughs, 1u);
}
