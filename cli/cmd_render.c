/* ushader render SCENE [-o OUT.png] [--arch A[,B...]|all] [--config F.ini]
 *                      [--set KEY=V]... [--exact-math] [--stats]
 *                      [--size WxH] [--hash] [--jobs N] [--time] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "gfx/backend_core.h"
#include "gfx/gfx.h"
#include "suite/provenance.h"

static const char usage[] =
    "usage: ushader render SCENE -o OUT.png [--arch A[,B...]|all]\n"
    "                      [--config F.ini]\n"
    "                      [--set KEY=V]... [--exact-math] [--stats]\n"
    "                      [--size WxH] [--hash] [--jobs N] [--time]\n"
    "  Render a scene (docs/SCENES.md) to a PNG file, written atomically.\n"
    "  -o OUT.png    the image (optional with --hash or --stats)\n"
    "  --arch A      what runs the shaders: functional (the reference\n"
    "                interpreter, the default) or a core model: scalar,\n"
    "                simd4, vliw, superscalar, hetero, simt; --stats then\n"
    "                adds \"core\": cycles, useful ops and utilization per\n"
    "                shader stage.  A comma list or all renders on each\n"
    "                model in turn: their images must be bit-identical\n"
    "                (else exit 1, nothing written); --stats has the\n"
    "                first model's pipeline counts (texture_samples counts\n"
    "                a model's fetches) and \"cores\", one \"core\" per model\n"
    "  --config F.ini, --set KEY=V  the configuration, as for run: the\n"
    "                [core] knobs of the --arch model (ushader config\n"
    "                --list) and the SFU's [sfu] keys (sfu.KEY=V; ushader\n"
    "                sfu --help); max_instructions applies to every --arch\n"
    "  --exact-math  correctly rounded RCP RSQ EX2 LG2 SIN COS POW instead\n"
    "                of the modelled SFU (the default)\n"
    "  --stats       print pipeline counts as JSON on stdout\n"
    "  --size WxH    override the scene's size directive\n"
    "  --hash        print the FNV-1a 64 hash of the RGBA8 image (the\n"
    "                golden-image check); -o is then optional\n"
    "  --jobs N      the functional renderer on N host threads, 1..256\n"
    "                (default: the online CPUs): bands of screen rows and\n"
    "                vertex batches merged in a fixed order, so the image,\n"
    "                the counts and any error are the same for every N; a\n"
    "                core model (--arch) always shades on one thread\n"
    "  --time        print on stderr each render's wall and host CPU\n"
    "                seconds (the draws on their threads: not the scene's\n"
    "                loading, the SFU tables or the image's export)\n";

static bool parse_size(const char *s, unsigned *w, unsigned *h)
{
    char *e;
    unsigned long a = strtoul(s, &e, 10);
    if (e == s || (*e != 'x' && *e != 'X'))
        return false;
    const char *t = e + 1;
    unsigned long b = strtoul(t, &e, 10);
    if (e == t || *e || a == 0 || b == 0 || a > GFX_MAX_VIEWPORT ||
        b > GFX_MAX_VIEWPORT)
        return false;
    *w = (unsigned)a;
    *h = (unsigned)b;
    return true;
}

/* The --stats document (docs/METRICS.md); false when out of memory. */
static bool print_stats(int argc, char **argv, const char *scene,
                        const struct gfx_scene *sc,
                        const struct us_config *cfg, unsigned w, unsigned h,
                        const char *arch, const char *math,
                        const struct gfx_stats *st, uint64_t hash,
                        struct gfx_core_backend *const *cbs, unsigned ncb)
{
    struct us_prov *p = calloc(1, sizeof *p);
    json_t *prov = NULL;
    if (p && us_prov_init(p, argc, argv)) {
        p->math = math;
        p->cfg = cfg;
        us_prov_add_file(p, scene);
        const char *in;
        for (unsigned i = 0; (in = gfx_scene_input(sc, i)); i++)
            us_prov_add_file(p, in);
        prov = us_prov_json(p);
        us_prov_free(p);
    }
    free(p);
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, hash);
    json_t *doc = prov ? json_pack(
        "{s:i, s:o, s:o, s:i, s:i, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I,"
        " s:I, s:I, s:I, s:I, s:s}",
        "schema_version", US_JSON_SCHEMA_VERSION, "provenance", prov,
        "scene", us_json_text(scene), "width", (int)w, "height", (int)h, "arch", arch,
        "math", math, "vertices", (json_int_t)st->vertices,
        "triangles", (json_int_t)st->triangles,
        "clipped_triangles", (json_int_t)st->clipped,
        "culled", (json_int_t)st->culled,
        "fragments", (json_int_t)st->fragments,
        "helper_fragments", (json_int_t)st->helpers,
        "killed", (json_int_t)st->killed,
        "depth_failed", (json_int_t)st->depth_failed,
        "written", (json_int_t)st->written,
        "texture_samples", (json_int_t)st->tex_samples, "hash", hex) : NULL;
    /* one model: "core"; a list: "cores", one such object per model */
    json_t *cores = doc && ncb > 1 ? json_array() : NULL;
    for (unsigned m = 0; doc && m < ncb; m++) {
        json_t *core = gfx_core_backend_json(cbs[m]);
        if (!core || (cores ? json_array_append_new(cores, core)
                            : json_object_set_new(doc, "core", core))) {
            json_decref(doc);
            doc = NULL;
        }
    }
    if (cores && !doc)
        json_decref(cores);
    else if (cores && json_object_set_new(doc, "cores", cores)) {
        json_decref(doc);
        doc = NULL;
    }
    char *text = doc ? json_dumps(doc, US_JSON_FLAGS) : NULL;
    json_decref(doc);
    if (!text) {
        cli_error(NULL, 0, 0, "render: out of memory");
        return false;
    }
    puts(text);
    free(text);
    return true;
}

