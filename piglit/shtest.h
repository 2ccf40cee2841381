/*
 * piglit shader_test files with ARB programs, run on the model.
 *
 * A shader_test file (piglit's tests/shaders/shader_runner.c reads them)
 * has sections: [require] (GL version, extensions, window SIZE),
 * [vertex program] and [fragment program] (ARB assembly) and [test] (one
 * command per line: clear, draw, set state, probe pixels).  shtest_parse
 * checks the whole file and turns [test] into commands; shtest_run plays
 * them on the 3D pipeline (gfx/gfx.h) the way shader_runner plays them on
 * a GL driver, and compares the probes with piglit's tolerances.
 *
 * GLSL execution tests have [vertex shader], [fragment shader] (several
 * of a stage are one program), [vertex shader passthrough] and [vertex
 * data] sections and set uniforms in [test]; the runner puts them through
 * the front step and the GLSL compiler (glsl/) as one program pair.
 *
 * Compute tests have [compute shader] sections (GLSL) or one [compute
 * program] (the model's !!USHADERcp1.0 assembly, docs/COMPUTE.md; not a
 * shader_runner section) and launch it with `compute X Y Z`.  Shader
 * storage buffers (`ssbo`) and atomic counter buffers (`atomic counters`)
 * are GL buffer objects at binding points; every stage sees them, and
 * `probe ssbo` / `probe atomic counter` read them back.
 *
 * Files that need something the model lacks (GL ES, extensions, GLSL
 * versions above 1.20, shader_runner commands for later GL state) parse
 * successfully but carry a skip reason.  Every other defect is an error
 * with a line and column of the file.
 */
#ifndef SHTEST_H
#define SHTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ushader.h"
#include "gfx/gfx.h"

enum {
    SHTEST_DEFAULT_SIZE = 250,    /* shader_runner's window, both sides   */
    SHTEST_MAX_LINE = 4096,       /* longest [test] or [require] line     */
    SHTEST_MAX_COMMANDS = 65536,
    SHTEST_MAX_SHADERS = 8,       /* sections of one stage                */
    SHTEST_MAX_VALUES = 16,       /* numbers of one command (a mat4)      */
    SHTEST_MAX_VCOLS = 16,        /* [vertex data] columns                */
    SHTEST_MAX_SSBOS = 32,        /* shader_runner's ssbo[32]             */
    SHTEST_MAX_ATOMIC_BUFFERS = 8,  /* shader_runner's atomics_bos[8]     */
    /* bytes of one buffer object: a test that asks for more is refused
     * (piglit's largest asks for a few KiB); the run's memory budget
     * applies as well */
    SHTEST_MAX_BUFFER_BYTES = 1 << 26,
};

enum shtest_op {
    SH_CLEAR_COLOR,      /* f[0..3]                                    */
    SH_CLEAR_DEPTH,      /* f[0]                                       */
    SH_CLEAR,            /* glClear with the bits the two above set    */
    SH_COLOR,            /* current colour f[0..3]                     */
    SH_TEXCOORD,         /* current texcoord i[0] = f[0..3]            */
    SH_DRAW_RECT,        /* x y w h = f[0..3]                          */
    SH_DRAW_RECT_TEX,    /* f[0..3] and texcoords tx ty tw th f[4..7]  */
    SH_ORTHO,            /* glOrtho(f[0], f[1], f[2], f[3], -1, 1)     */
    SH_ORTHO_WINDOW,     /* glOrtho(0, W, 0, H, -1, 1)                 */
    SH_FRUSTUM,          /* glFrustum(f[0..5])                         */
    SH_PARAMETER,        /* sub = enum shtest_param, i[0] index, f[0..3] */
    SH_PROBE,            /* i[0], i[1] = x, y; f = expected; n comps   */
    SH_PROBE_REL,        /* f[4], f[5] = relative x, y; f[0..] expected */
    SH_PROBE_ALL,        /* f = expected; n comps                      */
    SH_PROBE_DEPTH,      /* i[0], i[1]; f[0]                           */
    SH_TEXTURE,          /* sub = enum shtest_tex, i[0] unit, i[1] w, i[2] h */
    SH_TEXPARAMETER,     /* sub = enum shtest_texparam, i[0] target, i[1] value */
    SH_ENABLE,           /* sub = enum shtest_cap, i[0] = on/off       */
    SH_TOLERANCE,        /* f[0..3]                                    */
    SH_UNIFORM,          /* sub = enum shtest_utype, n values in f, name
                            at text offset i[0], length i[1]; i[2] matrix
                            columns (0: not a matrix)                  */
    SH_DRAW_ARRAYS,      /* sub = enum shtest_prim, i[0] first, i[1] count */
    SH_DRAW_RECT_ORTHO,  /* window coordinates x y w h = f[0..3]       */
    SH_PROBE_RECT,       /* i[0..3] = x y w h; f = expected; n comps   */
    SH_PROBE_RECT_REL,   /* f[4..7] = relative x y w h; f[0..] expected */
    SH_NOP,              /* accepted, no effect on the model           */
    SH_CLIP_PLANE,       /* glClipPlane(GL_CLIP_PLANE0 + i[0], f[0..3]) */
    /* compute and buffers (values in u[] as bit patterns: one word of a
     * 32-bit type, two of a 64-bit one, low word first) */
    SH_COMPUTE,          /* glDispatchCompute(i[0], i[1], i[2])        */
    SH_SSBO,             /* buffer object at SSBO binding i[0] of i[1]
                            bytes, zeroed                              */
    SH_SSBO_SUBDATA,     /* sub = enum shtest_dtype; binding i[0], byte
                            offset i[1], the value in u[]              */
    SH_PROBE_SSBO,       /* sub = enum shtest_dtype; binding i[0], byte
                            offset i[1], i[2] enum shtest_cmp; u[]     */
    SH_ATOMIC_BUFFER,    /* atomic counter buffer at binding i[0] of
                            i[1] zeroed counters                       */
    SH_ATOMIC_SET,       /* counter i[1] of the buffer at binding i[0]
                            = u[0]                                     */
    SH_PROBE_ATOMIC,     /* the counter at byte offset i[1] of the
                            buffer at binding i[0], i[2] enum
                            shtest_cmp, u[0]                           */
};

