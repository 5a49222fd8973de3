#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// `deflateInit2` is a macro; Swift cannot call it directly.
static inline int CZlib_deflateInit2(z_streamp stream, int level, int method, int windowBits, int memLevel,
                                     int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

/// `inflateInit2` is a macro; Swift cannot call it directly.
static inline int CZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
