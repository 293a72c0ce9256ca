/*
 * The biquad cascade of ButterworthFilter for Double values of 4, 8 or 16 lanes, compiled for
 * AVX (no FMA) in a build that otherwise targets plain x86-64. Poise's portable build (no
 * POISE_TARGET_CPU, what a SwiftPM package that depends on Poise gets) selects it at run time
 * when the CPU has AVX: there the Swift code splits a 4-lane Double vector into two SSE halves.
 * The arithmetic is that of the Swift kernels of that build (Sources/Poise/Filters/
 * BiquadCascade.swift, `Section.stepUnfused`), operation for operation, never fused, so the
 * results are bit-identical. On other architectures the functions exist and do nothing.
 */
#ifndef POISE_BIQUAD_AVX_H
#define POISE_BIQUAD_AVX_H

#include <stddef.h>

/** 1 when this CPU runs AVX code (CPUID AVX and OSXSAVE, the OS saving the AVX registers); 0 on
 *  a CPU without it and on other architectures. */
int poisekernel_has_avx(void);

/**
 * Runs `sections` biquad sections over `count` samples of `width` Doubles each (4, 8 or 16;
 * any multiple of 4), from `x` into `y` (`y` may be `x`; otherwise no overlap).
 * `coefficients`: five per section, b0, b1, b2, a1, a2. `state`: two values of `width` Doubles
 * per section (s0, s1 of the transposed direct form II), read and updated. No check for
 * non-finite values (the caller inspects the state). Call only when poisekernel_has_avx().
 */
void poisekernel_biquad_avx(const double *coefficients, ptrdiff_t sections, double *state,
                            const double *x, double *y, ptrdiff_t count, ptrdiff_t width);

#endif
