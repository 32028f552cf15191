// The event loop under libcurl's socket interface (curl_multi_socket_action): epoll for readiness and timers, an
// eventfd to wake the loop. Wrapped in C because `struct epoll_event` is packed on x86-64.
#ifndef APITEST_CCURLSHIMPOLL_H
#define APITEST_CCURLSHIMPOLL_H

#include <curl/curl.h>
#include <stdint.h>

/// CURLMOPT_SOCKETFUNCTION's callback: libcurl says which socket to watch for what (CURL_POLL_IN/OUT/INOUT/REMOVE).
typedef int (*apitest_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *userp, void *socketp);
/// CURLMOPT_TIMERFUNCTION's callback: when libcurl next needs curl_multi_socket_action(CURL_SOCKET_TIMEOUT).
typedef int (*apitest_timer_callback)(CURLM *multi, long timeout_ms, void *userp);

/// CURLOPT_CLOSESOCKETFUNCTION's callback: closes a socket libcurl is done with; 0 on success.
typedef int (*apitest_closesocket_callback)(void *clientp, curl_socket_t socket);

/// Sets CURLOPT_CLOSESOCKETFUNCTION and CURLOPT_CLOSESOCKETDATA.
CURLcode apitest_easy_setopt_closesocket_callback(CURL *easy, apitest_closesocket_callback callback, void *clientp);
/// Sets CURLMOPT_SOCKETFUNCTION and CURLMOPT_SOCKETDATA.
CURLMcode apitest_multi_setopt_socket_callback(CURLM *multi, apitest_socket_callback callback, void *userp);
/// Sets CURLMOPT_TIMERFUNCTION and CURLMOPT_TIMERDATA.
CURLMcode apitest_multi_setopt_timer_callback(CURLM *multi, apitest_timer_callback callback, void *userp);

/// What a descriptor is ready for, as `apitest_poll_wait` reports it.
enum {
    APITEST_POLL_READABLE = 1,
    APITEST_POLL_WRITABLE = 2,
    /// An error or hang-up on the descriptor.
    APITEST_POLL_ERROR = 4,
};

/// One readiness event: the descriptor and what it is ready for (APITEST_POLL_* bits).
typedef struct {
    int fd;
    int ready;
} apitest_poll_event;

/// A new epoll instance (close-on-exec), or -1 with errno.
int apitest_poll_create(void);
/// Watches `fd` for reading and/or writing: adds it when `added` is 0, else changes what it is watched for.
/// Returns 0, or -1 with errno.
int apitest_poll_watch(int poll_fd, int fd, int readable, int writable, int added);
/// Stops watching `fd` (0, or -1 with errno).
int apitest_poll_unwatch(int poll_fd, int fd);
/// Waits up to `timeout_ms` (-1: no limit) for readiness; fills at most `capacity` events and returns how many,
/// 0 on timeout, -1 with errno.
int apitest_poll_wait(int poll_fd, apitest_poll_event *events, int capacity, int timeout_ms);
/// As `apitest_poll_wait`, with the limit in nanoseconds (>= 0): epoll_pwait2 where the kernel has it (5.11), else
/// epoll_wait with the limit rounded up to whole milliseconds.
int apitest_poll_wait_ns(int poll_fd, apitest_poll_event *events, int capacity, int64_t timeout_ns);

/// A non-blocking, close-on-exec eventfd for waking the loop, or -1 with errno.
int apitest_wake_create(void);
/// Makes the wake descriptor readable (0, or -1 with errno).
int apitest_wake_signal(int fd);
/// Makes it not readable again.
void apitest_wake_drain(int fd);

/// Allows only HTTP and HTTPS for the transfer (`redirects` 0) or for the redirects it follows (`redirects` 1),
/// through libcurl's protocol bitmask: the same rule as `CURLOPT_PROTOCOLS_STR` "http,https", without parsing that
/// text against every scheme libcurl knows on every request.
CURLcode apitest_easy_allow_http_only(CURL *easy, int redirects);

/// Names the calling thread (Linux keeps the first 15 bytes), as `top -H` and `perf` show it.
void apitest_thread_name(const char *name);

#endif
