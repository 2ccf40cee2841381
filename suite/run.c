/* Running the bench jobs on host threads: suite/suite.h.
 *
 * A job is one (program, variant) pair.  Jobs share only read-only data
 * (programs, inputs, parameters, textures, the base SFU); each has its own
 * threads, sampler copy and result slot, and the models keep no global
 * state, so the results are the same for any number of host threads. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "shader/host_thread.h"
#include "suite/suite.h"

struct pool {
    struct us_bench *b;
    pthread_mutex_t lock;
    unsigned next, done, total;
    us_bench_progress_fn progress;
    void *ctx;
};

static bool outputs_equal(const struct us_program *prog,
                          const struct us_thread *t,
                          const struct us_bench_ref *r)
{
    for (unsigned o = 0; o < US_MAX_OUTPUTS; o++)
        if (((prog->outputs_written >> o) & 1) &&
            memcmp(t->output[o], r->out[o], sizeof r->out[o]))
            return false;
    return t->killed == r->killed;
}

/* A worker's thread records, kept from job to job: a fresh allocation
 * per job would fault its pages in again every time. */
struct records {
    struct us_thread *t;
    unsigned cap;
};

static void run_job(const struct us_bench *b, unsigned j,
                    struct records *rec, struct us_bench_result *res)
{
    const struct us_bench_prog *bp = &b->progs[j / b->nvars];
    const struct us_bench_variant *v = &b->vars[j % b->nvars];
    memset(res, 0, sizeof *res);
    if (rec->cap < bp->n) {
        free(rec->t);
        rec->t = malloc((size_t)bp->n * sizeof *rec->t);
        rec->cap = rec->t ? bp->n : 0;
        if (!rec->t) {
            snprintf(res->err, sizeof res->err, "out of memory");
            return;
        }
    }
    struct us_thread *t = rec->t;
    /* Only the temps the program declares: it cannot read the others. */
    for (unsigned i = 0; i < bp->n; i++) {
        us_thread_reset_for(&t[i], &bp->prog);
        memcpy(t[i].input, bp->inputs[i], sizeof t[i].input);
    }
    struct gfx_sampler smp = bp->sampler;
    struct us_exec_env env = { .params = bp->params, .math = &b->math,
                               .sample = gfx_sample, .sample_ctx = &smp };
    us_config_env(&v->cfg, &env);
    struct us_workload w = { &bp->prog, &env, t, bp->n, NULL, NULL };
    struct us_diag d;
    res->ok = us_core_run(v->model, &v->cfg, &w, &res->st, &d);
    if (!res->ok) {
        snprintf(res->err, sizeof res->err, "%s", d.msg);
    } else {
        res->identical = true;
        for (unsigned i = 0; i < bp->n && res->identical; i++)
            if (!outputs_equal(&bp->prog, &t[i], &bp->ref[i])) {
                res->identical = false;
                snprintf(res->err, sizeof res->err, "thread %u's outputs "
                         "differ from the reference interpreter's", i);
            }
    }
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    struct records rec = { NULL, 0 };
    for (;;) {
        pthread_mutex_lock(&p->lock);
        unsigned j = p->next < p->total ? p->next++ : p->total;
        pthread_mutex_unlock(&p->lock);
        if (j == p->total)
            break;
        run_job(p->b, j, &rec, &p->b->res[j]);
        pthread_mutex_lock(&p->lock);
        p->done++;
        if (p->progress)
            p->progress(p->ctx, "run", p->done, p->total);
        pthread_mutex_unlock(&p->lock);
    }
    free(rec.t);
    us_math_thread_end();
    return NULL;
}

bool us_bench_run(struct us_bench *b, unsigned jobs,
                  us_bench_progress_fn progress, void *ctx,
                  struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    unsigned total = b->nprogs * b->nvars;
    free(b->res);
    b->res = calloc(total ? total : 1, sizeof *b->res);
    if (!b->res) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    struct pool p = { .b = b, .total = total, .progress = progress,
                      .ctx = ctx };
    if (pthread_mutex_init(&p.lock, NULL)) {
        snprintf(diag->msg, sizeof diag->msg, "cannot create a mutex");
        return false;
    }
    if (jobs < 1)
        jobs = 1;
    if (jobs > total)
        jobs = total ? total : 1;
    pthread_t *tid = calloc(jobs, sizeof *tid);
    unsigned started = 0;
    /* The calling thread is worker 0; a thread that cannot be created
     * just leaves its share to the others. */
    for (unsigned i = 1; tid && i < jobs; i++)
        if (us_thread_create(&tid[started], worker, &p, i) == 0)
            started++;
    worker(&p);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    pthread_mutex_destroy(&p.lock);
    b->failures = 0;
    for (unsigned j = 0; j < total; j++)
        b->failures += !b->res[j].ok || !b->res[j].identical;
    return true;
}
