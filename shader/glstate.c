/*
 * GL-like state that ARB program parameters bind to: initial values, the
 * state.* vec4s, and parameter resolution.
 *
 * Sources: OpenGL 2.1 state tables 6.5-6.38 for initial values;
 * ARB_vertex_program section 2.14.3.2 (Tables X.3.2-X.3.8) and
 * ARB_fragment_program section 3.11.3.2 (Tables X.2.2-X.2.7) for what each
 * binding holds.  References outside the modelled limits (light 9, clip
 * plane 7, ...) read as (0,0,0,0); the assembler rejects them anyway.
 */
#include <math.h>
#include <string.h>

#include "ushader.h"

static void set4(float *v, float x, float y, float z, float w)
{
    v[0] = x;
    v[1] = y;
    v[2] = z;
    v[3] = w;
}

/*
 * Initial state.  Choices where GL leaves the value to the implementation:
 *   - POINT_SIZE_MAX starts at the largest supported point size; this model
 *     takes GL's minimum requirement, ALIASED_POINT_SIZE_RANGE = [1, 1]
 *     (GL 2.1 table 6.64), so it is 1.
 *   - spot_direction.w holds cos(SPOT_CUTOFF); the cutoff starts at 180
 *     degrees, whose cosine is -1.
 */
void us_glstate_init(struct us_glstate *gl)
{
    memset(gl, 0, sizeof *gl);
    us_mat4_identity(gl->modelview);
    us_mat4_identity(gl->projection);
    for (int i = 0; i < US_MAX_TEX_COORDS; i++)
        us_mat4_identity(gl->texture[i]);
    for (int i = 0; i < US_MAX_PROGRAM_MATRICES; i++)
        us_mat4_identity(gl->program[i]);

    /* Table 6.10 (lighting): light 0 is white, the others black. */
    for (int i = 0; i < US_MAX_LIGHTS; i++) {
        struct us_light *l = &gl->light[i];
        float c = i == 0 ? 1.0f : 0.0f;
        set4(l->ambient, 0, 0, 0, 1);
        set4(l->diffuse, c, c, c, 1);
        set4(l->specular, c, c, c, 1);
        set4(l->position, 0, 0, 1, 0);
        set4(l->attenuation, 1, 0, 0, 0);
        set4(l->spot_direction, 0, 0, -1, -1);
    }
    for (int f = 0; f < 2; f++) {
        struct us_material *m = &gl->material[f];
        set4(m->ambient, 0.2f, 0.2f, 0.2f, 1);
        set4(m->diffuse, 0.8f, 0.8f, 0.8f, 1);
        set4(m->specular, 0, 0, 0, 1);
        set4(m->emission, 0, 0, 0, 1);
        m->shininess = 0;
    }
    set4(gl->lightmodel_ambient, 0.2f, 0.2f, 0.2f, 1);

    /* Table 6.14 (texgen): s and t planes select x and y, r and q are 0. */
    for (int u = 0; u < US_MAX_TEX_COORDS; u++)
        for (int p = 0; p < 2; p++) {
            set4(gl->texgen[u][p][0], 1, 0, 0, 0);
            set4(gl->texgen[u][p][1], 0, 1, 0, 0);
        }

    /* Table 6.9 (fog): color 0, density 1, linear range [0, 1]. */
    gl->fog_density = 1;
    gl->fog_start = 0;
    gl->fog_end = 1;

    /* Table 6.12 (rasterization): points. */
    gl->point_size = 1;
    gl->point_size_min = 0;
    gl->point_size_max = 1;
    gl->point_fade = 1;
    set4(gl->point_attenuation, 1, 0, 0, 1);

    /* Table 6.8 (viewport): depth range [0, 1]. */
    gl->depth_near = 0;
    gl->depth_far = 1;
}

static void copy4(float out[4], const float *v)
{
    memcpy(out, v, 4 * sizeof *out);
}

static const float *material_color(const struct us_material *m,
                                   unsigned prop)
{
    switch (prop) {
    case US_PROP_AMBIENT: return m->ambient;
    case US_PROP_DIFFUSE: return m->diffuse;
    case US_PROP_SPECULAR: return m->specular;
    case US_PROP_EMISSION: return m->emission;
    default: return NULL;
    }
}

static const float *light_color(const struct us_light *l, unsigned prop)
{
    switch (prop) {
    case US_PROP_AMBIENT: return l->ambient;
    case US_PROP_DIFFUSE: return l->diffuse;
    case US_PROP_SPECULAR: return l->specular;
    default: return NULL;
    }
}

/* v / |v| for a 3-vector in double; the zero vector stays zero. */
static void normalize3(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0)
        for (int i = 0; i < 3; i++)
            v[i] /= len;
}

