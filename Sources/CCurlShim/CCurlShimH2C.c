#include "CCurlShimH2C.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

CURLcode apitest_easy_setopt_prereq_callback(CURL *easy, apitest_prereq_callback callback, void *clientp) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_PREREQDATA, clientp);
}

CURLcode apitest_easy_setopt_sockopt_callback(CURL *easy, apitest_sockopt_callback callback, void *clientp) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, clientp);
}

/// Whether `address` (of `length` bytes) is `ip`:`port`.
static int address_is(const struct sockaddr_storage *address, socklen_t length, const char *ip, int port) {
    char text[INET6_ADDRSTRLEN] = {0};
    if (address->ss_family == AF_INET && length >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        if (ntohs(v4->sin_port) != port) return 0;
        if (!inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text)) return 0;
    } else if (address->ss_family == AF_INET6 && length >= (socklen_t)sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (ntohs(v6->sin6_port) != port) return 0;
        if (!inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text)) return 0;
    } else {
        return 0;
    }
    return strcmp(text, ip) == 0;
}

int apitest_socket_connects(int fd, const char *local_ip, int local_port, const char *peer_ip, int peer_port) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    memset(&address, 0, sizeof address);
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return 0;
    if (!address_is(&address, length, local_ip, local_port)) return 0;
    length = sizeof address;
    memset(&address, 0, sizeof address);
    if (getpeername(fd, (struct sockaddr *)&address, &length) != 0) return 0;
    return address_is(&address, length, peer_ip, peer_port);
}
