#ifndef CMALLOC_H
#define CMALLOC_H

// `__GLIBC__` comes from <features.h>: test it only once that is included (tested before any header, it was never
// defined, and every function below did nothing).
#if defined(__linux__)
#include <features.h>
#endif
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

/// Bounds glibc's malloc arenas to `count` (by default each thread may get its own); 0 elsewhere.
static inline int CMalloc_limitArenas(int count) {
#if defined(__linux__) && defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}

/// Serves every request of at least `bytes` by its own `mmap` (given back to the system when freed) and keeps that
/// threshold: by default glibc raises it up to 32 MiB each time a mapped block is freed, after which blocks that size
/// come from the arenas and leave them fragmented. 0 elsewhere.
static inline int CMalloc_fixMmapThreshold(int bytes) {
#if defined(__linux__) && defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

/// Whether glibc served the block at `pointer` (from `malloc`) by its own `mmap`: the IS_MMAPPED bit (2) of the size
/// word just before the block; 0 elsewhere.
static inline int CMalloc_isMapped(const void *pointer) {
#if defined(__linux__) && defined(__GLIBC__)
    return (((const size_t *)pointer)[-1] & 2) != 0;
#else
    (void)pointer;
    return 0;
#endif
}

/// Returns free heap memory to the system (glibc's `malloc_trim(0)`); 0 elsewhere.
static inline int CMalloc_trim(void) {
#if defined(__linux__) && defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

#endif
