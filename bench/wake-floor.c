// bench/wake-floor.c: what one wake-up of a sleeping event loop costs on this machine, with no work at all.
//
// A thread sleeps in epoll_pwait2 until its next deadline (as CurlMultiLoop sleeps until its next timer or socket
// event), `rate` deadlines a second, evenly spaced, for `seconds`; it prints the process's CPU time (user + system,
// getrusage) per wake-up and the voluntary context switches. An open-model load iteration that starts isolated
// (the loop asleep when it is due) wakes its loop twice: for the arrival's timer and for the response. So twice
// this figure is CPU an iteration spends before any of its own work, a floor no user-space change removes.
//
// Build: cc -O2 -o wake-floor bench/wake-floor.c; run: wake-floor RATE SECONDS (bench/load --wake-floor does both).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>

static long nanoseconds(struct timespec t) { return t.tv_sec * 1000000000L + t.tv_nsec; }

int main(int argc, char **argv) {
    if (argc != 3 || atoi(argv[1]) <= 0 || atof(argv[2]) <= 0) {
        fprintf(stderr, "usage: wake-floor RATE SECONDS\n");
        return 2;
    }
    int rate = atoi(argv[1]);
    double seconds = atof(argv[2]);
    int loop = epoll_create1(0);
    if (loop < 0) { perror("epoll_create1"); return 1; }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long start = nanoseconds(now), period = 1000000000L / rate, count = (long)(rate * seconds), sleeps = 0;
    for (long i = 1; i <= count; i++) {
        long due = start + i * period;
        for (;;) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            long left = due - nanoseconds(now);
            if (left <= 0) break;
            struct timespec wait = {left / 1000000000L, left % 1000000000L};
            struct epoll_event event;
            epoll_pwait2(loop, &event, 1, &wait, NULL);
            sleeps++;
        }
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double user = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
    double system = usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    printf("%d %ld %.3f %ld %.2f\n", rate, count, user + system, usage.ru_nvcsw, (user + system) / count * 1e6);
    return 0;
}
