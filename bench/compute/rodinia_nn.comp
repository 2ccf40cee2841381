#version 430
// rodinia_nn: distance from every record (lat, lng) to a target point,
// dist[i] = sqrt((lat - x)^2 + (lng - y)^2) in binary32 for i < n, with the
// bounds guard of the launch's surplus threads.  Follows Rodinia's
// nearest-neighbour kernel as DICE (seed 004, arXiv 2605.05496) runs it:
// jiayi-wang98/dice-test-gpu-rodinia cuda/nn_cuda/nn_cuda.cu (euclid).
// 60 records, 8 groups of 8 threads: the last 4 threads do nothing.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Loc { vec2 loc[]; };
layout(std430, binding = 1) buffer Dist { float dist[]; };
layout(std430, binding = 2) buffer Arg { uint n; float lat; float lng; };
void main()
{
    uint g = gl_GlobalInvocationID.x;
    if (g < n) {
        float dx = lat - loc[g].x;
        float dy = lng - loc[g].y;
        dist[g] = sqrt(dx * dx + dy * dy);
    }
}
