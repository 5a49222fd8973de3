#ifndef COPENSSL_H
#define COPENSSL_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>

/// `SSL_CTX_set_mode` is a macro; Swift cannot call it directly.
static inline long COpenSSL_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

/// `SSL_CTX_set_min_proto_version` is a macro; Swift cannot call it directly.
static inline int COpenSSL_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/// `SSL_CTX_set_options` takes a 64-bit option mask in OpenSSL 3.
static inline uint64_t COpenSSL_SSL_CTX_set_options(SSL_CTX *ctx, uint64_t options) {
    return SSL_CTX_set_options(ctx, options);
}

/// `BIO_pending` is a macro; Swift cannot call it directly.
static inline size_t COpenSSL_BIO_pending(BIO *bio) {
    return (size_t)BIO_pending(bio);
}

#endif
