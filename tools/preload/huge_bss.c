/*
 * ushader-huge-bss.so: preloaded (LD_PRELOAD) into the compilers that
 * glsl/compile.c runs, it advises the main program's zero-filled data
 * (.bss) for transparent huge pages before the program's own static
 * constructors run (a preloaded object's constructors run before the
 * executable's).  Nothing else: no output, no state, the program's
 * results unchanged.
 *
 * Why: glslangValidator (Debian 12's glslang-tools 12.0.0) clears a
 * 7.4 MB static array at every start: 1,800 first touches of 4 KiB
 * pages, 2,000 of the 2,700 faults of a compile and a fifth of its CPU
 * on the development VM, where a fault costs about 10 us
 * (docs/perf/memory.md, demo.md).  With THP "for madvise" (Debian's
 * default) the 2 MiB-aligned part of the array then takes three faults.
 * Built without the sanitizers and with no dependency past the C
 * library, so that any dynamically linked tool loads it.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

/* The first object dl_iterate_phdr reports is the main program: advise
 * the 2 MiB-aligned part of each of its writable segments' zero-filled
 * tails (memory size past file size), then stop (return 1). */
static int advise_main(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) ||
            ph->p_memsz <= ph->p_filesz)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr + ph->p_filesz;
        uintptr_t hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        lo = (lo + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        hi &= ~(uintptr_t)(HUGE_PAGE - 1);
        if (hi > lo)
            (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
    return 1;
}

__attribute__((constructor)) static void huge_bss(void)
{
    (void)dl_iterate_phdr(advise_main, NULL);
}
