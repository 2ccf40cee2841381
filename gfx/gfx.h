/*
 * The 3D pipeline (SPEC §6): textures, meshes, scenes and the rasterizer
 * that runs ARB vertex and fragment programs through a shader backend.
 *
 * Coordinates: window space is GL's (origin at the lower-left corner, y up);
 * images are stored top row first, so row r of an image is window y = H-1-r.
 * Everything here is deterministic: batches and quads are visited in a fixed
 * order, and no state lives outside the structs passed in.
 */
#ifndef GFX_H
#define GFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ushader.h"
#include "shader/interp_soa.h"

/* ---------------------------------------------------------------------- */
/* Limits (checked with clear errors).                                     */

enum {
    GFX_MAX_VIEWPORT = 4096,      /* framebuffer width and height          */
    GFX_MAX_TEX_SIZE = 2048,      /* 1D/2D/RECT/CUBE side                  */
    GFX_MAX_TEX_3D = 256,         /* 3D side (and number of slices)        */
    GFX_MAX_TEX_LEVELS = 12,      /* 2048 -> 1                             */
    GFX_MAX_PNG_BYTES = 64 << 20, /* a PNG file                            */
    GFX_MAX_MESH_VERTS = 1 << 22, /* vertices of one mesh                  */
    GFX_MAX_MESH_TRIS = 1 << 22,  /* triangles of one mesh                 */
    GFX_SUBPIXEL_BITS = 8,        /* fixed-point window coordinates        */
    GFX_MAX_SCENE_TEXTURES = 32,
    GFX_MAX_SCENE_MESHES = 32,
    GFX_MAX_SCENE_PROGRAMS = 32,
};

/* x and y are clipped to |x| <= GFX_GUARD_BAND * w (likewise y): a guard
 * band of 4x the viewport around it.  Window coordinates then stay within
 * [-1.5 W, 2.5 W], so with W <= 4096 and 8 sub-pixel bits every edge
 * function product fits comfortably in int64. */
#define GFX_GUARD_BAND 4.0f

#define GFX_PI 3.14159265358979323846

/* Whether a program's threads write memory (STORE or an atomic): a draw
 * then runs its stage on one worker (their order matters), and a core
 * backend that shades its quads again writes them once (the model's run
 * goes to a copy of the buffers). */
bool gfx_writes_memory(const struct us_program *prog);