static const struct cli_opt options[] = {
    { "--help", false, false, NULL }, { "-o", true, false, NULL },
    { "--arch", true, false, NULL }, { "--config", true, false, NULL },
    { "--set", true, true, NULL }, { "--size", true, false, NULL },
    { "--exact-math", false, false, NULL }, { "--stats", false, false, NULL },
    { "--hash", false, false, NULL }, { "--jobs", true, false, NULL },
    { "--time", false, false, NULL }, { NULL, false, false, NULL },
};

/* What every model's render of the scene shares. */
struct render_job {
    const struct gfx_scene *scene;
    const char *path;
    unsigned w, h;
    const struct us_math *math;
    const struct us_config *cfg;
    unsigned jobs;               /* host threads of the functional render */
    bool time;                   /* --time */
};

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The RGBA8 image of the scene shaded functionally (cb NULL) or on cb's
 * model, its hash and its pipeline counts; NULL after the error. */
static uint8_t *render_on(const struct render_job *j,
                          struct gfx_core_backend *cb, struct gfx_stats *st,
                          uint64_t *hash)
{
    /* the instruction budget of the configuration, for every --arch */
    struct gfx_shader_backend functional = gfx_backend_functional;
    functional.max_insts = (uint32_t)j->cfg->v[US_KNOB_max_instructions];
    functional.varying_slots = (unsigned)j->cfg->v[US_KNOB_varying_slots];
    struct gfx_framebuffer fb;
    struct us_diag diag = { 0 };
    /* a core model's ctx counts cycles per batch: one thread */
    double wall0 = seconds(CLOCK_MONOTONIC);
    double cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    bool ok = gfx_scene_render_jobs(j->scene, j->w, j->h, j->math,
                                    cb ? &cb->be : &functional,
                                    cb ? 1 : j->jobs, &fb, st, &diag);
    if (ok && j->time)
        fprintf(stderr, "time: render %-12s %.6f s wall %.6f s CPU %" PRIu64
                " fragments\n", cb ? cb->model->name : "functional",
                seconds(CLOCK_MONOTONIC) - wall0,
                seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0, st->fragments);
    if (ok && cb && cb->failed) {
        cli_error(j->path, 0, 0, "render: %s: %s", cb->model->name,
                  cb->diag.msg);
        gfx_fb_free(&fb);
        return NULL;
    }
    if (!ok) {
        cli_error(j->path, diag.line, diag.col, "%s", diag.msg);
        return NULL;
    }
    return gfx_fb_rgba8(&fb, j->jobs, hash);
}

/* The image to OUT, its hash and its statistics to stdout: the exit code. */
static int finish(const struct render_job *j, int argc, char **argv,
                  const uint8_t *rgba, uint64_t hv, const struct gfx_stats *st,
                  const char *out, bool hash, bool stats, const char *arch,
                  const char *math, struct gfx_core_backend *const *cbs,
                  unsigned ncb)
{
    int rc = 0;
    if (out) {
        void *png;
        size_t plen;
        struct us_diag diag = { 0 };
        if (!gfx_png_encode(rgba, j->w, j->h, &png, &plen, &diag)) {
            cli_error(out, 0, 0, "%s", diag.msg);
            rc = 1;
        } else {
            if (!cli_write_file(out, png, plen))
                rc = 1;
            free(png);
        }
    }
    if (hash)
        printf("%016" PRIx64 "\n", hv);
    if (stats && !print_stats(argc, argv, j->path, j->scene, j->cfg, j->w,
                              j->h, arch, math, st, hv, cbs, ncb))
        rc = 1;
    return rc;
}

