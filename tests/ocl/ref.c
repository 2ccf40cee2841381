/* The C reference of the kernels in tests/ocl (tests/ocl.test.sh): `ref KERNEL DIR`
 * writes DIR/in0.bin, DIR/in1.bin (the inputs) and DIR/want.bin (the
 * output the kernel must leave), little-endian int32 words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(const char *dir, const char *name, const int32_t *v, int n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(v, 4, (size_t)n, f) != (size_t)n || fclose(f)) {
        perror(path);
        exit(1);
    }
}

/* A fixed pseudo-random sequence (an LCG), signed, small and large. */
static int32_t next(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return (int32_t)(*x >> 8) % 2000 - 1000;
}

int main(int argc, char **argv)
{
    enum { N = 64, M = 16, G = 8, L = 8 };
    static int32_t a[N * N], b[N * N], c[N * N];
    uint32_t seed = 12345;
    if (argc != 3)
        return 2;
    const char *k = argv[1], *dir = argv[2];
    if (!strcmp(k, "vadd")) {
        for (int i = 0; i < N; i++) {
            a[i] = next(&seed) * 100000;
            b[i] = next(&seed) * 100000;
            c[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
        }
        put(dir, "in0.bin", a, N);
        put(dir, "in1.bin", b, N);
        put(dir, "want.bin", c, N);
    } else if (!strcmp(k, "gemm")) {
        for (int i = 0; i < M * M; i++) {
            a[i] = next(&seed);
            b[i] = next(&seed);
        }
        for (int r = 0; r < M; r++)
            for (int col = 0; col < M; col++) {
                uint32_t acc = 0;
                for (int j = 0; j < M; j++)
                    acc += (uint32_t)a[r * M + j] * (uint32_t)b[j * M + col];
                c[r * M + col] = (int32_t)acc;
            }
        put(dir, "in0.bin", a, M * M);
        put(dir, "in1.bin", b, M * M);
        put(dir, "want.bin", c, M * M);
    } else if (!strcmp(k, "branchy")) {
        for (int i = 0; i < N; i++) {
            a[i] = i < 8 ? i - 3 : next(&seed);
            int x = a[i], steps = 0;
            while (x > 1 && steps < 200) {
                x = x & 1 ? 3 * x + 1 : x >> 1;
                steps++;
            }
            int r = x == 1 ? steps : -abs(a[i]) + (steps > 3 ? steps : 3);
            r += i * 3 + (a[i] < 7 ? a[i] : 7);
            r ^= (int16_t)(a[i] * 4099) + (uint8_t)a[i];
            switch (a[i]) {
            case 0: c[i] = r; break;
            case 1: c[i] = r + 11; break;
            case -3: c[i] = r * 3; c[i + N] = i; break;
            default: c[i] = ~r;
            }
        }
        put(dir, "in0.bin", a, N);
        put(dir, "want.bin", c, 2 * N);
    } else if (!strcmp(k, "reduce")) {
        for (int i = 0; i < G * L; i++)
            a[i] = next(&seed);
        for (int g = 0; g < G; g++) {
            int32_t s = 0;
            for (int i = 0; i < L; i++)
                s += a[g * L + i];
            c[g] = s + G * 1000 + G * L * 100000;
        }
        put(dir, "in0.bin", a, G * L);
        put(dir, "want.bin", c, G);
    } else if (!strcmp(k, "narrow")) {
        static uint8_t u[N], u2[N];
        static int16_t h[N];
        for (int i = 0; i < N; i++) {
            u[i] = (uint8_t)(next(&seed) & 0xff);
            h[i] = (int16_t)((int16_t)(u[i] * 300) + u[i] * u[i]);
            u2[i] = (uint8_t)(u[i] + 200);
        }
        FILE *f;
        char path[512];
        snprintf(path, sizeof path, "%s/in0.bin", dir);
        if (!(f = fopen(path, "wb")) || fwrite(u, 1, N, f) != N || fclose(f))
            return 1;
        snprintf(path, sizeof path, "%s/want.bin", dir);
        if (!(f = fopen(path, "wb")) || fwrite(h, 2, N, f) != N || fclose(f))
            return 1;
        snprintf(path, sizeof path, "%s/want0.bin", dir);
        if (!(f = fopen(path, "wb")) || fwrite(u2, 1, N, f) != N || fclose(f))
            return 1;
    } else {
        return 2;
    }
    return 0;
}
