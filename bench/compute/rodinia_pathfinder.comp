#version 430
// rodinia_pathfinder: the cheapest top-to-bottom path through a grid of
// 16 rows x 32 columns of integer weights, by dynamic programming: row r's
// cost is wall[r][c] + min(cost[c-1], cost[c], cost[c+1]) of row r-1 (the
// edges take the neighbours that exist).  Follows Rodinia's pathfinder
// (dynproc_kernel, cuda/pathfinder/pathfinder.cu in Rodinia 3.1; PF in DICE,
// seed 004, arXiv 2605.05496): the rows ping-pong in shared memory with a
// barrier per row.  Rodinia tiles the columns with halos (a pyramid); here
// one workgroup of 8 threads holds a whole grid (4 columns a thread), and
// each of the 2 workgroups solves its own grid.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Wall { int wall[]; };   // 2 grids
layout(std430, binding = 1) buffer Result { int result[]; }; // 2 x 32
const uint ROWS = 16u, COLS = 32u;
shared int cost[2][32];
void main()
{
    uint tx = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * ROWS * COLS;
    for (uint c = tx; c < COLS; c += 8u)
        cost[0][c] = wall[base + c];
    barrier();
    for (uint r = 1u; r < ROWS; r++) {
        uint src = (r - 1u) & 1u, dst = r & 1u;
        for (uint c = tx; c < COLS; c += 8u) {
            // The edges' missing neighbour is the column itself: no branch,
            // so lanes never part (the FPGA fork reconverges only at SYNC).
            int best = min(cost[src][c], min(cost[src][max(c, 1u) - 1u],
                                             cost[src][min(c + 1u, COLS - 1u)]));
            cost[dst][c] = wall[base + r * COLS + c] + best;
        }
        barrier();
    }
    for (uint c = tx; c < COLS; c += 8u)
        result[gl_WorkGroupID.x * COLS + c] = cost[(ROWS - 1u) & 1u][c];
}
