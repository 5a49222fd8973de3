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

/// `SSL_CTX_set_max_proto_version` is a macro; Swift cannot call it directly.
static inline int COpenSSL_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

/// `SSL_CTX_set_options` takes a 64-bit option mask in OpenSSL 3.
static inline uint64_t COpenSSL_SSL_CTX_set_options(SSL_CTX *ctx, uint64_t options) {
    return SSL_CTX_set_options(ctx, options);
}

/// The server options Rollboard sets: no renegotiation, no compression, server cipher preference.
static inline uint64_t COpenSSL_server_options(void) {
    return SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE;
}

/// `SSL_CTX_set_session_cache_mode` is a macro; Swift cannot call it directly.
static inline long COpenSSL_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}

/// `SSL_set_tlsext_host_name` is a macro; Swift cannot call it directly (client side, SNI).
static inline int COpenSSL_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// `BIO_pending` is a macro; Swift cannot call it directly.
static inline size_t COpenSSL_BIO_pending(BIO *bio) {
    return (size_t)BIO_pending(bio);
}

/// `EVP_EC_gen` is a variadic macro; this generates an EC key on the P-256 curve, or returns NULL.
static inline EVP_PKEY *COpenSSL_EVP_EC_gen_P256(void) {
    return EVP_EC_gen("P-256");
}

/// `MBSTRING_ASC` is a composite macro; the string type for ASCII X.509 name entries.
static inline int COpenSSL_MBSTRING_ASC(void) {
    return MBSTRING_ASC;
}

/// Adds an X.509 v3 extension given in OpenSSL's config syntax (e.g. `DNS:localhost,IP:127.0.0.1`)
/// to a self-issued certificate. Returns 1 on success, 0 on failure.
static inline int COpenSSL_X509_add_extension(X509 *cert, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (extension == NULL) {
        return 0;
    }
    int added = X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

#endif
