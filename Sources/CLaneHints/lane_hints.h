#ifndef POISE_LANE_HINTS_H
#define POISE_LANE_HINTS_H
/* Cache hints for the two-lane fusion run (Sources/PoiseC/FusionLanes.swift), which Swift
   cannot express: inlined into the Swift code, no symbol is linked. */
static inline void poise_prefetch_for_write(const void *p) { __builtin_prefetch(p, 1, 3); }
#endif
