/*
 * Host threads that live for a whole render (gfx_scene_render_jobs): the
 * stages of every draw run on them instead of threads started and joined
 * for each stage, and each worker keeps its scratch memory (thread
 * records) from draw to draw, so that it is neither freed back to the
 * system nor touched afresh (page faults) at every draw.
 */
#include <pthread.h>
#include <stdlib.h>

#include "gfx/gfx.h"
#include "shader/host_thread.h"

struct pool_thread {
    struct gfx_pool *pool;
    unsigned index;
    pthread_t tid;
};

struct gfx_pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned nthreads;            /* started, workers 1 .. nthreads     */
    unsigned gen;                 /* bumped by each run                 */
    unsigned nrun;                /* workers of the current run         */
    unsigned pending;             /* of them, still running            */
    bool quit;
    void (*fn)(void *arg, unsigned worker);
    void *arg;
    struct pool_thread *threads;
    void **scratch;               /* a worker's, grown on demand        */
    size_t *cap;
    unsigned nworkers;
};

static void *pool_main(void *arg)
{
    struct pool_thread *t = arg;
    struct gfx_pool *p = t->pool;
    unsigned seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->gen == seen && !p->quit)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        if (t->index >= p->nrun)
            continue;
        void (*fn)(void *, unsigned) = p->fn;
        void *fa = p->arg;
        pthread_mutex_unlock(&p->mu);
        fn(fa, t->index);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    us_math_thread_end();
    return NULL;
}

struct gfx_pool *gfx_pool_new(unsigned workers)
{
    struct gfx_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nworkers = workers ? workers : 1;
    p->threads = calloc(p->nworkers, sizeof *p->threads);
    p->scratch = calloc(p->nworkers, sizeof *p->scratch);
    p->cap = calloc(p->nworkers, sizeof *p->cap);
    if (!p->threads || !p->scratch || !p->cap ||
        pthread_mutex_init(&p->mu, NULL)) {
        free(p->threads);
        free(p->scratch);
        free(p->cap);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    /* workers a thread could not be started for run on the caller's */
    for (unsigned i = 1; i < p->nworkers; i++) {
        struct pool_thread *t = &p->threads[p->nthreads + 1];
        t->pool = p;
        t->index = p->nthreads + 1;
        if (us_thread_create(&t->tid, pool_main, t, t->index))
            break;
        p->nthreads++;
    }
    return p;
}

void gfx_pool_free(struct gfx_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 1; i <= p->nthreads; i++)
        pthread_join(p->threads[i].tid, NULL);
    for (unsigned i = 0; i < p->nworkers; i++)
        free(p->scratch[i]);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->threads);
    free(p->scratch);
    free(p->cap);
    free(p);
}

unsigned gfx_pool_workers(const struct gfx_pool *p)
{
    return p->nworkers;
}

void gfx_pool_run(struct gfx_pool *p, unsigned n,
                  void (*fn)(void *arg, unsigned worker), void *arg)
{
    if (!n)
        return;
    unsigned on_threads = n > 1 ? n - 1 : 0;
    on_threads = on_threads < p->nthreads ? on_threads : p->nthreads;
    if (on_threads) {
        pthread_mutex_lock(&p->mu);
        p->fn = fn;
        p->arg = arg;
        p->nrun = on_threads + 1;
        p->pending = on_threads;
        p->gen++;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    fn(arg, 0);
    for (unsigned i = on_threads + 1; i < n; i++)
        fn(arg, i);
    if (on_threads) {
        pthread_mutex_lock(&p->mu);
        while (p->pending)
            pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}

void *gfx_pool_scratch(struct gfx_pool *p, unsigned worker, size_t bytes)
{
    if (worker >= p->nworkers)
        return NULL;
    if (p->cap[worker] < bytes) {
        void *m = malloc(bytes);
        if (!m)
            return NULL;
        free(p->scratch[worker]);
        p->scratch[worker] = m;
        p->cap[worker] = bytes;
    }
    return p->scratch[worker];
}
