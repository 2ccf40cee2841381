/* 4x4 matrix helpers for the scene: row-major, column vectors (as GL's
 * matrices read when written out on paper).  Formulas: GL 2.1 spec §2.11.2
 * (glRotate, glTranslate, glScale, glFrustum) and gluLookAt/gluPerspective. */
#include <math.h>
#include <string.h>

#include "gfx/gfx.h"

void gfx_mat_identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void gfx_mat_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a[4 * i + k] * b[4 * k + j];
            r[4 * i + j] = s;
        }
    memcpy(out, r, sizeof r);
}

void gfx_mat_vec(float out[4], const float m[16], const float v[4])
{
    float r[4];
    for (int i = 0; i < 4; i++)
        r[i] = m[4 * i] * v[0] + m[4 * i + 1] * v[1] + m[4 * i + 2] * v[2] +
               m[4 * i + 3] * v[3];
    memcpy(out, r, sizeof r);
}

/* m = m * T, as glTranslate multiplies the current matrix on the right. */
void gfx_mat_translate(float m[16], float x, float y, float z)
{
    float t[16];
    gfx_mat_identity(t);
    t[3] = x;
    t[7] = y;
    t[11] = z;
    gfx_mat_mul(m, m, t);
}

void gfx_mat_scale(float m[16], float x, float y, float z)
{
    float t[16];
    gfx_mat_identity(t);
    t[0] = x;
    t[5] = y;
    t[10] = z;
    gfx_mat_mul(m, m, t);
}

void gfx_mat_rotate(float m[16], float deg, float x, float y, float z)
{
    float len = sqrtf(x * x + y * y + z * z);
    if (len == 0.0f)
        return;
    x /= len;
    y /= len;
    z /= len;
    float a = deg * (float)(GFX_PI / 180.0);
    float c = cosf(a), s = sinf(a), k = 1.0f - c;
    float t[16] = {
        x * x * k + c,     x * y * k - z * s, x * z * k + y * s, 0,
        y * x * k + z * s, y * y * k + c,     y * z * k - x * s, 0,
        x * z * k - y * s, y * z * k + x * s, z * z * k + c,     0,
        0,                 0,                 0,                 1,
    };
    gfx_mat_mul(m, m, t);
}

void gfx_mat_perspective(float m[16], float fovy_deg, float aspect,
                         float zn, float zf)
{
    float f = 1.0f / tanf(fovy_deg * (float)(GFX_PI / 360.0));
    memset(m, 0, 16 * sizeof *m);
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (zf + zn) / (zn - zf);
    m[11] = 2.0f * zf * zn / (zn - zf);
    m[14] = -1.0f;
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f)
        for (int i = 0; i < 3; i++)
            v[i] /= l;
}

static void cross3(float o[3], const float a[3], const float b[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

void gfx_mat_lookat(float m[16], const float eye[3], const float at[3],
                    const float up[3])
{
    float f[3] = { at[0] - eye[0], at[1] - eye[1], at[2] - eye[2] };
    normalize3(f);
    float s[3], u[3];
    cross3(s, f, up);
    normalize3(s);
    cross3(u, s, f);
    float r[16] = {
        s[0], s[1], s[2], 0,
        u[0], u[1], u[2], 0,
        -f[0], -f[1], -f[2], 0,
        0, 0, 0, 1,
    };
    gfx_mat_identity(m);
    gfx_mat_mul(m, m, r);
    gfx_mat_translate(m, -eye[0], -eye[1], -eye[2]);
}
