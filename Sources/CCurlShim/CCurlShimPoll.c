#include "CCurlShimPoll.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

CURLcode apitest_easy_setopt_closesocket_callback(CURL *easy, apitest_closesocket_callback callback, void *clientp) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, clientp);
}

CURLMcode apitest_multi_setopt_socket_callback(CURLM *multi, apitest_socket_callback callback, void *userp) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, userp);
}

CURLMcode apitest_multi_setopt_timer_callback(CURLM *multi, apitest_timer_callback callback, void *userp) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_TIMERDATA, userp);
}

int apitest_poll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int apitest_poll_watch(int poll_fd, int fd, int readable, int writable, int added) {
    struct epoll_event event = {0};
    event.events = (readable ? EPOLLIN : 0) | (writable ? EPOLLOUT : 0);
    event.data.fd = fd;
    return epoll_ctl(poll_fd, added ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

int apitest_poll_unwatch(int poll_fd, int fd) {
    struct epoll_event event = {0};
    return epoll_ctl(poll_fd, EPOLL_CTL_DEL, fd, &event);
}

static int apitest_poll_report(struct epoll_event *ready, int count, apitest_poll_event *events) {
    for (int i = 0; i < count; i++) {
        events[i].fd = ready[i].data.fd;
        events[i].ready = ((ready[i].events & EPOLLIN) ? APITEST_POLL_READABLE : 0) |
                          ((ready[i].events & EPOLLOUT) ? APITEST_POLL_WRITABLE : 0) |
                          ((ready[i].events & (EPOLLERR | EPOLLHUP)) ? APITEST_POLL_ERROR : 0);
    }
    return count;
}

int apitest_poll_wait(int poll_fd, apitest_poll_event *events, int capacity, int timeout_ms) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    return apitest_poll_report(ready, epoll_wait(poll_fd, ready, capacity, timeout_ms), events);
}

/// 0 until epoll_pwait2 was found missing (ENOSYS: a kernel before 5.11, or a sandbox without it).
static int apitest_pwait2_missing = 0;

int apitest_poll_wait_ns(int poll_fd, apitest_poll_event *events, int capacity, int64_t timeout_ns) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    if (timeout_ns < 0) timeout_ns = 0;
    if (!__atomic_load_n(&apitest_pwait2_missing, __ATOMIC_RELAXED)) {
        struct timespec timeout = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
        int count = epoll_pwait2(poll_fd, ready, capacity, &timeout, NULL);
        if (count >= 0 || errno != ENOSYS) return apitest_poll_report(ready, count, events);
        __atomic_store_n(&apitest_pwait2_missing, 1, __ATOMIC_RELAXED);
    }
    int64_t ms = (timeout_ns + 999999) / 1000000;
    return apitest_poll_report(ready, epoll_wait(poll_fd, ready, capacity, ms > 1000000 ? 1000000 : (int)ms), events);
}

int apitest_wake_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int apitest_wake_signal(int fd) {
    uint64_t one = 1;
    for (;;) {
        ssize_t written = write(fd, &one, sizeof one);
        if (written == sizeof one) return 0;
        // EAGAIN: the counter is saturated, so the loop is being woken anyway.
        if (written < 0 && errno == EAGAIN) return 0;
        if (written < 0 && errno != EINTR) return -1;
    }
}

void apitest_wake_drain(int fd) {
    uint64_t value;
    while (read(fd, &value, sizeof value) < 0 && errno == EINTR) {
    }
}

void apitest_thread_name(const char *name) { (void)prctl(PR_SET_NAME, name, 0, 0, 0); }

// CURLOPT_PROTOCOLS and CURLOPT_REDIR_PROTOCOLS are deprecated in favour of their _STR forms (7.85) but kept: the
// bitmask is set without the text being compared against libcurl's scheme table.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
CURLcode apitest_easy_allow_http_only(CURL *easy, int redirects) {
    long mask = CURLPROTO_HTTP | CURLPROTO_HTTPS;
    return curl_easy_setopt(easy, redirects ? CURLOPT_REDIR_PROTOCOLS : CURLOPT_PROTOCOLS, mask);
}
#pragma GCC diagnostic pop
