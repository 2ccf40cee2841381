/*
 * What an interrupted process must not leave behind: temporary files to
 * unlink and child processes to kill when SIGHUP, SIGINT or SIGTERM ends
 * the process (glsl/cleanup.c).  The code that creates a temporary file
 * or starts a child registers it for as long as it exists; the tool
 * installs the handler once (us_cleanup_install).  Without the handler,
 * as in the tests that link the library, registering costs a few atomic
 * operations and nothing else happens.
 */
#ifndef GLSL_CLEANUP_H
#define GLSL_CLEANUP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "ushader.h"

/* Install the handler for SIGHUP, SIGINT and SIGTERM (a signal that is
 * ignored stays ignored): it unlinks the registered files, kills and
 * reaps the registered children, then dies of the signal with the
 * default action (exit status 128 + N in a shell). */
void us_cleanup_install(void);

/* Block / restore the three signals in the calling thread, so that a
 * file or child is registered before a signal can see it. */
void us_cleanup_block(sigset_t *old);
void us_cleanup_restore(const sigset_t *old);

/* mkstemp(templ) with the new file registered; the file descriptor, or
 * -1 with errno set.  *slot is for us_cleanup_drop (-1 when the registry
 * was full or the name too long: the file is then only not removed on a
 * signal). */
US_MUST_CHECK int us_cleanup_mkstemp(char *templ, int *slot);

/* Register a file that another process is about to create (a tool's
 * output); the slot, or -1 when the registry is full or the name long. */
int us_cleanup_add_file(const char *path);

/* Register a running child; the slot, or -1 when the registry is full.
 * Call with the signals blocked, right after fork. */
int us_cleanup_add_child(pid_t pid);

/* The file or child of `slot` is gone (renamed, unlinked, or about to be
 * reaped); -1 is ignored.  Drop a file after the rename or unlink, a child
 * before reaping it, so its pid cannot be reused while registered. */
void us_cleanup_drop(int slot);

/* In a forked child before exec: forget the parent's registrations (the
 * child's copy), so a signal there cannot remove the parent's files. */
void us_cleanup_forget(void);

#endif
