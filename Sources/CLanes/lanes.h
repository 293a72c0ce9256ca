#ifndef POISE_LANES_H
#define POISE_LANES_H
/* What the two-lane fusion run (Sources/PoiseC/FusionLanes.swift) needs and Swift cannot say
   without newer platforms or Linux-only declarations: a write prefetch, acquire/release loads
   and stores of a counter, and how many processors are free for a second thread. Static
   inline: inlined into the Swift code, no symbol is linked. */
#include <stdint.h>
#ifdef __linux__
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static inline void poise_prefetch_for_write(const void *p) { __builtin_prefetch(p, 1, 3); }
static inline intptr_t poise_load_acquire(const intptr_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void poise_store_release(intptr_t *p, intptr_t value) { __atomic_store_n(p, value, __ATOMIC_RELEASE); }

/* The processors this thread may run on (its sched_getaffinity mask), or -1 when unknown. */
static inline int poise_processors_allowed(void) {
#ifdef __linux__
    unsigned long mask[16] = {0};
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes <= 0) return -1;
    int count = 0;
    for (long i = 0; i < bytes / (long)sizeof(unsigned long); i++) count += __builtin_popcountl(mask[i]);
    return count;
#else
    return -1;
#endif
}

/* The threads runnable on the machine now, the caller included (the numerator of the fourth
   field of /proc/loadavg), or -1 when unknown. */
static inline int poise_runnable_threads(void) {
#ifdef __linux__
    char text[128];
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    long n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    int field = 0;
    for (long i = 0; i < n; i++) {
        if (text[i] == ' ' && ++field == 3) {
            int value = 0, digits = 0;
            for (long j = i + 1; j < n && text[j] >= '0' && text[j] <= '9'; j++, digits++) value = value * 10 + (text[j] - '0');
            return digits > 0 ? value : -1;
        }
    }
    return -1;
#else
    return -1;
#endif
}

#endif