int cmd_render(int argc, char **argv)
{
    const char *scene = NULL, *out = NULL, *arch = "functional";
    const char *config = NULL;
    bool exact = false, stats = false, hash = false, sized = false;
    bool timed = false;
    unsigned w = 0, h = 0, jobs = cli_default_jobs();
    struct cli_arch models = { .functional = true };
    struct us_config ccfg;
    us_config_default(&ccfg);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("render", argc, argv, 1, options))
        return 2;
    /* --config first, so that --set applies over it wherever it is */
    config = cli_option_value(argc, argv, 1, options, "--config");
    if (config && !cli_load_config(config, &ccfg))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--config") && i + 1 < argc) {
            i++;
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            struct us_diag d;
            if (!us_config_set(&ccfg, argv[++i], &d)) {
                cli_error(NULL, 0, 0, "render: --set %s: %s", argv[i], d.msg);
                return 2;
            }
        } else if (!strcmp(a, "--arch") && i + 1 < argc) {
            arch = argv[++i];
            if (!cli_parse_arch("render", arch, CLI_ARCH_MANY, NULL, &models))
                return 2;
        } else if (!strcmp(a, "--size") && i + 1 < argc) {
            if (!parse_size(argv[++i], &w, &h)) {
                cli_error(NULL, 0, 0, "render: --size wants WxH with sides "
                          "1..%d, not '%s'", GFX_MAX_VIEWPORT, argv[i]);
                return 2;
            }
            sized = true;
        } else if (!strcmp(a, "--jobs") && i + 1 < argc) {
            if (!cli_parse_jobs("render", argv[++i], &jobs))
                return 2;
        } else if (!strcmp(a, "--exact-math")) {
            exact = true;
        } else if (!strcmp(a, "--stats")) {
            stats = true;
        } else if (!strcmp(a, "--hash")) {
            hash = true;
        } else if (!strcmp(a, "--time")) {
            timed = true;
        } else if (a[0] == '-' && a[1]) {
            cli_error(NULL, 0, 0, "render: unknown option or missing value '%s'", a);
            fputs(usage, stderr);
            return 2;
        } else if (scene) {
            cli_error(NULL, 0, 0, "render: one SCENE at a time");
            return 2;
        } else {
            scene = a;
        }
    }
    if (!scene || (!out && !hash && !stats)) {
        fputs(usage, stderr);
        return 2;
    }
    if (!cli_check_output(out, &scene, 1))
        return 1;
    for (unsigned m = 0; us_models[m]; m++) {
        struct us_diag cd;
        if ((models.mask >> m & 1) && !us_core_check(us_models[m], &ccfg, &cd)) {
            cli_error(NULL, 0, 0, "render: --arch %s: %s", us_models[m]->name,
                      cd.msg);
            return 2;
        }
    }

    char *text;
    size_t len;
    if (!cli_read_file(scene, &text, &len))
        return 1;
    struct us_diag diag = { 0 };
    struct gfx_scene *s;
    bool ok = gfx_scene_load(&s, scene, text, len, &diag);
    free(text);
    if (!ok) {
        cli_error(scene, diag.line, diag.col, "%s", diag.msg);
        return 1;
    }
    if (!sized)
        gfx_scene_size(s, &w, &h);

    struct us_math math = us_math_exact;
    struct us_sfu sfu;
    bool have_sfu = false;
    if (!exact) {
        if (!us_sfu_init(&sfu, &ccfg.sfu, &diag)) {
            cli_error(NULL, 0, 0, "render: SFU model: %s", diag.msg);
            gfx_scene_free(s);
            return 1;
        }
        us_sfu_math(&sfu, &math);
        have_sfu = true;
    }

    struct render_job job = {
        .scene = s, .path = scene, .w = w, .h = h, .math = &math, .cfg = &ccfg,
        .jobs = jobs, .time = timed,
    };
    struct gfx_core_backend *cbs[sizeof models.mask * 8];   /* a bit each */
    unsigned ncb = 0;
    uint8_t *rgba = NULL;
    uint64_t hv = 0;
    struct gfx_stats st = { 0 };
    int rc = 0;
    if (models.functional) {
        rgba = render_on(&job, NULL, &st, &hv);
    } else {
        /* each model in turn; the image is the first one's, and every
         * other must be bit-identical to it */
        for (unsigned m = 0; us_models[m] && rc == 0; m++) {
            if (!(models.mask >> m & 1))
                continue;
            struct gfx_core_backend *cb = malloc(sizeof *cb);
            if (!cb) {
                cli_error(NULL, 0, 0, "render: out of memory");
                rc = 1;
                break;
            }
            cbs[ncb++] = cb;
            gfx_core_backend_init(cb, us_models[m], &ccfg);
            struct gfx_stats ms = { 0 };
            uint8_t *img = render_on(&job, cb, &ms, rgba ? NULL : &hv);
            if (!img) {
                rc = 1;
            } else if (!rgba) {
                rgba = img;
                st = ms;
            } else {
                if (memcmp(img, rgba, (size_t)w * h * 4)) {
                    cli_error(scene, 0, 0, "render: %s's image differs from "
                              "%s's", us_models[m]->name, cbs[0]->model->name);
                    rc = 1;
                }
                free(img);
            }
        }
    }
    if (rc || !rgba)
        rc = 1;
    else
        rc = finish(&job, argc, argv, rgba, hv, &st, out, hash, stats, arch,
                    exact ? "exact" : "sfu", cbs, ncb);
    free(rgba);
    for (unsigned m = 0; m < ncb; m++)
        free(cbs[m]);
    if (have_sfu)
        us_sfu_free(&sfu);
    gfx_scene_free(s);
    return rc;
}