/*
 * state.light[n].half: h_inf = ||P + (0, 0, 1)||, w = 1, where P is the
 * normalized vector from the eye (the origin) to the light's eye-space
 * position: xyz for a directional light (w = 0), xyz / w otherwise
 * (ARB_vertex_program Table X.3.3 and the text after it).
 */
static void light_half(const struct us_light *l, float out[4])
{
    double p[3];
    for (int i = 0; i < 3; i++)
        p[i] = l->position[3] != 0 ? (double)l->position[i] / l->position[3]
                                   : l->position[i];
    normalize3(p);
    p[2] += 1.0;
    normalize3(p);
    set4(out, (float)p[0], (float)p[1], (float)p[2], 1);
}

static void fetch_light(const struct us_light *l, unsigned prop, float out[4])
{
    const float *c = light_color(l, prop);
    if (c) {
        copy4(out, c);
        return;
    }
    switch (prop) {
    case US_PROP_POSITION: copy4(out, l->position); break;
    case US_PROP_ATTENUATION: copy4(out, l->attenuation); break;
    case US_PROP_SPOT_DIRECTION: copy4(out, l->spot_direction); break;
    case US_PROP_HALF: light_half(l, out); break;
    default: break;
    }
}

/* The base matrix of state.matrix.<name>[index], or false when the index
 * is out of range.  Palette matrices (ARB_matrix_palette) and modelview
 * matrices above 0 (ARB_vertex_blend) are not modelled: they read as the
 * identity, their initial value. */
static bool base_matrix(const struct us_glstate *gl, unsigned which,
                        unsigned index, us_mat4 out)
{
    switch (which) {
    case US_MATRIX_MODELVIEW:
        if (index == 0)
            memcpy(out, gl->modelview, sizeof gl->modelview);
        else
            us_mat4_identity(out);
        return true;
    case US_MATRIX_PROJECTION:
        memcpy(out, gl->projection, sizeof gl->projection);
        return true;
    case US_MATRIX_MVP:
        /* MVP = P * M0 (ARB_vertex_program Table X.3.8). */
        us_mat4_mul(out, gl->projection, gl->modelview);
        return true;
    case US_MATRIX_TEXTURE:
        if (index >= US_MAX_TEX_COORDS)
            return false;
        memcpy(out, gl->texture[index], sizeof gl->texture[index]);
        return true;
    case US_MATRIX_PALETTE:
        us_mat4_identity(out);
        return true;
    case US_MATRIX_PROGRAM:
        if (index >= US_MAX_PROGRAM_MATRICES)
            return false;
        memcpy(out, gl->program[index], sizeof gl->program[index]);
        return true;
    default:
        return false;
    }
}

static void fetch_matrix_row(const struct us_glstate *gl,
                             struct us_state_ref ref, float out[4])
{
    us_mat4 m;
    if (ref.d > 3 || !base_matrix(gl, ref.a, ref.b, m))
        return;
    switch (ref.c) {
    case US_MOD_NONE:
        break;
    case US_MOD_INVERSE:
        (void)us_mat4_inverse(m, m);
        break;
    case US_MOD_TRANSPOSE:
        us_mat4_transpose(m, m);
        break;
    case US_MOD_INVTRANS:
        (void)us_mat4_inverse(m, m);
        us_mat4_transpose(m, m);
        break;
    default:
        return;
    }
    copy4(out, &m[4 * ref.d]);
}

