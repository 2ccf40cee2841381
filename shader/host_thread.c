/* Host threads started on another CPU than their creator's: host_thread.h. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "shader/host_thread.h"

struct start {
    void *(*fn)(void *);
    void *arg;
    cpu_set_t all;                /* the creator's affinity */
};

static void *started(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    pthread_setaffinity_np(pthread_self(), sizeof s.all, &s.all);
    return s.fn(s.arg);
}

int us_thread_next_cpu(const cpu_set_t *set, int cpu, unsigned k)
{
    int list[CPU_SETSIZE];
    unsigned n = 0, at = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set)) {
            if (c == cpu)
                at = n;
            list[n++] = c;
        }
    return n ? list[(at + k) % n] : cpu;
}

int us_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg,
                     unsigned k)
{
    struct start *s = malloc(sizeof *s);
    int cpu = sched_getcpu(), to = cpu;
    if (s && cpu >= 0 && !sched_getaffinity(0, sizeof s->all, &s->all) &&
        CPU_ISSET(cpu, &s->all))
        to = us_thread_next_cpu(&s->all, cpu, k);
    pthread_attr_t attr;
    if (to != cpu && !pthread_attr_init(&attr)) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(to, &one);
        s->fn = fn;
        s->arg = arg;
        int e = pthread_attr_setaffinity_np(&attr, sizeof one, &one);
        if (!e)
            e = pthread_create(tid, &attr, started, s);
        pthread_attr_destroy(&attr);
        if (!e)
            return 0;
    }
    free(s);                      /* no other CPU: started as usual */
    return pthread_create(tid, NULL, fn, arg);
}
