/* The AVX biquad cascade (include/biquad_avx.h). Every function that uses AVX is marked with
 * the target attribute; the file itself is compiled for the package's baseline. */
#include "biquad_avx.h"

/* Never fuse a multiply and an add (clang contracts within an expression by default): the
 * results must equal the Swift kernels', which round after every operation. The target
 * attribute names AVX only, so no FMA instruction is available to the compiler either. */
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <cpuid.h>
#include <stdint.h>

int poisekernel_has_avx(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c >> 27 & 1) || !(c >> 28 & 1)) return 0;   /* OSXSAVE, AVX */
    uint32_t low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    (void)high;
    return (low & 6) == 6;   /* the OS saves the SSE and AVX registers (XCR0 bits 1, 2) */
}

/* Four Doubles, loaded and stored unaligned (a caller's buffer need not be 32-byte aligned);
 * may_alias: the same memory is read and written as Doubles elsewhere. */
typedef double lane4 __attribute__((vector_size(32), aligned(8), may_alias));

#define AVX __attribute__((target("avx")))

/* One section's coefficients as the Swift `Section` holds them under POISE_NO_FMA. */
typedef struct {
    double b0, minus_a1, minus_a2, c1, c2;
} section;

static section section_at(const double *c) {
    section s;
    s.b0 = c[0];
    s.minus_a1 = -c[3];
    s.minus_a2 = -c[4];
    s.c1 = c[1] + s.minus_a1 * c[0];   /* b1 − a1·b0 */
    s.c2 = c[2] + s.minus_a2 * c[0];   /* b2 − a2·b0 */
    return s;
}

/* One sample through one section, y substituted into the state update, in the Swift order:
 *   y = s0 + b0·x;  s0 = (s1 + c1·x) + (−a1)·s0;  s1 = c2·x + (−a2)·s0. */
static inline __attribute__((always_inline)) AVX lane4
step(const section *p, lane4 x, lane4 *s0, lane4 *s1) {
    lane4 previous = *s0;
    lane4 y = previous + p->b0 * x;
    *s0 = (*s1 + p->c1 * x) + p->minus_a1 * previous;
    *s1 = p->c2 * x + p->minus_a2 * previous;
    return y;
}

/* `g` (1…4, a constant after inlining) sections on 4 lanes: the sections interleaved sample
 * by sample with their state in registers, as the Swift block kernels. `x`, `y` and `s` point at
 * the lanes' first Double; `width` Doubles from one sample (or state value) to the next. */
static inline __attribute__((always_inline)) AVX void
run_group(int g, const double *c, double *s, const double *x, double *y, ptrdiff_t n, ptrdiff_t width) {
    section p[4];
    lane4 s0[4], s1[4];
    for (int k = 0; k < g; k++) {
        p[k] = section_at(c + 5 * k);
        s0[k] = *(const lane4 *)(s + 2 * k * width);
        s1[k] = *(const lane4 *)(s + (2 * k + 1) * width);
    }
    for (ptrdiff_t i = 0; i < n; i++) {
        lane4 v = *(const lane4 *)(x + i * width);
        for (int k = 0; k < g; k++) v = step(&p[k], v, &s0[k], &s1[k]);
        *(lane4 *)(y + i * width) = v;
    }
    for (int k = 0; k < g; k++) {
        *(lane4 *)(s + 2 * k * width) = s0[k];
        *(lane4 *)(s + (2 * k + 1) * width) = s1[k];
    }
}

AVX void poisekernel_biquad_avx(const double *coefficients, ptrdiff_t sections, double *state,
                                const double *x, double *y, ptrdiff_t count, ptrdiff_t width) {
    /* The lanes are independent: each group of four runs the whole cascade on its own. */
    for (ptrdiff_t lane = 0; lane + 4 <= width; lane += 4) {
        const double *source = x + lane;
        for (ptrdiff_t k = 0; k < sections; k += 4) {
            const double *c = coefficients + 5 * k;
            double *s = state + 2 * k * width + lane;
            switch (sections - k) {
            case 1: run_group(1, c, s, source, y + lane, count, width); break;
            case 2: run_group(2, c, s, source, y + lane, count, width); break;
            case 3: run_group(3, c, s, source, y + lane, count, width); break;
            default: run_group(4, c, s, source, y + lane, count, width); break;
            }
            source = y + lane;
        }
    }
}

#else

int poisekernel_has_avx(void) { return 0; }

void poisekernel_biquad_avx(const double *coefficients, ptrdiff_t sections, double *state,
                            const double *x, double *y, ptrdiff_t count, ptrdiff_t width) {
    (void)coefficients; (void)sections; (void)state; (void)x; (void)y; (void)count; (void)width;
}

#endif
