#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic; Swift calls them through these typed wrappers. */

static inline CURLcode CCurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode CCurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*CCurl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode CCurl_setopt_write(CURL *handle, CCurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

typedef curl_socket_t (*CCurl_opensocket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);

/* Called instead of socket(2) for every connection libcurl opens, with the resolved peer address: the last word on
   where a transfer may connect. */
static inline CURLcode CCurl_setopt_opensocket(CURL *handle, CCurl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode CCurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode CCurl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
