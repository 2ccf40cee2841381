/*
 * The Mesa side of bench/softpipe.bench.sh: draw the workload of
 * bench/softpipe/fullscreen.scn on an OSMesa context (run it with
 * GALLIUM_DRIVER=softpipe) and print how many fragments per second the
 * driver shades.  Not part of the ushader library or `make`; the bench
 * script builds it with gcc against pkg-config osmesa gl libpng.
 *
 *   osmesa_bench VP FP W H QUADS FRAMES [OUT.png]
 *
 * VP and FP are ARB program texts loaded with glProgramStringARB
 * (ARB_vertex_program / ARB_fragment_program).  Each frame clears the
 * W x H RGBA8 buffer and draws QUADS full-screen quads, each as two
 * triangles through (x, 0, z), x, z = +-1 (the `plane 2 1` mesh of the
 * scene), with no depth test, culling or blending; glFinish ends the
 * frame.  The GL state the programs read (light 0, front material, light
 * model ambient) is set to the scene's values.  A first, untimed frame
 * counts the fragments with an occlusion query (ARB_occlusion_query
 * SAMPLES_PASSED: every fragment passes with the depth test off); FRAMES
 * timed frames follow.  OUT.png, when given, receives the last frame.
 *
 * Output, one `key value` per line: renderer, fragments_per_frame,
 * frames, cpu_s, wall_s, fragments_per_s (over process CPU time).
 */
#define _POSIX_C_SOURCE 200809L
#include <GL/osmesa.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ARB entry points, taken from OSMesa itself so that no other libGL's
 * dispatch can come between. */
struct arb_fns {
    PFNGLGENPROGRAMSARBPROC gen_programs;
    PFNGLBINDPROGRAMARBPROC bind_program;
    PFNGLPROGRAMSTRINGARBPROC program_string;
    PFNGLGENQUERIESARBPROC gen_queries;
    PFNGLBEGINQUERYARBPROC begin_query;
    PFNGLENDQUERYARBPROC end_query;
    PFNGLGETQUERYOBJECTUIVARBPROC get_query_uiv;
};

static int fail(const char *what)
{
    fprintf(stderr, "osmesa_bench: error: %s\n", what);
    return 1;
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *len = n;
    return buf;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Load one program text into a new program object of `target`. */
static int load_program(const struct arb_fns *fn, GLenum target,
                        const char *path)
{
    size_t len;
    char *text = read_text(path, &len);
    if (!text) {
        fprintf(stderr, "osmesa_bench: %s: error: cannot read\n", path);
        return 1;
    }
    GLuint id;
    fn->gen_programs(1, &id);
    fn->bind_program(target, id);
    fn->program_string(target, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei)len,
                       text);
    free(text);
    GLint pos = -1;
    glGetIntegerv(GL_PROGRAM_ERROR_POSITION_ARB, &pos);
    if (pos != -1 || glGetError() != GL_NO_ERROR) {
        fprintf(stderr, "osmesa_bench: %s: error: at byte %d: %s\n", path,
                (int)pos,
                (const char *)glGetString(GL_PROGRAM_ERROR_STRING_ARB));
        return 1;
    }
    glEnable(target);
    return 0;
}

/* The GL state fullscreen.scn sets; positions under an identity
 * modelview are eye-space, as the scene's world position seen from its
 * camera is. */
static void set_state(void)
{
    static const GLfloat light_pos[] = { 2, 3, 8, 1 };
    static const GLfloat light_amb[] = { 0.1f, 0.1f, 0.1f, 1 };
    static const GLfloat light_dif[] = { 0.9f, 0.9f, 0.9f, 1 };
    static const GLfloat light_spc[] = { 1, 1, 1, 1 };
    static const GLfloat model_amb[] = { 0.2f, 0.2f, 0.2f, 1 };
    static const GLfloat mat_amb[] = { 0.2f, 0.2f, 0.2f, 1 };
    static const GLfloat mat_dif[] = { 0.2f, 0.45f, 0.9f, 1 };
    static const GLfloat mat_spc[] = { 0.9f, 0.9f, 0.9f, 1 };
    static const GLfloat mat_emi[] = { 0, 0, 0, 1 };
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glLightfv(GL_LIGHT0, GL_POSITION, light_pos);
    glLightfv(GL_LIGHT0, GL_AMBIENT, light_amb);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, light_dif);
    glLightfv(GL_LIGHT0, GL_SPECULAR, light_spc);
    glLightModelfv(GL_LIGHT_MODEL_AMBIENT, model_amb);
    glMaterialfv(GL_FRONT, GL_AMBIENT, mat_amb);
    glMaterialfv(GL_FRONT, GL_DIFFUSE, mat_dif);
    glMaterialfv(GL_FRONT, GL_SPECULAR, mat_spc);
    glMaterialfv(GL_FRONT, GL_EMISSION, mat_emi);
    glMaterialf(GL_FRONT, GL_SHININESS, 40);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glDisable(GL_DITHER);
    glClearColor(0.05f, 0.05f, 0.08f, 1);
}

