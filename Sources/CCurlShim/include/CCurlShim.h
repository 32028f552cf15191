// Typed wrappers around libcurl's variadic functions, which Swift cannot call directly.
#ifndef APITEST_CCURLSHIM_H
#define APITEST_CCURLSHIM_H

#include <curl/curl.h>

#include "CCurlShimPoll.h"
#include "CCurlShimWebSocket.h"
#include "CCurlShimH2C.h"

typedef size_t (*apitest_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*apitest_seek_callback)(void *userdata, curl_off_t offset, int origin);
/// CURLOPT_DEBUGFUNCTION's callback: libcurl's own text, and the header and data bytes sent and received.
typedef int (*apitest_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
typedef int (*apitest_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                         curl_off_t ulnow);

CURLcode apitest_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode apitest_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode apitest_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode apitest_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode apitest_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode apitest_easy_setopt_share(CURL *handle, CURLSH *share);
CURLcode apitest_easy_setopt_data_callback(CURL *handle, CURLoption option, apitest_data_callback callback);
CURLcode apitest_easy_setopt_xferinfo_callback(CURL *handle, apitest_xferinfo_callback callback);
CURLcode apitest_easy_setopt_seek_callback(CURL *handle, apitest_seek_callback callback);
CURLcode apitest_easy_setopt_debug_callback(CURL *handle, apitest_debug_callback callback);

CURLcode apitest_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode apitest_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode apitest_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode apitest_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **value);

CURLMcode apitest_multi_setopt_long(CURLM *handle, CURLMoption option, long value);
CURLSHcode apitest_share_setopt_long(CURLSH *handle, CURLSHoption option, long value);

/// The `CURLMsg` fields Swift needs, read without touching the union.
int apitest_multi_info_read(CURLM *handle, CURL **easy, CURLcode *result);

/// libcurl's compile-time version string (e.g. "7.88.1").
const char *apitest_curl_version_string(void);

#endif
