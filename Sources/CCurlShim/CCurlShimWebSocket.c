#include "CCurlShimWebSocket.h"

#include <poll.h>

int apitest_easy_active_socket(CURL *easy) {
    curl_socket_t socket = CURL_SOCKET_BAD;
    if (curl_easy_getinfo(easy, CURLINFO_ACTIVESOCKET, &socket) != CURLE_OK || socket == CURL_SOCKET_BAD) {
        return -1;
    }
    return (int)socket;
}

int apitest_socket_wait(int fd, int writable, int timeout_ms) {
    struct pollfd entry = {.fd = fd, .events = writable ? POLLOUT : POLLIN, .revents = 0};
    int ready = poll(&entry, 1, timeout_ms);
    if (ready <= 0) return ready;
    return 1;
}
