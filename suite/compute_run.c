/* Running the compute bench's jobs on host threads: suite/compute.h.
 *
 * A job is one (kernel, variant) launch on its own copy of the kernel's
 * inputs; jobs share only read-only data (programs, parameters, reference
 * buffers), the models keep no global state, and each job writes only its
 * own slot, so the results are the same for any number of host threads. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "shader/host_thread.h"
#include "suite/compute.h"

/* Is knob k set to the choice `name` (an ENUM knob's "a|b|c")? */
static bool knob_is(const struct us_config *cfg, enum us_knob k,
                    const char *name)
{
    const char *p = us_knobs[k].choices;
    size_t len = strlen(name);
    for (int i = 0; p && *p; i++) {
        size_t n = strcspn(p, "|");
        if (n == len && !strncmp(p, name, n))
            return cfg->v[k] == i;
        p += n + (p[n] == '|');
    }
    return false;
}

bool us_cb_is_refusal(const char *msg, const struct us_config *cfg)
{
    if (strstr(msg, "must fit one core") || strstr(msg, "reconv=sync") ||
        strstr(msg, "reconv=none"))
        return true;
    /* Under reconv=sync lanes rejoin only at a SYNC, which GLSL code has
     * none of, so a barrier after divergent code finds lanes masked off. */
    return strstr(msg, "masked off by flow control") &&
           knob_is(cfg, US_KNOB_reconv, "sync");
}

/* The first word of any buffer that differs from the reference. */
static bool compare(const struct us_cb_kernel *ck, const struct us_memory *m,
                    struct us_cb_job *j)
{
    const struct kref *k = ck->k;
    for (unsigned i = 0; i < k->nbufs; i++) {
        const struct us_buffer *got = &m->buf[k->buf[i].binding];
        uint32_t bytes = k->buf[i].bytes;
        if (got->size != bytes) {
            snprintf(j->msg, sizeof j->msg, "binding %u is %u bytes, "
                     "expected %u",
                     (unsigned)k->buf[i].binding, (unsigned)got->size,
                     (unsigned)bytes);
            return false;
        }
        if (!memcmp(got->data, ck->ref[i], bytes))
            continue;
        for (uint32_t w = 0; 4 * w < bytes; w++) {
            uint32_t e = 0, g = 0, n = bytes - 4 * w < 4 ? bytes - 4 * w : 4;
            for (uint32_t b = 0; b < n; b++) {
                e |= (uint32_t)ck->ref[i][4 * w + b] << 8 * b;
                g |= (uint32_t)got->data[4 * w + b] << 8 * b;
            }
            if (e != g) {
                snprintf(j->msg, sizeof j->msg, "binding %u word %u: "
                         "expected 0x%08x, got 0x%08x",
                         (unsigned)k->buf[i].binding, (unsigned)w,
                         (unsigned)e, (unsigned)g);
                return false;
            }
        }
    }
    return true;
}

static void run_job(const struct us_cbench *b, struct us_cb_job *j)
{
    const struct us_cb_kernel *ck = &b->kern[j->k];
    const struct us_cb_variant *v = &b->vars[j->v];
    const struct kref *k = ck->k;
    struct us_memory mem = { 0 };
    j->status = US_CB_FAILED;
    j->st.n = 0;
    j->msg[0] = '\0';   /* a job may run again (a sweep's next point) */
    bool ok = true;
    for (unsigned i = 0; i < k->nbufs && ok; i++) {
        uint32_t bytes = k->buf[i].bytes;
        uint8_t *p = malloc((size_t)bytes + 1);
        if (p)
            memcpy(p, ck->in[i], bytes);
        mem.buf[k->buf[i].binding] = (struct us_buffer){ p, bytes };
        ok = p != NULL;
    }
    /* the launch's workgroup size on a copy: the program is shared */
    struct us_program prog = ck->prog;
    if (j->local[0])
        for (int d = 0; d < 3; d++)
            prog.group_size[d] = (uint16_t)j->local[d];
    struct us_exec_env env = { .params = ck->params, .math = &us_math_exact,
                               .mem = &mem };
    us_config_env(&v->cfg, &env);
    struct us_diag d = { 0 };
    if (!ok)
        snprintf(d.msg, sizeof d.msg, "out of memory");
    else if (!v->model)
        ok = us_compute_interpret(&prog, &env, j->groups, NULL, &d);
    else
        ok = us_core_run_compute(v->model, &v->cfg, &prog, &env, j->groups,
                                 NULL, &j->st, &d);
    if (!ok) {
        j->st.n = 0;
        if (us_cb_is_refusal(d.msg, &v->cfg))
            j->status = US_CB_REFUSED;
        snprintf(j->msg, sizeof j->msg, "%s", d.msg);
    } else if (compare(ck, &mem, j)) {
        j->status = US_CB_PASS;
    }
    for (unsigned i = 0; i < US_MAX_BUFFERS; i++)
        free(mem.buf[i].data);
}

