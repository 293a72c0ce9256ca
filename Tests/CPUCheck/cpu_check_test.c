/* The x86-64-v3 check of Sources/CPoiseCPU/cpu_check.h on CPUID words of known CPUs (bits from
 * the Intel SDM vol. 2A, CPUID leaves 1, 7 and 0x80000001). Run by scripts/test_install.sh. */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "../../Sources/CPoiseCPU/cpu_check.h"

static void expect(poise_cpu_words words, int count, const char *names) {
    char missing[160];
    int found = poise_cpu_missing_v3(words, missing, sizeof missing);
    if (found != count || strcmp(missing, names) != 0) {
        fprintf(stderr, "expected %d \"%s\", got %d \"%s\"\n", count, names, found, missing);
        assert(0);
    }
}

int main(void) {
    /* Every v3 feature: SSE3 0, SSSE3 9, FMA 12, CX16 13, SSE4.1 19, SSE4.2 20, MOVBE 22,
     * POPCNT 23, OSXSAVE 27, AVX 28, F16C 29; BMI1 3, AVX2 5, BMI2 8; LAHF 0, LZCNT 5. */
    uint32_t leaf1 = 1u << 0 | 1u << 9 | 1u << 12 | 1u << 13 | 1u << 19 | 1u << 20 | 1u << 22
                   | 1u << 23 | 1u << 27 | 1u << 28 | 1u << 29;
    uint32_t leaf7 = 1u << 3 | 1u << 5 | 1u << 8;
    uint32_t ext1 = 1u << 0 | 1u << 5;
    poise_cpu_words haswell = {leaf1, leaf7, ext1, 7};
    expect(haswell, 0, "");
    /* Sandy Bridge: AVX but no FMA, F16C, MOVBE, BMI, AVX2, LZCNT. */
    poise_cpu_words sandy = {leaf1 & ~(1u << 12 | 1u << 22 | 1u << 29), 0, ext1 & ~(1u << 5), 7};
    expect(sandy, 7, "fma movbe f16c bmi1 avx2 bmi2 lzcnt");
    /* A v3 CPU whose OS does not save the AVX registers. */
    poise_cpu_words noAVXState = {leaf1, leaf7, ext1, 3};
    expect(noAVXState, 1, "os-avx-state");
    /* Plain x86-64 (SSE2 only): the list is cut to the buffer, the count is not. */
    poise_cpu_words baseline = {0, 0, 0, 0};
    char small[12];
    assert(poise_cpu_missing_v3(baseline, small, sizeof small) == 17);
    assert(strcmp(small, "sse3 ssse3") == 0);
#if defined(__x86_64__)
    /* The machine running the tests has the words it reports. */
    char missing[160];
    int count = poise_cpu_missing_v3(poise_cpu_read_words(), missing, sizeof missing);
    printf("this CPU: %s\n", count == 0 ? "x86-64-v3" : missing);
#endif
    puts("cpu_check: ok");
    return 0;
}
