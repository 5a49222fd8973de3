#ifndef CMALLOC_H
#define CMALLOC_H

// `__GLIBC__` comes from <features.h>: test it only once that is included (tested before any header, it was never
// defined, and every function below did nothing).
#if defined(__linux__)
#include <features.h>
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stddef.h>
#define CMALLOC_GLIBC 1
#else
#define CMALLOC_GLIBC 0
#endif

/// The `mallopt` settings the server makes.
typedef enum {
    /// At most this many malloc arenas (by default each thread may get its own, each keeping freed memory).
    CMalloc_arenaLimit,
    /// Every request of at least this many bytes gets its own `mmap` (given back to the system when freed), and the
    /// threshold stays: by default glibc raises it up to 32 MiB each time a mapped block is freed, after which blocks
    /// that size come from the arenas and leave them fragmented.
    CMalloc_mmapThreshold,
} CMalloc_Setting;

/// Makes `setting` `value`: 1 when glibc took it; 0 when it refused, or elsewhere.
static inline int CMalloc_set(CMalloc_Setting setting, int value) {
#if CMALLOC_GLIBC
    return mallopt(setting == CMalloc_arenaLimit ? M_ARENA_MAX : M_MMAP_THRESHOLD, value);
#else
    (void)setting;
    (void)value;
    return 0;
#endif
}

/// Whether glibc served the block at `pointer` (from `malloc`) by its own `mmap`: the IS_MMAPPED bit (2) of the size
/// word just before the block; 0 elsewhere.
static inline int CMalloc_isMapped(const void *pointer) {
#if CMALLOC_GLIBC
    return (((const size_t *)pointer)[-1] & 2) != 0;
#else
    (void)pointer;
    return 0;
#endif
}

/// Returns free heap memory to the system (glibc's `malloc_trim(0)`); 0 elsewhere.
static inline int CMalloc_trim(void) {
#if CMALLOC_GLIBC
    return malloc_trim(0);
#else
    return 0;
#endif
}

#endif