struct pool {
    struct us_cbench *b;
    pthread_mutex_t lock;
    unsigned next, done;
    us_bench_progress_fn progress;
    void *ctx;
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    unsigned total = p->b->njobs;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        unsigned j = p->next < total ? p->next++ : total;
        pthread_mutex_unlock(&p->lock);
        if (j == total)
            break;
        run_job(p->b, &p->b->jobs[j]);
        pthread_mutex_lock(&p->lock);
        p->done++;
        if (p->progress)
            p->progress(p->ctx, "run", p->done, total);
        pthread_mutex_unlock(&p->lock);
    }
    us_math_thread_end();
    return NULL;
}

bool us_cb_run(struct us_cbench *b, unsigned jobs,
               us_bench_progress_fn progress, void *ctx,
               struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    struct pool p = { .b = b, .progress = progress, .ctx = ctx };
    if (pthread_mutex_init(&p.lock, NULL)) {
        snprintf(diag->msg, sizeof diag->msg, "cannot create a mutex");
        return false;
    }
    if (jobs < 1)
        jobs = 1;
    if (jobs > b->njobs)
        jobs = b->njobs ? b->njobs : 1;
    pthread_t *tid = calloc(jobs, sizeof *tid);
    unsigned started = 0;
    /* the calling thread is worker 0; a thread that cannot be created
     * leaves its share to the others */
    for (unsigned i = 1; tid && i < jobs; i++)
        if (us_thread_create(&tid[started], worker, &p, i) == 0)
            started++;
    worker(&p);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    pthread_mutex_destroy(&p.lock);
    b->pass = b->refused = b->failed = 0;
    for (unsigned j = 0; j < b->njobs; j++) {
        enum us_cb_status s = b->jobs[j].status;
        b->pass += s == US_CB_PASS;
        b->refused += s == US_CB_REFUSED;
        b->failed += s == US_CB_FAILED;
    }
    return true;
}

int us_cb_job(const struct us_cbench *b, const char *kernel,
              const char *variant)
{
    for (unsigned j = 0; j < b->njobs; j++)
        if (!strcmp(b->kern[b->jobs[j].k].id, kernel) &&
            !strcmp(b->vars[b->jobs[j].v].name, variant))
            return (int)j;
    return -1;
}

double us_cb_stat(const struct us_cbench *b, int job, const char *name)
{
    if (job < 0 || b->jobs[job].status != US_CB_PASS || !b->jobs[job].st.n)
        return NAN;
    return us_stats_get(&b->jobs[job].st, name);
}

double us_cb_mean(const struct us_cbench *b, const char *variant,
                  const char *name, unsigned *count)
{
    double sum = 0;
    unsigned n = 0;
    for (unsigned j = 0; j < b->njobs; j++) {
        if (strcmp(b->vars[b->jobs[j].v].name, variant))
            continue;
        double x = us_cb_stat(b, (int)j, name);
        if (!isnan(x)) {
            sum += x;
            n++;
        }
    }
    if (count)
        *count = n;
    return n ? sum / n : NAN;
}