void us_glstate_fetch(const struct us_glstate *gl, struct us_state_ref ref,
                      float out[4])
{
    set4(out, 0, 0, 0, 0);
    const float *v;
    switch (ref.item) {
    case US_STATE_MATERIAL:
        if (ref.a > US_FACE_BACK)
            return;
        if (ref.b == US_PROP_SHININESS)
            set4(out, gl->material[ref.a].shininess, 0, 0, 1);
        else if ((v = material_color(&gl->material[ref.a], ref.b)))
            copy4(out, v);
        return;
    case US_STATE_LIGHT:
        if (ref.a < US_MAX_LIGHTS)
            fetch_light(&gl->light[ref.a], ref.b, out);
        return;
    case US_STATE_LIGHTMODEL_AMBIENT:
        copy4(out, gl->lightmodel_ambient);
        return;
    case US_STATE_LIGHTMODEL_SCENECOLOR: {
        /* c_scene = a_cs * a_cm + e_cm; alpha = diffuse material alpha. */
        if (ref.a > US_FACE_BACK)
            return;
        const struct us_material *m = &gl->material[ref.a];
        for (int i = 0; i < 3; i++)
            out[i] = gl->lightmodel_ambient[i] * m->ambient[i] +
                     m->emission[i];
        out[3] = m->diffuse[3];
        return;
    }
    case US_STATE_LIGHTPROD: {
        /* rgb: light colour x material colour; alpha: the material's. */
        if (ref.a >= US_MAX_LIGHTS || ref.b > US_FACE_BACK)
            return;
        const float *lc = light_color(&gl->light[ref.a], ref.c);
        const float *mc = material_color(&gl->material[ref.b], ref.c);
        if (!lc || !mc)
            return;
        for (int i = 0; i < 3; i++)
            out[i] = lc[i] * mc[i];
        out[3] = mc[3];
        return;
    }
    case US_STATE_TEXGEN:
        if (ref.a < US_MAX_TEX_COORDS && ref.b <= US_TEXGEN_OBJECT &&
            ref.c < 4)
            copy4(out, gl->texgen[ref.a][ref.b][ref.c]);
        return;
    case US_STATE_FOG_COLOR:
        copy4(out, gl->fog_color);
        return;
    case US_STATE_FOG_PARAMS: {
        /* (density, start, end, 1/(end-start)); the last is undefined when
         * end == start, and this model gives 0 there rather than infinity. */
        float range = gl->fog_end - gl->fog_start;
        set4(out, gl->fog_density, gl->fog_start, gl->fog_end,
             range != 0 ? 1.0f / range : 0.0f);
        return;
    }
    case US_STATE_CLIP_PLANE:
        if (ref.a < US_MAX_CLIP_PLANES)
            copy4(out, gl->clip_plane[ref.a]);
        return;
    case US_STATE_POINT_SIZE:
        set4(out, gl->point_size, gl->point_size_min, gl->point_size_max,
             gl->point_fade);
        return;
    case US_STATE_POINT_ATTENUATION:
        set4(out, gl->point_attenuation[0], gl->point_attenuation[1],
             gl->point_attenuation[2], 1);
        return;
    case US_STATE_MATRIX_ROW:
        fetch_matrix_row(gl, ref, out);
        return;
    case US_STATE_TEXENV_COLOR:
        if (ref.a < US_MAX_TEX_UNITS)
            copy4(out, gl->texenv_color[ref.a]);
        return;
    case US_STATE_DEPTH_RANGE:
        /* (n, f, f - n, 1): ARB_fragment_program Table X.2.6. */
        set4(out, gl->depth_near, gl->depth_far,
             gl->depth_far - gl->depth_near, 1);
        return;
    default:
        return;
    }
}

void us_load_initial_locals(const struct us_program *prog,
                            struct us_glstate *gl)
{
    static const float zero[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    for (unsigned i = 0; i < prog->nparams; i++) {
        const struct us_param *q = &prog->params[i];
        /* zero is GL's default already; an ARB program.local keeps the
         * value the state block holds */
        if (q->kind == US_PARAM_LOCAL && memcmp(q->value, zero, sizeof zero))
            memcpy(gl->local[prog->stage][q->index], q->value,
                   sizeof q->value);
    }
}

/* The preshader on the reference interpreter, one thread, then its
 * registers into the US_PARAM_PRE slots.  It reads only the other slots
 * (the assembler and glsl/pass_hoist.c see to it; a PRE slot reads 0
 * meanwhile), and its opcodes need no elementary function, so exact math
 * stands for whatever the per-thread program's math is. */
static void run_preshader(const struct us_program *prog, us_vec4 *params)
{
    struct us_program pre = {
        .stage = prog->stage, .options = prog->options, .insts = prog->pre,
        .ninsts = prog->npre, .params = prog->params,
        .nparams = prog->nparams, .ntemps = prog->npre_temps,
    };
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact,
                               .max_insts = prog->npre + 1 };
    struct us_thread t;
    us_thread_reset(&t);
    us_interpret(&pre, &env, &t);
    for (unsigned i = 0; i < prog->nparams; i++)
        if (prog->params[i].kind == US_PARAM_PRE &&
            prog->params[i].index < US_MAX_TEMPS)
            copy4(params[i], t.temp[prog->params[i].index]);
}

void us_resolve_params(const struct us_program *prog,
                       const struct us_glstate *gl, us_vec4 *params)
{
    unsigned stage = prog->stage < US_STAGE_COUNT ? prog->stage
                                                  : US_STAGE_VERTEX;
    for (unsigned i = 0; i < prog->nparams; i++) {
        const struct us_param *p = &prog->params[i];
        float *out = params[i];
        set4(out, 0, 0, 0, 0);
        switch (p->kind) {
        case US_PARAM_CONST:
            copy4(out, p->value);
            break;
        case US_PARAM_ENV:
            if (p->index < US_MAX_ENV_PARAMS)
                copy4(out, gl->env[stage][p->index]);
            break;
        case US_PARAM_LOCAL:
            if (p->index < US_MAX_LOCAL_PARAMS)
                copy4(out, gl->local[stage][p->index]);
            break;
        case US_PARAM_STATE:
            us_glstate_fetch(gl, p->state, out);
            break;
        default:   /* US_PARAM_PRE: below */
            break;
        }
    }
    if (prog->npre)
        run_preshader(prog, params);
}
