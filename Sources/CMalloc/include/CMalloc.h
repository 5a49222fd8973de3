#ifndef CMALLOC_H
#define CMALLOC_H

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

/// Returns free heap memory to the system (glibc's `malloc_trim(0)`); 0 elsewhere.
static inline int CMalloc_trim(void) {
#if defined(__linux__) && defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

#endif
