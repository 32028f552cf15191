// What a WebSocket connection over a CURLOPT_CONNECT_ONLY handle needs of libcurl beyond the typed setters.
#ifndef APITEST_CCURLSHIMWEBSOCKET_H
#define APITEST_CCURLSHIMWEBSOCKET_H

#include <curl/curl.h>

/// The socket of the connection `easy` made (CURLINFO_ACTIVESOCKET), or -1 when there is none.
int apitest_easy_active_socket(CURL *easy);

/// Waits up to `timeout_ms` for `fd` to be readable (`writable` 0) or writable (`writable` 1): 1 when it is (or has
/// an error or hang-up to report), 0 on timeout, -1 with errno.
int apitest_socket_wait(int fd, int writable, int timeout_ms);

#endif
