/* 4x4 matrix helpers for the GL-like state.  us_mat4 is row-major
 * (m[4 * row + col]) and rows are the mathematical rows the ARB specs'
 * ".row[n]" bindings name. */
#include <math.h>
#include <string.h>

#include "ushader.h"

void us_mat4_identity(us_mat4 out)
{
    for (int i = 0; i < 16; i++)
        out[i] = (i % 5 == 0) ? 1.0f : 0.0f;
}

void us_mat4_mul(us_mat4 out, const us_mat4 a, const us_mat4 b)
{
    float r[16];
    for (int row = 0; row < 4; row++)
        for (int col = 0; col < 4; col++) {
            double sum = 0.0;
            for (int k = 0; k < 4; k++)
                sum += (double)a[4 * row + k] * b[4 * k + col];
            r[4 * row + col] = (float)sum;
        }
    memcpy(out, r, sizeof r);
}

void us_mat4_transpose(us_mat4 out, const us_mat4 m)
{
    float r[16];
    for (int row = 0; row < 4; row++)
        for (int col = 0; col < 4; col++)
            r[4 * col + row] = m[4 * row + col];
    memcpy(out, r, sizeof r);
}

/*
 * Gauss-Jordan elimination with partial pivoting, in double.  The ARB specs
 * leave the inverse of a singular or poorly-conditioned matrix undefined
 * (ARB_vertex_program section 2.14.3.2); this model defines it as all zeros
 * when a pivot is exactly zero (or not finite), so the result never holds
 * NaN from a division by zero.
 */
bool us_mat4_inverse(us_mat4 out, const us_mat4 m)
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[4 * r + c];
            a[r][4 + c] = (r == c) ? 1.0 : 0.0;
        }
    for (int col = 0; col < 4; col++) {
        int pivot = col;
        for (int r = col + 1; r < 4; r++)
            if (fabs(a[r][col]) > fabs(a[pivot][col]))
                pivot = r;
        double p = a[pivot][col];
        if (p == 0.0 || !isfinite(p)) {
            memset(out, 0, 16 * sizeof out[0]);
            return false;
        }
        if (pivot != col)
            for (int c = 0; c < 8; c++) {
                double t = a[col][c];
                a[col][c] = a[pivot][c];
                a[pivot][c] = t;
            }
        for (int c = 0; c < 8; c++)
            a[col][c] /= p;
        for (int r = 0; r < 4; r++) {
            if (r == col || a[r][col] == 0.0)
                continue;
            double f = a[r][col];
            for (int c = 0; c < 8; c++)
                a[r][c] -= f * a[col][c];
        }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            out[4 * r + c] = (float)a[r][4 + c];
    return true;
}
