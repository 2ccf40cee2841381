/*
 * Host threads started where they can run at once (docs/perf/jobs.md,
 * "Where a new thread starts").
 *
 * On the 2-CPU virtual machine of docs/PERFORMANCE.md a new thread is
 * queued on its creator's CPU, which is busy, and often waits there
 * until a load balancer's tick moves it to the idle one: a render's pool
 * worker first ran 0.003-3.1 ms after it was started (15 runs, 3 of
 * them about 3 ms, of a 512x512 render's 20 ms of draws), 0.002-0.12 ms
 * when it is created with its affinity set to the other CPU.
 * us_thread_create starts helper k on the k-th allowed CPU after the
 * caller's, and the thread widens its affinity back to the caller's
 * whole set before it runs fn: a hint where to start, not a pin, so the
 * scheduler still moves it when that CPU is busy.
 */
#ifndef US_HOST_THREAD_H
#define US_HOST_THREAD_H

#include <pthread.h>

/* pthread_create(tid, NULL, fn, arg) started on the caller's k-th next
 * CPU (k >= 1: the helper's number among those the caller starts);
 * 0 or pthread_create's error. */
int us_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg,
                     unsigned k);

#ifdef _GNU_SOURCE
#include <sched.h>
/* The CPU helper k starts on: the k-th of *set after cpu, cyclically
 * (cpu itself when k is a multiple of the set's size: then no hint). */
int us_thread_next_cpu(const cpu_set_t *set, int cpu, unsigned k);
#endif

#endif
