#ifndef CLIBPQ_H
#define CLIBPQ_H

/* libpq, PostgreSQL's client library (Debian's libpq-dev): its include folder comes from pkg-config (libpq). */
#include <libpq-fe.h>
#include <poll.h>

/* poll(2) on one descriptor, so Swift waits for libpq's socket without building a pollfd array itself. */
static inline int CLibPQ_poll(int descriptor, short events, int milliseconds) {
    struct pollfd entry = { .fd = descriptor, .events = events, .revents = 0 };
    return poll(&entry, 1, milliseconds);
}

#endif
