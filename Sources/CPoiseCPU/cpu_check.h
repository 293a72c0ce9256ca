/*
 * The CPU check of builds for a raised x86-64 baseline (POISE_TARGET_CPU=haswell, the level
 * x86-64-v3: AVX, AVX2, FMA, BMI1, BMI2, F16C, LZCNT, MOVBE on top of x86-64-v2). Header-only C,
 * compiled for plain x86-64 wherever it is included, so it runs on any x86-64 CPU and reports
 * what is missing before code built for the baseline executes an instruction the CPU lacks.
 * Used by the `poise` tool at start (Sources/poise/main.swift) and by libpoise when it is
 * loaded (cpu_check.c, linked by scripts/build_c_library.sh). On other architectures every
 * check passes.
 */
#ifndef POISE_CPU_CHECK_H
#define POISE_CPU_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** The CPUID and XGETBV words the x86-64-v3 features are read from. */
typedef struct poise_cpu_words {
    uint32_t leaf1_ecx;      /* CPUID(1).ECX */
    uint32_t leaf7_ebx;      /* CPUID(7, 0).EBX (0 when leaf 7 does not exist) */
    uint32_t ext1_ecx;       /* CPUID(0x80000001).ECX */
    uint64_t xcr0;           /* XGETBV(0) (0 when the OS does not enable XSAVE) */
} poise_cpu_words;

/** Appends `name` to the space-separated list in `list` (capacity `size`) when it fits whole. */
static inline void poise_cpu_append(char *list, size_t size, const char *name) {
    if (size == 0) return;
    size_t used = strlen(list), length = strlen(name) + (used ? 1 : 0);
    if (used + length < size) snprintf(list + used, size - used, "%s%s", used ? " " : "", name);
}

/**
 * Writes into `missing` (capacity `size`, NUL-terminated, space-separated) the x86-64-v3 features
 * `words` lack; returns their count (0: the CPU runs a build for x86-64-v3).
 */
static inline int poise_cpu_missing_v3(poise_cpu_words words, char *missing, size_t size) {
    static const struct { const char *name; int word; int bit; } features[] = {
        {"sse3", 0, 0}, {"ssse3", 0, 9}, {"fma", 0, 12}, {"cx16", 0, 13}, {"sse4.1", 0, 19},
        {"sse4.2", 0, 20}, {"movbe", 0, 22}, {"popcnt", 0, 23}, {"osxsave", 0, 27}, {"avx", 0, 28},
        {"f16c", 0, 29}, {"bmi1", 1, 3}, {"avx2", 1, 5}, {"bmi2", 1, 8}, {"lahf", 2, 0},
        {"lzcnt", 2, 5},
    };
    int count = 0;
    if (size > 0) missing[0] = 0;
    for (size_t index = 0; index < sizeof features / sizeof features[0]; index++) {
        uint32_t word = features[index].word == 0 ? words.leaf1_ecx
                      : features[index].word == 1 ? words.leaf7_ebx : words.ext1_ecx;
        if (word >> features[index].bit & 1) continue;
        count++;
        poise_cpu_append(missing, size, features[index].name);
    }
    /* The OS must save the SSE and AVX registers (XCR0 bits 1 and 2) for AVX code to run. */
    if ((words.xcr0 & 6) != 6) {
        count++;
        poise_cpu_append(missing, size, "os-avx-state");
    }
    return count;
}

#if defined(__x86_64__)
#include <cpuid.h>

/** The words of the CPU this runs on. */
static inline poise_cpu_words poise_cpu_read_words(void) {
    poise_cpu_words words = {0, 0, 0, 0};
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d)) words.leaf1_ecx = c;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) words.leaf7_ebx = b;
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d)) words.ext1_ecx = c;
    if (words.leaf1_ecx >> 27 & 1) {
        uint32_t low, high;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        words.xcr0 = (uint64_t)high << 32 | low;
    }
    return words;
}
#endif

/**
 * For a build for x86-64-v3: when this CPU lacks a feature of that level, prints what `program`
 * needs and how to get a build for the CPU to standard error, and exits with status 1.
 * Does nothing on a CPU that has them, and on other architectures.
 */
static inline void poise_cpu_require_v3(const char *program) {
#if defined(__x86_64__)
    char missing[160];
    if (poise_cpu_missing_v3(poise_cpu_read_words(), missing, sizeof missing) == 0) return;
    fprintf(stderr,
            "%s: this build needs an x86-64-v3 CPU (AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE: Intel "
            "Haswell of 2013, AMD Excavator of 2015 and later); this CPU lacks: %s.\n"
            "%s: build Poise from source for this CPU: make build c-library POISE_TARGET_CPU= "
            "(docs/embedding.md, \"Other platforms\").\n",
            program, missing, program);
    exit(1);
#else
    (void)program;
#endif
}

#endif
