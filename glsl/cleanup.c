/*
 * The registry of temporary files and child processes to remove when a
 * signal ends the process (glsl/cleanup.h).
 *
 * This is the library's one piece of mutable global state, and it has to
 * be: a signal handler gets no context pointer, so what it cleans up must
 * be reachable from a static.  Everything here is async-signal-safe on the
 * handler's side: a fixed array (no malloc), slots claimed and released
 * with lock-free atomics, and the handler calls only unlink, kill,
 * waitpid, sigaction, raise and pthread_sigmask.
 *
 * A slot is FREE, BUSY (being filled, released, or taken by the handler),
 * FILE or CHILD.  The handler takes a FILE or CHILD slot by CAS before
 * reading it, so a thread reusing the slot at that moment cannot change
 * the path under it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "glsl/cleanup.h"

enum { SLOTS = 32, PATH_CAP = 4096 };
enum { FREE, BUSY, FILE_SLOT, CHILD_SLOT };

static struct slot {
    atomic_int state;
    pid_t pid;
    char path[PATH_CAP];
} slots[SLOTS];

static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGTERM };
enum { NSIGNALS = sizeof cleanup_signals / sizeof cleanup_signals[0] };

static int claim(void)
{
    for (int i = 0; i < SLOTS; i++) {
        int want = FREE;
        if (atomic_compare_exchange_strong(&slots[i].state, &want, BUSY))
            return i;
    }
    return -1;
}

void us_cleanup_drop(int slot)
{
    if (slot < 0 || slot >= SLOTS)
        return;
    int s = atomic_load(&slots[slot].state);
    /* Fails only when the handler holds the slot: the process is ending. */
    if (s == FILE_SLOT || s == CHILD_SLOT)
        atomic_compare_exchange_strong(&slots[slot].state, &s, FREE);
}

int us_cleanup_add_child(pid_t pid)
{
    int i = claim();
    if (i >= 0) {
        slots[i].pid = pid;
        atomic_store(&slots[i].state, CHILD_SLOT);
    }
    return i;
}

int us_cleanup_add_file(const char *path)
{
    size_t n = strlen(path);
    int i = n < PATH_CAP ? claim() : -1;
    if (i >= 0) {
        memcpy(slots[i].path, path, n + 1);
        atomic_store(&slots[i].state, FILE_SLOT);
    }
    return i;
}

int us_cleanup_mkstemp(char *templ, int *slot)
{
    sigset_t old;
    us_cleanup_block(&old);
    int fd = mkstemp(templ);
    int e = errno;
    *slot = fd >= 0 ? us_cleanup_add_file(templ) : -1;
    us_cleanup_restore(&old);
    errno = e;
    return fd;
}

void us_cleanup_forget(void)
{
    for (int i = 0; i < SLOTS; i++)
        atomic_store(&slots[i].state, FREE);
}

void us_cleanup_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < NSIGNALS; i++)
        sigaddset(&set, cleanup_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

void us_cleanup_restore(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void on_signal(int sig)
{
    int taken[SLOTS];
    for (int i = 0; i < SLOTS; i++) {
        int s = atomic_load(&slots[i].state);
        taken[i] = (s == FILE_SLOT || s == CHILD_SLOT) &&
                   atomic_compare_exchange_strong(&slots[i].state, &s, BUSY)
                   ? s : FREE;
        if (taken[i] == FILE_SLOT)
            unlink(slots[i].path);
        else if (taken[i] == CHILD_SLOT)
            kill(slots[i].pid, SIGKILL);
    }
    for (int i = 0; i < SLOTS; i++)
        if (taken[i] == CHILD_SLOT)
            while (waitpid(slots[i].pid, NULL, 0) < 0 && errno == EINTR)
                ;
    /* Die of the signal itself, so the parent sees the usual status. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    _exit(128 + sig);   /* not reached */
}

void us_cleanup_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSIGNALS; i++)
        sigaddset(&sa.sa_mask, cleanup_signals[i]);
    for (int i = 0; i < NSIGNALS; i++) {
        struct sigaction old;
        if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
            old.sa_handler != SIG_IGN)
            sigaction(cleanup_signals[i], &sa, NULL);
    }
}