static void draw_frame(unsigned quads)
{
    glClear(GL_COLOR_BUFFER_BIT);
    for (unsigned q = 0; q < quads; q++)
        glDrawArrays(GL_TRIANGLES, 0, 6);
    glFinish();
}

/* OSMesa's buffer holds the bottom row first: write it flipped. */
static int write_png(const char *path, const GLubyte *rgba, unsigned w,
                     unsigned h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&img, path, 0, rgba, -(png_int_32)(4 * w),
                                 NULL)) {
        fprintf(stderr, "osmesa_bench: %s: error: %s\n", path, img.message);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 7 && argc != 8) {
        fputs("usage: osmesa_bench VP FP W H QUADS FRAMES [OUT.png]\n",
              stderr);
        return 2;
    }
    unsigned w = (unsigned)strtoul(argv[3], NULL, 10);
    unsigned h = (unsigned)strtoul(argv[4], NULL, 10);
    unsigned quads = (unsigned)strtoul(argv[5], NULL, 10);
    unsigned frames = (unsigned)strtoul(argv[6], NULL, 10);
    if (w < 1 || h < 1 || w > 4096 || h > 4096 || quads < 1 || frames < 1) {
        fputs("osmesa_bench: error: W, H in 1..4096, QUADS and FRAMES >= 1\n",
              stderr);
        return 2;
    }

    OSMesaContext ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, NULL);
    if (!ctx)
        return fail("OSMesaCreateContextExt failed");
    GLubyte *buf = malloc((size_t)w * h * 4);
    if (!buf)
        return fail("out of memory");
    if (!OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, (GLsizei)w,
                           (GLsizei)h))
        return fail("OSMesaMakeCurrent failed");
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_ARB_vertex_program") ||
        !strstr(ext, "GL_ARB_fragment_program") ||
        !strstr(ext, "GL_ARB_occlusion_query"))
        return fail("the context lacks ARB_vertex_program, "
                    "ARB_fragment_program or ARB_occlusion_query");
    struct arb_fns fn = {
        (PFNGLGENPROGRAMSARBPROC)OSMesaGetProcAddress("glGenProgramsARB"),
        (PFNGLBINDPROGRAMARBPROC)OSMesaGetProcAddress("glBindProgramARB"),
        (PFNGLPROGRAMSTRINGARBPROC)OSMesaGetProcAddress("glProgramStringARB"),
        (PFNGLGENQUERIESARBPROC)OSMesaGetProcAddress("glGenQueriesARB"),
        (PFNGLBEGINQUERYARBPROC)OSMesaGetProcAddress("glBeginQueryARB"),
        (PFNGLENDQUERYARBPROC)OSMesaGetProcAddress("glEndQueryARB"),
        (PFNGLGETQUERYOBJECTUIVARBPROC)OSMesaGetProcAddress(
            "glGetQueryObjectuivARB"),
    };
    if (!fn.gen_programs || !fn.bind_program || !fn.program_string ||
        !fn.gen_queries || !fn.begin_query || !fn.end_query ||
        !fn.get_query_uiv)
        return fail("missing ARB entry points");

    glViewport(0, 0, (GLsizei)w, (GLsizei)h);
    set_state();
    if (load_program(&fn, GL_VERTEX_PROGRAM_ARB, argv[1]) ||
        load_program(&fn, GL_FRAGMENT_PROGRAM_ARB, argv[2]))
        return 1;

    /* The plane mesh's corners; (x, z) = (-1, 1) is its texcoord (0, 0). */
    static const GLfloat quad[6][3] = {
        { -1, 0, 1 }, { 1, 0, 1 }, { 1, 0, -1 },
        { -1, 0, 1 }, { 1, 0, -1 }, { -1, 0, -1 },
    };
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(3, GL_FLOAT, 0, quad);

    GLuint query, counted = 0;
    fn.gen_queries(1, &query);
    fn.begin_query(GL_SAMPLES_PASSED_ARB, query);
    draw_frame(quads);
    fn.end_query(GL_SAMPLES_PASSED_ARB);
    fn.get_query_uiv(query, GL_QUERY_RESULT_ARB, &counted);
    if (glGetError() != GL_NO_ERROR)
        return fail("GL error in the first frame");

    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    double t0 = clock_s(CLOCK_MONOTONIC);
    for (unsigned f = 0; f < frames; f++)
        draw_frame(quads);
    double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    double wall = clock_s(CLOCK_MONOTONIC) - t0;

    printf("renderer %s\n", (const char *)glGetString(GL_RENDERER));
    printf("fragments_per_frame %u\n", counted);
    printf("frames %u\n", frames);
    printf("cpu_s %.4f\n", cpu);
    printf("wall_s %.4f\n", wall);
    printf("fragments_per_s %.0f\n",
           cpu > 0 ? (double)counted * frames / cpu : 0.0);
    int rc = argc == 8 ? write_png(argv[7], buf, w, h) : 0;
    OSMesaDestroyContext(ctx);
    free(buf);
    return rc;
}