/* Fill *diag (line, col may be 0) and return false. */
bool gfx_fail(struct us_diag *diag, unsigned line, unsigned col,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A path as messages show it: the path itself when it has at most `max`
 * bytes (max < GFX_SHOWN_PATH), else "..." and its last bytes, cut at a
 * UTF-8 character boundary, so that the reason after it always fits in
 * us_diag.msg.  Returns `path` or `buf`. */
enum { GFX_SHOWN_PATH = 128 };
const char *gfx_show_path(char buf[GFX_SHOWN_PATH], const char *path,
                          size_t max);
/* gfx_fail with "PATH: REASON" (no position), the path shortened by
 * gfx_show_path as far as the whole reason needs. */
bool gfx_fail_path(struct us_diag *diag, const char *path, const char *fmt,
                   ...) __attribute__((format(printf, 3, 4)));

/* ---------------------------------------------------------------------- */
/* The memory budget of one run (gfx/budget.c).                            */

/* A scene (loaded and rendered), a shader_test or a `run --arch` holds at
 * most GFX_MEM_BUDGET_MIB of memory whose size its input chooses: texels,
 * vertices and indices, framebuffers, a draw's clip-space vertices,
 * thread records, the files a scene names.  Each such allocation is
 * charged to the run's budget before it is made and refused with a clear
 * message when it would go over (README "Limits").  Allocations of a
 * fixed size, or at most a few times the size of a 16 MiB input file, are
 * not counted. */
enum { GFX_MEM_BUDGET_MIB = 1024 };

struct gfx_budget {
    size_t left;               /* bytes that may still be charged        */
};
void gfx_budget_init(struct gfx_budget *b);
/* Whether n * size bytes fit in what is left; when not, "WHAT needs N
 * MiB, more than the M MiB left of the 1024 MiB memory budget" in *diag.
 * A NULL budget takes everything (callers outside a run: tests, fuzzers). */
US_MUST_CHECK bool gfx_budget_check(const struct gfx_budget *b, size_t n,
                                    size_t size, const char *what,
                                    struct us_diag *diag);
/* gfx_budget_check, then charge the bytes. */
US_MUST_CHECK bool gfx_budget_take(struct gfx_budget *b, size_t n,
                                   size_t size, const char *what,
                                   struct us_diag *diag);
/* Give back bytes taken before (a NULL budget: nothing to do). */
void gfx_budget_give(struct gfx_budget *b, size_t bytes);

/* Open a file for reading only if it is a regular file: opened without
 * blocking (a FIFO without a writer would block open(2) for ever), then
 * fstat'ed, then made blocking.  Returns the descriptor and the file's
 * size, or -1 with the reason, without the path, in *diag ("is a
 * directory", "not a regular file (a FIFO)", "cannot open: ..."). */
US_MUST_CHECK int gfx_open_regular(const char *path, size_t *size,
                                struct us_diag *diag);

/* Read a whole file of at most `max` bytes, NUL-terminated (malloc'd),
 * through gfx_open_regular; messages are "PATH: REASON". */
US_MUST_CHECK bool gfx_read_file(const char *path, size_t max, char **data,
                                 size_t *len, struct us_diag *diag);
/* The same, with the buffer charged to `budget` first: *len + 1 bytes on
 * success, which the caller gives back when it frees the data. */
US_MUST_CHECK bool gfx_read_file_charged(const char *path, size_t max,
                                         struct gfx_budget *budget,
                                         char **data, size_t *len,
                                         struct us_diag *diag);

/* ---------------------------------------------------------------------- */
/* Small vector/matrix helpers (gfx/math3d.c).  Matrices are us_mat4:      */
/* row-major, m[4 * row + col], applied to column vectors.                 */

void gfx_mat_identity(float m[16]);
void gfx_mat_mul(float out[16], const float a[16], const float b[16]);
void gfx_mat_vec(float out[4], const float m[16], const float v[4]);
void gfx_mat_translate(float m[16], float x, float y, float z);
void gfx_mat_scale(float m[16], float x, float y, float z);
void gfx_mat_rotate(float m[16], float deg, float x, float y, float z);
void gfx_mat_perspective(float m[16], float fovy_deg, float aspect,
                         float znear, float zfar);
void gfx_mat_lookat(float m[16], const float eye[3], const float at[3],
                    const float up[3]);

/* ---------------------------------------------------------------------- */
/* Textures (gfx/texture.c, gfx/png.c, gfx/proctex.c).                     */

enum gfx_filter {
    GFX_FILTER_NEAREST,    /* GL_NEAREST, no mipmaps                        */
    GFX_FILTER_BILINEAR,   /* GL_LINEAR, no mipmaps                         */
    GFX_FILTER_MIP_NEAREST,/* GL_NEAREST_MIPMAP_NEAREST, mag GL_NEAREST     */
    GFX_FILTER_TRILINEAR,  /* GL_LINEAR_MIPMAP_LINEAR, mag GL_LINEAR        */
};

enum gfx_wrap { GFX_WRAP_REPEAT, GFX_WRAP_CLAMP, GFX_WRAP_MIRROR };

enum gfx_tex_kind { GFX_TEX_1D, GFX_TEX_2D, GFX_TEX_3D, GFX_TEX_CUBE,
                    GFX_TEX_RECT };

/* One mip level: w x h x d texels of RGBA float, x fastest; a cube map's
 * six faces (+X -X +Y -Y +Z -Z) are its d = 6 layers. */
struct gfx_level {
    unsigned w, h, d;
    float *texels;
};

struct gfx_texture {
    enum gfx_tex_kind kind;
    enum gfx_filter filter;
    enum gfx_wrap wrap[3];     /* s, t, r                                  */
    bool depth;                /* a depth texture: red holds the depth     */
    unsigned nlevels;
    struct gfx_level level[GFX_MAX_TEX_LEVELS];
    uint8_t compare;           /* enum gfx_compare: shadow lookups' test  */
    uint8_t depth_mode;        /* enum gfx_depth_mode: shadow result      */
    struct gfx_budget *budget; /* the levels are charged here (or NULL)  */
    size_t charged;            /* ... this much, given back by free      */
};

/* GL 2.1 §3.8.4 / ARB_shadow: TEXTURE_COMPARE_FUNC of shadow lookups
 * (r is the reference, D the texel's depth; 0 = LEQUAL, GL's default). */
enum gfx_compare { GFX_CMP_LEQUAL, GFX_CMP_GEQUAL, GFX_CMP_LESS,
                   GFX_CMP_GREATER, GFX_CMP_EQUAL, GFX_CMP_NOTEQUAL,
                   GFX_CMP_ALWAYS, GFX_CMP_NEVER };
/* GL 2.1 §3.8.14 DEPTH_TEXTURE_MODE: how the comparison result c becomes
 * RGBA (0 = LUMINANCE (c, c, c, 1), GL's default). */
enum gfx_depth_mode { GFX_DEPTH_LUMINANCE, GFX_DEPTH_INTENSITY,
                      GFX_DEPTH_ALPHA, GFX_DEPTH_RED };

/* Allocate level 0 (texels zeroed), charged to `budget` (may be NULL)
 * first; the texture keeps the budget for its mipmaps and gives every
 * byte back when freed. */
US_MUST_CHECK bool gfx_texture_alloc(struct gfx_texture *t,
                                     enum gfx_tex_kind kind, unsigned w,
                                     unsigned h, unsigned d,
                                     struct gfx_budget *budget,
                                     struct us_diag *diag);
void gfx_texture_free(struct gfx_texture *t);
/* Bytes of the texels of a w x h x d texture, with its mipmap levels as
 * gfx_texture_mipmap builds them when `mipmaps` (RECT has none): what a
 * declaration will need, known before anything is allocated. */
size_t gfx_texture_bytes(enum gfx_tex_kind kind, unsigned w, unsigned h,
                         unsigned d, bool mipmaps);
/* Build levels 1.. by 2x2(x2) box filtering, down to 1x1 (not RECT);
 * each level is charged to the texture's budget before it is allocated. */
US_MUST_CHECK bool gfx_texture_mipmap(struct gfx_texture *t,
                                      struct us_diag *diag);
static inline float *gfx_texel(const struct gfx_level *l, unsigned x,
                               unsigned y, unsigned z)
{
    return l->texels + 4 * (((size_t)z * l->h + y) * l->w + x);
}

/* Wrap an integer texel index into [0, size). */
int gfx_wrap_index(enum gfx_wrap mode, int i, int size);

/* Level of detail lambda from the scaled derivatives: rho = the larger of
 * |d(u,v,w)/dx| and |d(u,v,w)/dy| in texels; lambda = log2(rho) + bias. */
float gfx_lod(const float dx[3], const float dy[3], float bias);

/* Sample at one lambda.  `coord` as ARB_fragment_program gives it (s, t, r,
 * q after the TXP divide); shadow targets compare coord.z with t->compare
 * (GL_LEQUAL by default) and expand the result c by t->depth_mode
 * ((c, c, c, 1) by default, as GL_DEPTH_TEXTURE_MODE = GL_LUMINANCE). */
void gfx_texture_sample(const struct gfx_texture *t,
                        enum us_tex_target target, const float coord[4],
                        float lambda, float out[4]);

/* The sampler the interpreter calls: textures bound to units. */
struct gfx_sampler {
    const struct gfx_texture *unit[US_MAX_TEX_UNITS];
    uint64_t samples;         /* texture lookups performed (statistics)  */
};
/* us_sample_fn / us_sample_quad_fn; ctx is a struct gfx_sampler. */
void gfx_sample(void *ctx, unsigned unit, enum us_tex_target target,
                const float coord[4], float lod_bias, float out[4]);
void gfx_sample_quad(void *ctx, unsigned unit, enum us_tex_target target,
                     const float coord[4][4], const float lod_bias[4],
                     float out[4][4]);

/* PNG: decode to a 2D RGBA float image (rows top first), size-limited;
 * encode RGBA8 to a malloc'd buffer. */
US_MUST_CHECK bool gfx_png_decode(const void *data, size_t len,
                                  unsigned max_side, float **rgba,
                                  unsigned *w, unsigned *h,
                                  struct us_diag *diag);
/* A PNG file (gfx_read_file rules), the file and the decoder's arrays
 * charged to `budget` while they live, and the image's w * h * 16 bytes
 * still charged on return: the caller gives them back when it frees it. */
US_MUST_CHECK bool gfx_png_load(const char *path, unsigned max_side,
                                struct gfx_budget *budget, float **rgba,
                                unsigned *w, unsigned *h,
                                struct us_diag *diag);
US_MUST_CHECK bool gfx_png_encode(const uint8_t *rgba, unsigned w,
                                  unsigned h, void **out, size_t *len,
                                  struct us_diag *diag);

/* Procedural images for scenes, written in texel order (row 0 is t = 0). */
enum gfx_proc { GFX_PROC_CHECKER, GFX_PROC_NOISE, GFX_PROC_BRICK,
                GFX_PROC_BUMPS, GFX_PROC_SKY };
/* Fill w x h RGBA texels of `out`; `face` selects a cube face for SKY,
 * `seed` varies NOISE. */
void gfx_proc_fill(enum gfx_proc kind, unsigned w, unsigned h,
                   unsigned face, uint32_t seed, float *out);

/* ---------------------------------------------------------------------- */
/* Meshes (gfx/mesh.c, gfx/obj.c, gfx/teapot.c).                           */

/* Generic attribute slots a mesh vertex carries; the conventional
 * attributes alias them as ARB_vertex_program table X.2 says. */
enum gfx_attr {
    GFX_ATTR_POSITION = 0, GFX_ATTR_WEIGHT = 1, GFX_ATTR_NORMAL = 2,
    GFX_ATTR_COLOR0 = 3, GFX_ATTR_COLOR1 = 4, GFX_ATTR_FOGCOORD = 5,
    GFX_ATTR_TANGENT = 6,      /* ours: generic attribute 6 has no alias   */
    GFX_ATTR_TEXCOORD0 = 8,    /* texcoord[n] = 8 + n                      */
    GFX_ATTR_COUNT = 16
};

/* Bit a of a mask of attributes. */
#define GFX_ATTR_BIT(a) (1u << (a))
/* What the procedural meshes and the model loaders store: position,
 * normal, texcoord[0] and the tangent, also in texcoord[1]
 * (gfx_mesh_tangents). */
enum { GFX_MESH_ATTRS = GFX_ATTR_BIT(GFX_ATTR_POSITION) |
                        GFX_ATTR_BIT(GFX_ATTR_NORMAL) |
                        GFX_ATTR_BIT(GFX_ATTR_TEXCOORD0) |
                        GFX_ATTR_BIT(GFX_ATTR_TANGENT) |
                        GFX_ATTR_BIT(GFX_ATTR_TEXCOORD0 + 1),
       GFX_ALL_ATTRS = (1u << GFX_ATTR_COUNT) - 1 };

/* GL's current value of generic attribute a, which a vertex of a mesh
 * that does not store it reads. */
const float *gfx_attr_default(unsigned a);

/* The vertices are stored by attribute: attr[a][i] is vertex i's
 * attribute a, for the attributes the mesh was allocated with; attr[a]
 * is NULL for the others (a vertex reads gfx_attr_default(a)).  A bunny
 * of 35,000 vertices is 2.2 MB instead of 9 MB of all 16. */
struct gfx_mesh {
    us_vec4 *attr[GFX_ATTR_COUNT];
    unsigned nverts;
    uint32_t *idx;             /* 3 per triangle, counter-clockwise front */
    unsigned ntris;
    void *block;               /* the planes and idx, one allocation      */
    struct gfx_budget *budget; /* the block is charged here (or NULL)     */
    size_t charged;            /* ... this much, given back by free      */
};

/* Every constructor charges the mesh (gfx_mesh_bytes) and the loaders
 * their working arrays to `budget` (NULL: no budget) before allocating
 * them; gfx_mesh_free gives the mesh's bytes back. */
void gfx_mesh_free(struct gfx_mesh *m);
/* Bytes of a mesh of nverts vertices storing the attributes of mask
 * `attrs` and ntris triangles. */
size_t gfx_mesh_bytes(size_t nverts, uint32_t attrs, size_t ntris);
/* nverts vertices storing the attributes of `attrs`, set to GL's
 * current values, and ntris triangles. */
US_MUST_CHECK bool gfx_mesh_alloc(struct gfx_mesh *m, size_t nverts,
                                  uint32_t attrs, size_t ntris,
                                  struct gfx_budget *budget,
                                  struct us_diag *diag);
US_MUST_CHECK bool gfx_mesh_sphere(struct gfx_mesh *m, float r,
                                   unsigned slices, unsigned stacks,
                                   struct gfx_budget *budget,
                                   struct us_diag *diag);
US_MUST_CHECK bool gfx_mesh_torus(struct gfx_mesh *m, float R, float r,
                                  unsigned rings, unsigned sides,
                                  struct gfx_budget *budget,
                                  struct us_diag *diag);
US_MUST_CHECK bool gfx_mesh_plane(struct gfx_mesh *m, float size,
                                  unsigned n, struct gfx_budget *budget,
                                  struct us_diag *diag);
US_MUST_CHECK bool gfx_mesh_cube(struct gfx_mesh *m, float size,
                                 struct gfx_budget *budget,
                                 struct us_diag *diag);
/* Newell's teapot, each Bezier patch tessellated n x n, z up as in the
 * data set, scaled to unit height-ish (see teapot.c). */
US_MUST_CHECK bool gfx_mesh_teapot(struct gfx_mesh *m, unsigned n,
                                   struct gfx_budget *budget,
                                   struct us_diag *diag);
/* Wavefront OBJ text, NUL-terminated at text[len] (v, vt, vn, f; negative
 * indices; polygons fanned).  Vertices are the distinct (v, vt, vn)
 * corners in the order of their first use, found in linear time.
 * Smooth normals are computed when the file has none. */
US_MUST_CHECK bool gfx_mesh_obj(struct gfx_mesh *m, const char *text,
                                size_t len, struct gfx_budget *budget,
                                struct us_diag *diag);
/* Autodesk .3ds geometry (gfx/model3ds.c): every object's vertices, faces
 * and texture coordinates; normals computed; with texture coordinates,
 * tangents in attribute 6 and repeated in texcoord[1]. */
US_MUST_CHECK bool gfx_mesh_3ds(struct gfx_mesh *m, const void *data,
                                size_t len, struct gfx_budget *budget,
                                struct us_diag *diag);
/* Area-weighted vertex normals; tangents along +u of texcoord[0]. */
void gfx_mesh_normals(struct gfx_mesh *m);
void gfx_mesh_tangents(struct gfx_mesh *m);

/* ---------------------------------------------------------------------- */
/* Shader backend: the one way the pipeline runs programs.                 */

struct us_soa;
struct gfx_shader_backend {
    const char *name;
    void *ctx;
    /* Run `prog` on n threads.  With `quads`, n is a multiple of 4 and each
     * run of four is a 2x2 fragment quad (0 top-left, 1 top-right,
     * 2 bottom-left, 3 bottom-right) shaded in lockstep. */
    void (*shade)(void *ctx, const struct us_program *prog,
                  const struct us_exec_env *env, struct us_thread *threads,
                  unsigned n, bool quads);
    uint32_t max_insts;  /* every thread's instruction budget, 0: default;
                            a thread over it fails the draw             */
    unsigned varying_slots;  /* knob varying_slots: a draw whose programs
                                use more fails; 0: the default (8)      */
    unsigned vertex_batch;   /* vertices a `shade` call takes at most, at
                                most 256; 0: 32.  A core model counts
                                cycles a call, so its batches are part
                                of the experiment                       */
    /* Optional (NULL: none): the fragment program's row form
     * (shader/interp_soa.h us_soa_open), which the pipeline fills and
     * reads lane rows of instead of thread records; NULL when the
     * backend does not take the program: the pipeline then shades thread
     * records through `shade`.  Freed with us_soa_free. */
    struct us_soa *(*rows_open)(void *ctx, const struct us_program *prog);
};

/* The reference interpreter. */
extern const struct gfx_shader_backend gfx_backend_functional;

/* USHADER_SOA picks the build of the functional path's vector loops, for
 * benchmarks and the identity tests (tests/soa.test.sh): "baseline",
 * "avx2" or "avx512" that build of the SoA executor and the rasterizer
 * (when the CPU has it), "0" the reference executor alone (the path
 * before the SoA executor; false) with the best rasterizer; unset or
 * anything else, the CPU's best build (*isa = US_SOA_AUTO). */
bool gfx_soa_choice(enum us_soa_isa *isa);

/* ---------------------------------------------------------------------- */
/* Rasterizer pieces (gfx/raster.c, gfx/clip.c), exposed for the tests.    */

/* A vertex after clipping: clip-space position and the varyings. */
enum { GFX_NVARY = US_VOUT_COUNT };
struct gfx_cvert {
    us_vec4 pos;               /* clip space                              */
    us_vec4 vary[GFX_NVARY];   /* indexed by enum us_vout                 */
};

enum { GFX_CLIP_MAX_VERTS = 3 + 7 + US_MAX_CLIP_DISTANCES };
/* Clip a triangle against near, far, w > 0 and the x/y guard band; out
 * receives a convex polygon of up to GFX_CLIP_MAX_VERTS vertices.  Returns
 * the vertex count (0 when nothing is left).  Only the varyings whose bit
 * is set in `vary_mask` are interpolated. */
unsigned gfx_clip_triangle(const struct gfx_cvert *in[3], uint64_t vary_mask,
                           struct gfx_cvert *out);
/* What gfx_clip_polygon interpolates and clips against. */
struct gfx_clip_spec {
    uint64_t vary_mask;        /* varyings carried (bit per enum us_vout) */
    uint64_t linear_mask;      /* of them, the noperspective ones: linear
                                  in window space across a new vertex    */
    uint8_t planes;            /* user clip planes: bit i clips where
                                  clip distance i < 0                    */
};
/* gfx_clip_triangle with noperspective varyings and user clip planes
 * (gfx_clip_triangle is this with only vary_mask). */
unsigned gfx_clip_polygon(const struct gfx_cvert *in[3],
                          const struct gfx_clip_spec *spec,
                          struct gfx_cvert *out);

/* Triangle setup in fixed point.  x, y are window coordinates; inside
 * means every edge function is > 0, or == 0 on a top or left edge. */
struct gfx_tri_setup {
    int64_t x[3], y[3];        /* window coordinates * 2^SUBPIXEL_BITS     */
    int64_t area2;             /* twice the signed area, > 0 after setup  */
    bool owned[3];             /* edge i (from v[i+1] to v[i+2]) is top/left */
    bool back;                 /* clockwise in window space: a back face  */
    int xmin, xmax, ymin, ymax;/* pixel bounds, clamped to the viewport   */
};
/* false when the triangle is degenerate or outside the viewport.  The
 * vertex order is fixed up to counter-clockwise (perm says how). */
bool gfx_tri_setup(struct gfx_tri_setup *s, const float wx[3],
                   const float wy[3], unsigned vw, unsigned vh,
                   unsigned perm[3]);
/* The three edge functions at the centre of pixel (px, py); returns whether
 * the pixel is covered under the fill rule. */
bool gfx_tri_edges(const struct gfx_tri_setup *s, int px, int py,
                   int64_t e[3]);
/* The edge functions' steps from a pixel to the next one right (dx) and
 * up (dy): e(px + i, py + j) = e(px, py) + i dx + j dy, exactly (integer
 * arithmetic), so a rasterizer can walk a row instead of evaluating each
 * pixel. */
void gfx_tri_edge_steps(const struct gfx_tri_setup *s, int64_t dx[3],
                        int64_t dy[3]);
/* Whether edge values e (gfx_tri_edges' or stepped to) cover the pixel
 * under the fill rule (inline: it runs for every pixel of every bounding
 * box). */
static inline bool gfx_tri_inside(const struct gfx_tri_setup *s,
                                  const int64_t e[3])
{
    /* e > 0, or e >= 0 on an owned edge: e + owned - 1 >= 0 (no
     * overflow: |e| < 2^62), for the three edges at once */
    return ((e[0] + s->owned[0] - 1) | (e[1] + s->owned[1] - 1) |
            (e[2] + s->owned[2] - 1)) >= 0;
}

/* ---------------------------------------------------------------------- */
/* Framebuffer, state and drawing (gfx/pipeline.c).                        */

/* Arrays of megabytes, from 1 MiB up in 2 MiB pages advised for
 * transparent huge pages (gfx/hugemem.c); freed with free().  The realloc
 * copies the `old` bytes it keeps. */
void *gfx_huge_alloc(size_t bytes);
void *gfx_huge_realloc(void *p, size_t old, size_t bytes);

struct gfx_framebuffer {
    unsigned w, h;
    float *color;              /* RGBA, window row y at (y * w), y up      */
    uint8_t *rgba8;            /* or, instead, the colour as the export's
                                  bytes (gfx_unorm8): window row y at
                                  image row h - 1 - y                      */
    float *depth;              /* w h floats (NULL: an RGBA8 framebuffer
                                  of draws that do not test depth)        */
    void *block;               /* the one allocation: float: the depth,
                                  then the colour; RGBA8: the colour, then
                                  the depth                                */
};
US_MUST_CHECK bool gfx_fb_init(struct gfx_framebuffer *fb, unsigned w,
                               unsigned h, struct us_diag *diag);
/* The same, its contents left undefined: for a caller that clears it at
 * once (gfx_fb_clear_rows, on several threads). */
US_MUST_CHECK bool gfx_fb_alloc(struct gfx_framebuffer *fb, unsigned w,
                                unsigned h, struct us_diag *diag);
/* The same with the colour in RGBA8 (fb->rgba8), a depth buffer when
 * `depth`: for draws that never read the colour back (no blending), whose
 * image is then the colour buffer itself. */
US_MUST_CHECK bool gfx_fb_alloc_rgba8(struct gfx_framebuffer *fb, unsigned w,
                                      unsigned h, bool depth,
                                      struct us_diag *diag);
/* Bytes a w x h framebuffer costs a run at most: float colour, depth,
 * the RGBA8 export (gfx_fb_rgba8) and a PNG written from it (28 bytes a
 * pixel; an RGBA8 framebuffer holds 4 or 8 of them). */
size_t gfx_fb_bytes(unsigned w, unsigned h);
void gfx_fb_free(struct gfx_framebuffer *fb);
void gfx_fb_clear(struct gfx_framebuffer *fb, const float rgba[4],
                  float depth);
/* The same for rows [y0, y1) only. */
void gfx_fb_clear_rows(struct gfx_framebuffer *fb, const float rgba[4],
                       float depth, unsigned y0, unsigned y1);
/* The image as RGBA8 rows top first, made on `jobs` host threads over
 * the depth buffer: the framebuffer's block becomes the image (to free
 * with free()) and *fb is emptied.  Its gfx_hash_rgba8 into *hash unless
 * hash is NULL.  The same bytes and hash for any jobs. */
uint8_t *gfx_fb_rgba8(struct gfx_framebuffer *fb, unsigned jobs,
                      uint64_t *hash);
/* FNV-1a 64 over RGBA8 bytes: the golden-image hash. */
uint64_t gfx_hash_rgba8(const uint8_t *rgba, size_t n);

enum gfx_cull { GFX_CULL_NONE, GFX_CULL_BACK, GFX_CULL_FRONT };

/* Pipeline state that is not GL program state. */
struct gfx_state {
    bool depth_test;           /* GL_LESS against the depth buffer        */
    bool depth_write;
    bool blend;                /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA          */
    bool two_side;             /* GL_VERTEX_PROGRAM_TWO_SIDE_ARB          */
    bool flat_shade;           /* glShadeModel(GL_FLAT): the colours of
                                  the fragment inputs without a qualifier
                                  (us_program.interp_*) are flat        */
    uint8_t clip_planes;       /* GL_CLIP_PLANEi enabled: bit i clips by
                                  clip distance i (the vertex program's
                                  result.clipdistance, else the distance
                                  of its result.clipvertex, or of the eye-
                                  space position of a position-invariant
                                  one, from us_glstate.clip_plane[i])    */
    enum gfx_cull cull;
    const struct gfx_texture *tex[US_MAX_TEX_UNITS];
};
void gfx_state_init(struct gfx_state *s);

struct gfx_stats {
    uint64_t vertices;         /* vertex program invocations              */
    uint64_t triangles;        /* assembled                               */
    uint64_t clipped;          /* triangles after clipping (fan pieces)   */
    uint64_t culled;           /* rejected as back/front faces            */
    uint64_t fragments;        /* covered fragments shaded                */
    uint64_t helpers;          /* uncovered quad members shaded for LOD   */
    uint64_t killed;           /* by KIL                                  */
    uint64_t depth_failed;
    uint64_t written;          /* passed every test                       */
    uint64_t tex_samples;
};

struct gfx_pool;

struct gfx_draw {
    const struct gfx_mesh *mesh;
    const struct us_program *vp, *fp;
    const struct us_glstate *gl;
    const struct gfx_state *state;
    const struct us_math *math;
    const struct gfx_shader_backend *backend;
    struct gfx_budget *budget; /* charged with the draw's working memory
                                  (gfx_draw_bytes) while it runs, or NULL */
    struct us_memory *mem;     /* buffer bindings both stages' memory
                                  instructions use; NULL: none           */
    struct gfx_pool *pool;     /* the host threads to run on, or NULL:
                                  threads started for each stage        */
    unsigned jobs;             /* host threads (0, 1: this one alone);
                                  the image, counts and errors are the
                                  same for any number.  More than one
                                  needs a backend whose shade may run
                                  on separate thread arrays at once (the
                                  functional one; not a core model's,
                                  whose ctx counts cycles)              */
};

/* Host threads kept for a whole render (gfx/pool.c): `workers` in all,
 * the caller's one of them (NULL when out of memory; fewer threads when
 * they cannot be started: their workers then run on the caller's).
 * gfx_pool_run calls fn(arg, i) for i in [0, n) and returns when every
 * call has returned, i = 0 on the caller's thread; gfx_pool_scratch is
 * worker i's memory of at least `bytes`, kept from run to run (NULL when
 * out of memory or i >= workers).  The threads end with
 * us_math_thread_end. */
struct gfx_pool *gfx_pool_new(unsigned workers);
void gfx_pool_free(struct gfx_pool *p);
unsigned gfx_pool_workers(const struct gfx_pool *p);
void gfx_pool_run(struct gfx_pool *p, unsigned n,
                  void (*fn)(void *arg, unsigned worker), void *arg);
void *gfx_pool_scratch(struct gfx_pool *p, unsigned worker, size_t bytes);

/* Bytes gfx_draw_mesh allocates for a draw: the clip-space vertices, the
 * parameters, a thread batch per host thread (at most d->jobs: a draw
 * uses no more than one a 16 x 16 tile of the framebuffer). */
size_t gfx_draw_bytes(const struct gfx_draw *d);
/* The host threads a draw on a w x h framebuffer uses of `jobs`: at most
 * one a 16 x 16 tile. */
unsigned gfx_draw_workers(unsigned jobs, unsigned w, unsigned h);
US_MUST_CHECK bool gfx_draw_mesh(struct gfx_framebuffer *fb,
                                 const struct gfx_draw *d,
                                 struct gfx_stats *stats,
                                 struct us_diag *diag);
/* The draws d[0 .. n) in order, as n gfx_draw_mesh calls would draw them
 * (the same image, counts and first error), on the host threads of
 * d[0].pool (or threads started for them) with no wait between draws:
 * a thread done with a draw's last tiles goes on to the next draw.  The
 * number of draws done before the first that failed (n: none failed). */
unsigned gfx_draw_meshes(struct gfx_framebuffer *fb, const struct gfx_draw *d,
                         unsigned n, struct gfx_stats *stats,
                         struct us_diag *diag);

/* ---------------------------------------------------------------------- */
/* Scenes (gfx/scene.c; format in docs/SCENES.md).                         */

struct gfx_scene;

/* Parse a scene; `path` locates relative files.  Errors: diag has the
 * line and column; diag->msg may name another file ("FILE: ..."). */
US_MUST_CHECK bool gfx_scene_load(struct gfx_scene **out, const char *path,
                                  const char *text, size_t len,
                                  struct us_diag *diag);
void gfx_scene_free(struct gfx_scene *s);
/* Size from the scene's `size` directive (128 x 128 by default). */
void gfx_scene_size(const struct gfx_scene *s, unsigned *w, unsigned *h);
/* The stage of the program declared as `name` (`program NAME FILE`), -1
 * when there is none; the name of the first program of `stage` in
 * declaration order, or NULL. */
int gfx_scene_program_stage(const struct gfx_scene *s, const char *name);
const char *gfx_scene_first_program(const struct gfx_scene *s, int stage);
/* The i-th file the scene read (programs, meshes, textures; each once, in
 * the order the scene names them), or NULL past the last. */
const char *gfx_scene_input(const struct gfx_scene *s, unsigned i);

/* Which file a gfx_scene_load_slot error is about. */
enum gfx_slot_error {
    GFX_SLOT_ERR_PROGRAM,      /* the replacement program's path          */
    GFX_SLOT_ERR_SCENE,        /* the scene (diag's line and column)      */
    GFX_SLOT_ERR_NO_SLOT,      /* no `program SLOT ...` line              */
};
/* The scene file `scene` (at most max_bytes) with the program file `prog`
 * in place of the one its first `program SLOT FILE` line names (the text
 * is changed before it is parsed, so what the scene says about the slot's
 * program after that line applies to `prog`; gfx/scene_slot.c). */
US_MUST_CHECK bool gfx_scene_load_slot(struct gfx_scene **out,
                                       const char *scene, const char *slot,
                                       const char *prog, size_t max_bytes,
                                       enum gfx_slot_error *where,
                                       struct us_diag *diag);
/* Render at w x h into a fresh framebuffer. */
US_MUST_CHECK bool gfx_scene_render(const struct gfx_scene *s, unsigned w,
                                    unsigned h, const struct us_math *math,
                                    const struct gfx_shader_backend *be,
                                    struct gfx_framebuffer *fb,
                                    struct gfx_stats *stats,
                                    struct us_diag *diag);
/* The same with each draw on `jobs` host threads (gfx_draw.jobs). */
US_MUST_CHECK bool gfx_scene_render_jobs(const struct gfx_scene *s,
                                         unsigned w, unsigned h,
                                         const struct us_math *math,
                                         const struct gfx_shader_backend *be,
                                         unsigned jobs,
                                         struct gfx_framebuffer *fb,
                                         struct gfx_stats *stats,
                                         struct us_diag *diag);

#endif
