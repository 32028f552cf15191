// What the reuse of plaintext HTTP/2 (h2c) connections needs from libcurl 7.88: the pre-request and socket-option
// callbacks (variadic options Swift cannot set) and a look at a socket's addresses. See CurlMultiLoop+H2C.swift.
#ifndef APITEST_CCURLSHIMH2C_H
#define APITEST_CCURLSHIMH2C_H

#include <curl/curl.h>

/// CURLOPT_PREREQFUNCTION's callback: the connection is ready (new or reused) and nothing of the request is sent;
/// CURL_PREREQFUNC_OK to send it, CURL_PREREQFUNC_ABORT to end the transfer with CURLE_ABORTED_BY_CALLBACK.
typedef int (*apitest_prereq_callback)(void *clientp, char *primary_ip, char *local_ip, int primary_port,
                                       int local_port);
/// CURLOPT_SOCKOPTFUNCTION's callback: libcurl made the socket `fd` (before connecting it); CURL_SOCKOPT_OK.
typedef int (*apitest_sockopt_callback)(void *clientp, curl_socket_t fd, curlsocktype purpose);

/// Sets CURLOPT_PREREQFUNCTION and CURLOPT_PREREQDATA.
CURLcode apitest_easy_setopt_prereq_callback(CURL *easy, apitest_prereq_callback callback, void *clientp);
/// Sets CURLOPT_SOCKOPTFUNCTION and CURLOPT_SOCKOPTDATA.
CURLcode apitest_easy_setopt_sockopt_callback(CURL *easy, apitest_sockopt_callback callback, void *clientp);

/// 1 when the TCP socket `fd` is connected from `local_ip`:`local_port` to `peer_ip`:`peer_port` (addresses as
/// libcurl prints them: inet_ntop's text), 0 otherwise (another socket, or not connected).
int apitest_socket_connects(int fd, const char *local_ip, int local_port, const char *peer_ip, int peer_port);

#endif