/* Data types of `ssbo N subdata TYPE` and `probe ssbo TYPE`. */
enum shtest_dtype { SH_D_INT, SH_D_UINT, SH_D_FLOAT, SH_D_DOUBLE,
                    SH_D_INT64, SH_D_UINT64 };
/* shader_runner's comparisons (parse_comparison_op); it reads "!=" as
 * ">", and so does the parser. */
enum shtest_cmp { SH_CMP_EQ, SH_CMP_LT, SH_CMP_GE, SH_CMP_GT, SH_CMP_LE };

enum shtest_utype { SH_U_FLOAT, SH_U_INT, SH_U_UINT, SH_U_BOOL };
enum shtest_prim { SH_PRIM_TRIANGLES, SH_PRIM_TRIANGLE_STRIP,
                   SH_PRIM_TRIANGLE_FAN, SH_PRIM_QUADS };

enum shtest_param { SH_ENV_VP, SH_LOCAL_VP, SH_ENV_FP, SH_LOCAL_FP };
/* SH_TEX_CHECKER: f[0..3] the colour of even squares, f[4..7] odd. */
enum shtest_tex { SH_TEX_RGBW, SH_TEX_MIPTREE, SH_TEX_SHADOW1D,
                  SH_TEX_SHADOW2D, SH_TEX_SHADOWRECT, SH_TEX_CHECKER };
enum shtest_texparam { SH_TP_COMPARE_FUNC, SH_TP_DEPTH_MODE, SH_TP_MIN,
                       SH_TP_MAG, SH_TP_WRAP_S, SH_TP_WRAP_T, SH_TP_WRAP_R };
/* texparameter values: compare functions are enum gfx_compare, depth
 * modes enum gfx_depth_mode, wraps enum gfx_wrap; filters below. */
enum shtest_filter { SH_NEAREST, SH_LINEAR, SH_NEAREST_MIPMAP_NEAREST,
                     SH_LINEAR_MIPMAP_NEAREST, SH_NEAREST_MIPMAP_LINEAR,
                     SH_LINEAR_MIPMAP_LINEAR };
/* SH_CAP_FLAT_SHADE: `shade model flat` (on) or `smooth` (off). */
/* SH_CAP_CLIP_PLANE: GL_CLIP_PLANE0 + i[1]. */
enum shtest_cap { SH_CAP_DEPTH_TEST, SH_CAP_TWO_SIDE, SH_CAP_FLAT_SHADE,
                  SH_CAP_CLIP_PLANE };

struct shtest_cmd {
    uint8_t op;          /* enum shtest_op                              */
    uint8_t sub;         /* see enum shtest_op                          */
    uint8_t n;           /* probes: components compared (3 or 4)        */
    unsigned line, col;  /* of the command in the file                  */
    int i[4];
    union {              /* values: floats, or bit patterns (integer
                            uniforms, buffer data)                     */
        float f[SHTEST_MAX_VALUES];
        uint32_t u[SHTEST_MAX_VALUES];
    };
};

