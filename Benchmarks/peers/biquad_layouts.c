/*
 * Which code a plain x86-64 build can use for the Butterworth cascade on three axes in Double
 * (order 4: two sections, transposed direct form II, the unfused step of docs/filters.md):
 *   sse2 4 lanes   — SIMD4<Double> as plain x86-64 compiles it: two SSE halves per operation;
 *   sse2 2+1 lanes — three axes as SIMD2<Double> and a Double: one SSE and one scalar operation;
 *   avx 4 lanes    — the same unfused step in one AVX register (what CPoiseKernels runs);
 *   avx2+fma       — the fused step of a build for x86-64-v3 or the CPU (the reference).
 * Prints the fastest of 400 runs of each over 100,000 samples, the four interleaved, and the
 * ratio to the fused form. Build and run (any x86-64 CPU with AVX2 and FMA):
 *   clang -O2 -o /tmp/biquad_layouts Benchmarks/peers/biquad_layouts.c && /tmp/biquad_layouts
 */
#pragma STDC FP_CONTRACT OFF
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef double lane4 __attribute__((vector_size(32), aligned(8)));
typedef double lane2 __attribute__((vector_size(16), aligned(8)));
typedef struct { lane2 xy; double z; } axes3;   /* 32 bytes, as SIMD3<Double> */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* The unfused step: y = s0 + b0·x; s0 = (s1 + c1·x) − a1·s0; s1 = c2·x − a2·s0
 * (c: b0, c1, c2, −a1, −a2 of one section). */
#define STEP(T, x, s0, s1, c) ({ T p_ = s0; T y_ = p_ + (c)[0] * x; \
    s0 = (s1 + (c)[1] * x) + (c)[3] * p_; s1 = (c)[2] * x + (c)[4] * p_; y_; })

#define UNFUSED4(name, attributes)                                                         \
    attributes void name(const double *c, lane4 *s, const lane4 *x, lane4 *y, long n) {    \
        lane4 p0 = s[0], p1 = s[1], q0 = s[2], q1 = s[3];                                 \
        for (long i = 0; i < n; i++) {                                                     \
            lane4 v = STEP(lane4, x[i], p0, p1, c);                                        \
            y[i] = STEP(lane4, v, q0, q1, c + 5);                                          \
        }                                                                                  \
        s[0] = p0; s[1] = p1; s[2] = q0; s[3] = q1;                                       \
    }
UNFUSED4(sse2_4, __attribute__((noinline)))
UNFUSED4(avx_4, __attribute__((noinline, target("avx"))))

__attribute__((noinline)) void sse2_3(const double *c, axes3 *s, const axes3 *x, axes3 *y, long n) {
    lane2 p0 = s[0].xy, p1 = s[1].xy, q0 = s[2].xy, q1 = s[3].xy;
    double r0 = s[0].z, r1 = s[1].z, t0 = s[2].z, t1 = s[3].z;
    for (long i = 0; i < n; i++) {
        lane2 v = STEP(lane2, x[i].xy, p0, p1, c);
        y[i].xy = STEP(lane2, v, q0, q1, c + 5);
        double w = STEP(double, x[i].z, r0, r1, c);
        y[i].z = STEP(double, w, t0, t1, c + 5);
    }
    s[0].xy = p0; s[1].xy = p1; s[2].xy = q0; s[3].xy = q1;
    s[0].z = r0; s[1].z = r1; s[2].z = t0; s[3].z = t1;
}

/* The fused step (b: b0, b1, b2, a1, a2 of one section):
 * y = fma(b0, x, s0); s0 = fma(−a1, y, fma(b1, x, s1)); s1 = fma(−a2, y, b2·x). */
__attribute__((noinline, target("avx2,fma"))) void fused_4(const double *b, lane4 *s, const lane4 *x, lane4 *y, long n) {
    __m256d k[10];
    for (int j = 0; j < 10; j++) k[j] = _mm256_set1_pd(j % 5 >= 3 ? -b[j] : b[j]);
    __m256d p0 = (__m256d)s[0], p1 = (__m256d)s[1], q0 = (__m256d)s[2], q1 = (__m256d)s[3];
    for (long i = 0; i < n; i++) {
        __m256d v = (__m256d)x[i];
        __m256d a = _mm256_fmadd_pd(k[0], v, p0);
        p0 = _mm256_fmadd_pd(k[3], a, _mm256_fmadd_pd(k[1], v, p1));
        p1 = _mm256_fmadd_pd(k[4], a, _mm256_mul_pd(k[2], v));
        __m256d o = _mm256_fmadd_pd(k[5], a, q0);
        q0 = _mm256_fmadd_pd(k[8], o, _mm256_fmadd_pd(k[6], a, q1));
        q1 = _mm256_fmadd_pd(k[9], o, _mm256_mul_pd(k[7], a));
        y[i] = (lane4)o;
    }
    s[0] = (lane4)p0; s[1] = (lane4)p1; s[2] = (lane4)q0; s[3] = (lane4)q1;
}

int main(void) {
    const long n = 100000;
    lane4 *x = aligned_alloc(32, n * 32), *y = aligned_alloc(32, n * 32);
    axes3 *x3 = aligned_alloc(32, n * 32), *y3 = aligned_alloc(32, n * 32);
    srand(1);
    for (long i = 0; i < n; i++) {
        for (int l = 0; l < 4; l++) x[i][l] = l < 3 ? (double)rand() / RAND_MAX : 0;
        x3[i].xy = (lane2){x[i][0], x[i][1]};
        x3[i].z = x[i][2];
    }
    /* scipy.signal.butter(4, 5, fs=100, output="sos"): b0, b1, b2, a1, a2 per section. */
    const double b[10] = {0.00041659920440659937, 0.0008331984088131987, 0.00041659920440659937,
                          -1.4796742169311934, 0.5558215432824889,
                          1, 2, 1, -1.7009643319435257, 0.7884997398152979};
    double c[10];   /* b0, b1 − a1·b0, b2 − a2·b0, −a1, −a2 */
    for (int k = 0; k < 2; k++) {
        const double *d = b + 5 * k;
        c[5 * k] = d[0]; c[5 * k + 1] = d[1] - d[3] * d[0]; c[5 * k + 2] = d[2] - d[4] * d[0];
        c[5 * k + 3] = -d[3]; c[5 * k + 4] = -d[4];
    }
    const char *names[4] = {"sse2 4 lanes", "sse2 2+1 lanes", "avx 4 lanes", "avx2+fma"};
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int round = 0; round < 400; round++) {
        for (int j = 0; j < 4; j++) {
            int which = (round + j) % 4;
            lane4 s[4];
            axes3 s3[4];
            memset(s, 0, sizeof s);
            memset(s3, 0, sizeof s3);
            double start = now();
            switch (which) {
            case 0: sse2_4(c, s, x, y, n); break;
            case 1: sse2_3(c, s3, x3, y3, n); break;
            case 2: avx_4(c, s, x, y, n); break;
            default: fused_4(b, s, x, y, n); break;
            }
            double elapsed = now() - start;
            if (elapsed < best[which]) best[which] = elapsed;
        }
    }
    for (int j = 0; j < 4; j++)
        printf("%-15s %5.2f ns/sample  %.2f x avx2+fma\n", names[j], best[j] * 1e9 / n, best[j] / best[3]);
    return 0;
}
