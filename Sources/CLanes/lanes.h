#ifndef POISE_LANES_H
#define POISE_LANES_H
/* What the two-lane fusion run (Sources/PoiseC/FusionLanes.swift) needs and Swift cannot say
   without newer platforms: a write prefetch and acquire/release loads and stores of a
   counter. Static inline: inlined into the Swift code, no symbol is linked. */
#include <stdint.h>

static inline void poise_prefetch_for_write(const void *p) { __builtin_prefetch(p, 1, 3); }
static inline intptr_t poise_load_acquire(const intptr_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void poise_store_release(intptr_t *p, intptr_t value) { __atomic_store_n(p, value, __ATOMIC_RELEASE); }

#endif