/* Program text inside the file's buffer: `line` is the file line of its
 * first character, so assembler positions map back to the file. */
struct shtest_source {
    const char *text;    /* NULL: the section is absent                 */
    size_t len;
    unsigned line;
};

/* [vertex data]: columns "name/TYPE/N" (TYPE float, int or uint; N a
 * count or the GLSL type), one vertex per row; an integer column's values
 * are kept as their bits. */
enum shtest_vtype { SH_V_NONE, SH_V_FLOAT, SH_V_INT, SH_V_UINT };
struct shtest_vcol {
    size_t name_at;      /* offset of the attribute name in the file     */
    unsigned name_len, comps, offset;  /* offset: first float of a row    */
    uint8_t type;        /* enum shtest_vtype                            */
};

struct shtest_vdata {
    struct shtest_vcol col[SHTEST_MAX_VCOLS];
    unsigned ncols, stride, nrows;
    float *values;       /* nrows * stride                               */
};

struct shtest {
    const char *text;               /* the file (names point into it)   */
    unsigned width, height;         /* window (SIZE in [require])       */
    struct shtest_source vp, fp;
    struct shtest_source cp;        /* [compute program]                */
    bool glsl;                      /* GLSL sections instead of ARB     */
    bool vs_passthrough;            /* [vertex shader passthrough]      */
    unsigned glsl_version;          /* "GLSL >= 1.20" in [require]: 120 */
    /* GLSL sections by enum us_stage: vertex, fragment, compute */
    struct shtest_source sh[US_STAGE_COUNT][SHTEST_MAX_SHADERS];
    unsigned nsh[US_STAGE_COUNT];
    struct shtest_vdata vdata;
    struct shtest_cmd *cmds;
    unsigned ncmds;
    char skip[192];                 /* non-empty: why the model skips it */
    unsigned skip_line;             /* where the reason comes from      */
};

/*
 * Parse `text` (len bytes, need not be NUL-terminated; it must outlive
 * *t since the program sources point into it).  On failure *t is empty
 * and *diag has the file line and column.
 */
US_MUST_CHECK bool shtest_parse(struct shtest *t, const char *text,
                                size_t len, struct us_diag *diag);
/* The same for a run with `varying_slots` vec4 varyings (knob
 * varying_slots; 0: 8): the GL_MAX_VARYING_* limits [require] sees. */
US_MUST_CHECK bool shtest_parse_slots(struct shtest *t, const char *text,
                                      size_t len, unsigned varying_slots,
                                      struct us_diag *diag);
void shtest_free(struct shtest *t);

/* ---------------------------------------------------------------------- */
/* Running.                                                                */

enum shtest_status { SHTEST_PASS, SHTEST_FAIL, SHTEST_SKIP };

struct shtest_result {
    enum shtest_status status;
    unsigned line;          /* FAIL: the first failed probe; SKIP: cause */
    unsigned probes;        /* probes checked                            */
    unsigned failed;        /* probes that failed                        */
    char msg[320];          /* FAIL: that probe and the values seen;
                               SKIP: the reason                          */
};

/* What runs a compute launch (us_compute_interpret's contract: memory is
 * env->mem, false with *diag on a failed launch). */
typedef bool (*shtest_compute_fn)(void *ctx, const struct us_program *prog,
                                  const struct us_exec_env *env,
                                  const uint32_t groups[3],
                                  struct us_diag *diag);

struct shtest_env {
    const struct us_math *math;                 /* SFU model or exact    */
    const struct gfx_shader_backend *backend;   /* the core model        */
    shtest_compute_fn compute;   /* NULL: the reference interpreter      */
    void *compute_ctx;
};

/*
 * Run a parsed file.  Returns false (with *diag at the file position) when
 * the file cannot run: a program does not assemble, a command refers to a
 * missing texture, a probe lies outside the window, memory runs out.
 * Otherwise *r says PASS, FAIL or SKIP.
 */
US_MUST_CHECK bool shtest_run(const struct shtest *t,
                              const struct shtest_env *env,
                              struct shtest_result *r, struct us_diag *diag);

/* Piglit's probe comparisons (tests/util/piglit-util-gl.c), exposed for
 * the tests.  `observed` are 8-bit framebuffer values.  A single-pixel
 * probe reads floats (ubyte / 255) and fails when |observed - expected|
 * > tol; `probe all` reads ubytes and fails when |observed - trunc(expected
 * * 255)| > ceil(tol * 255). */
bool shtest_match_pixel(const uint8_t *observed, const float *expected,
                        const float *tol, unsigned n);
bool shtest_match_all(const uint8_t *observed, const float *expected,
                      const float *tol, unsigned n);

#endif
