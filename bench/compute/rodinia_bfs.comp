#version 430
// rodinia_bfs: breadth-first search levels (cost = hops from node 0, -1 when
// unreachable) over a 32-node graph in CSR form, level by level: Kernel
// expands the frontier (mask) into the unvisited neighbours (updating),
// Kernel2 makes those the next frontier and sets `over`.  Follows Rodinia's
// bfs (cuda/bfs/kernel.cu and kernel2.cu in Rodinia 3.1; BFS-1/BFS-2 in
// DICE, seed 004, arXiv 2605.05496; jiayi-wang98/dice-test-gpu-rodinia
// benchmarks.lst).  The host's loop is here a loop in one workgroup of 8
// threads (nodes tid, tid + 8, ...) with barriers between the kernels; a
// level's cost goes in with atomicMin and the updating flags with atomicOr,
// so the result does not depend on thread order.  Divergent: a thread works
// only on its frontier nodes, for as many edges as each has.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Nodes { ivec2 node[]; };   // start, count
layout(std430, binding = 1) buffer Edges { int edge[]; };
layout(std430, binding = 2) buffer Cost { int cost[]; };
const uint N = 32u;
shared uint mask[32], updating[32], visited[32];
shared uint over;
void main()
{
    uint tx = gl_LocalInvocationID.x;
    for (uint v = tx; v < N; v += 8u) {
        cost[v] = v == 0u ? 0 : 0x7fffffff;
        mask[v] = v == 0u ? 1u : 0u;
        visited[v] = mask[v];
        updating[v] = 0u;
    }
    for (;;) {
        if (tx == 0u)
            over = 0u;
        barrier();
        for (uint v = tx; v < N; v += 8u) {
            if (mask[v] != 0u) {
                mask[v] = 0u;
                int c = cost[v] + 1;
                for (int e = node[v].x; e < node[v].x + node[v].y; e++) {
                    uint id = uint(edge[e]);
                    if (visited[id] == 0u) {
                        atomicMin(cost[id], c);
                        atomicOr(updating[id], 1u);
                    }
                }
            }
        }
        barrier();
        for (uint v = tx; v < N; v += 8u) {
            if (updating[v] != 0u) {
                mask[v] = 1u;
                visited[v] = 1u;
                atomicOr(over, 1u);
                updating[v] = 0u;
            }
        }
        barrier();
        uint o = over;
        barrier();
        if (o == 0u)
            break;
    }
    for (uint v = tx; v < N; v += 8u)
        if (cost[v] == 0x7fffffff)
            cost[v] = -1;
}
