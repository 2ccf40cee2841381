/* SVM decisions over nf-feature integer vectors (32 vectors of 16 features,
 * 8 support vectors in the suite), in OpenCL C 1.2 as a Tiny-OpenCL user
 * writes it: TinyBio's classification stage in e-GPU (seed 000, arXiv
 * 2505.08421); bench/compute/svm.comp is the GLSL version.  Per vector:
 *   linear: w . x + b
 *   RBF:    (sum_s alpha_s K(x, sv_s)) >> 8 + b_rbf, K = 2^-(|x - sv_s|^2 /
 *           2^20) in Q15 by a piecewise-linear 2^-u (exact at integer u).
 * The model m: w[nf], b, b_rbf, alpha[ns] (Q8), sv[ns][nf]; d: (linear,
 * RBF) per vector.  Tiny-OpenCL launches as many work-items as the machine
 * has threads and checks no bounds, so each work-item takes the vectors
 * get_global_id(0), + get_global_size(0), ...: right at any 1-D launch
 * shape. */
__kernel void svm(__global const int *x, __global const int *m,
                  __global int *d, int nv, int nf, int ns)
{
    __global const int *w = m, *alpha = m + nf + 2, *sv = alpha + ns;
    for (int v = get_global_id(0); v < nv; v += get_global_size(0)) {
        __global const int *xv = x + v * nf;
        int lin = m[nf];
        for (int f = 0; f < nf; f++)
            lin += w[f] * xv[f];
        int rbf = 0;
        for (int s = 0; s < ns; s++) {
            int d2 = 0;
            for (int f = 0; f < nf; f++) {
                int e = xv[f] - sv[s * nf + f];
                d2 += e * e;
            }
            int u = d2 >> 12;                 /* the exponent in Q8 */
            int ip = u >> 8, fr = u & 255;
            int k = ip >= 15 ? 0 : 32768 >> ip;
            k -= ((k - (k >> 1)) * fr) >> 8;
            rbf += alpha[s] * k;
        }
        d[2 * v] = lin;
        d[2 * v + 1] = (rbf >> 8) + m[nf + 1];
    }
}
