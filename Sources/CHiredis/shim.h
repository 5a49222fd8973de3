#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H

// Only hiredis's reply parser (redisReader) is used: Rollboard opens and drives its own sockets.
#include <hiredis/hiredis.h>

/// `redisReaderGetError` is a macro; Swift cannot call it directly. The reader's error text (empty when none).
static inline const char *CHiredis_redisReaderGetError(redisReader *reader) {
    return reader->errstr;
}

/// Bytes fed to the reader that it has not yet consumed into a reply.
static inline size_t CHiredis_redisReaderUnconsumedBytes(const redisReader *reader) {
    return reader->len - reader->pos;
}

#endif
