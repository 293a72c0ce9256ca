/*
 * Cost of the C API per sample against the Swift loop behind it, on the same samples in the
 * same run (Benchmarks/peers/embedding.sh builds and runs this).
 *
 * Input: a raw file of N rows of 10 doubles (t, acc xyz g, gyr xyz rad/s, mag xyz µT), written
 * by embedding.py. Measured, best of 5 repetitions, ns per sample:
 *   fusion 9D, poise_fusion_update per sample (out NULL)        — one C call per sample
 *   fusion 9D, poise_fusion_update_buffer (outputs NULL)        — one C call, Swift loop inside,
 *     on the calling thread only (the default)
 *   the same on two threads (poise_fusion_set_threads(f, 2): buffers of 32768 samples or more)
 *   fusion 9D, poise_fusion_update per sample into poise_motion — with the output struct
 *   fusion 9D, poise_fusion_update_buffer with the quaternion / with all seven output arrays
 *     (arrays touched beforehand, as reused outputs would be), on two threads
 *   one-pole 3-axis, poise_filter_process per sample / buffer in place / from the samples
 *     into another buffer (poise_filter_process_into)
 * The one-thread buffer call runs DeviceMotionEstimator.update in a Swift loop in the library,
 * so per-sample ÷ that buffer is the price of crossing the C boundary once per sample.
 */
#define _POSIX_C_SOURCE 200112L
#include <poise.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static poise_fusion *fresh_fusion(void) {
    poise_fusion_config config;
    poise_fusion_config_default(&config, 100.0, NULL);
    return poise_fusion_create(&config, NULL);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: capi_bench SAMPLES.f64\n"); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    fseek(file, 0, SEEK_END);
    size_t n = (size_t)ftell(file) / (10 * sizeof(double));
    fseek(file, 0, SEEK_SET);
    double *rows = malloc(n * 10 * sizeof(double));
    if (!rows || fread(rows, 10 * sizeof(double), n, file) != n) { fprintf(stderr, "read failed\n"); return 1; }
    fclose(file);
    double *t = malloc(n * sizeof(double)), *acc = malloc(3 * n * sizeof(double));
    double *gyr = malloc(3 * n * sizeof(double)), *mag = malloc(3 * n * sizeof(double));
    double *work = malloc(3 * n * sizeof(double));
    double *out = malloc(3 * n * sizeof(double));
    /* Output arrays for the buffer call: quaternion, gravity, user acceleration, rate, bias, heading, flags. */
    /* Touched once here (memset), as reused output arrays would be: no page faults are timed. */
    double *oq = malloc(4 * n * sizeof(double)), *og = malloc(3 * n * sizeof(double)), *ou = malloc(3 * n * sizeof(double));
    double *orr = malloc(3 * n * sizeof(double)), *ob = malloc(3 * n * sizeof(double)), *oh = malloc(n * sizeof(double));
    uint32_t *of = malloc(n * sizeof(uint32_t));
    memset(oq, 0, 4 * n * sizeof(double)); memset(og, 0, 3 * n * sizeof(double)); memset(ou, 0, 3 * n * sizeof(double));
    memset(orr, 0, 3 * n * sizeof(double)); memset(ob, 0, 3 * n * sizeof(double)); memset(oh, 0, n * sizeof(double));
    memset(of, 0, n * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) {
        t[i] = rows[10 * i];
        memcpy(acc + 3 * i, rows + 10 * i + 1, 3 * sizeof(double));
        memcpy(gyr + 3 * i, rows + 10 * i + 4, 3 * sizeof(double));
        memcpy(mag + 3 * i, rows + 10 * i + 7, 3 * sizeof(double));
    }
    double best[9] = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 1e30};
    double checksum = 0;
    for (int repetition = 0; repetition < 5; repetition++) {
        poise_fusion *f = fresh_fusion();
        double start = now();
        for (size_t i = 0; i < n; i++) poise_fusion_update(f, t[i], acc + 3 * i, gyr + 3 * i, mag + 3 * i, NULL, NULL);
        double elapsed = now() - start;
        if (elapsed < best[0]) best[0] = elapsed;
        poise_motion m;
        poise_fusion_get_motion(f, &m, NULL);
        const double last = m.attitude[0];   /* every path must end here: checksum stays 0 */
        poise_fusion_destroy(f, NULL);

        for (int threads = 1; threads <= 2; threads++) {
            f = fresh_fusion();
            poise_fusion_set_threads(f, threads, NULL);
            start = now();
            poise_fusion_update_buffer(f, n, t, acc, gyr, mag, NULL, NULL);
            elapsed = now() - start;
            if (elapsed < best[threads == 1 ? 1 : 8]) best[threads == 1 ? 1 : 8] = elapsed;
            poise_fusion_get_motion(f, &m, NULL);
            checksum += m.attitude[0] != last;
            poise_fusion_destroy(f, NULL);
        }

        f = fresh_fusion();
        start = now();
        for (size_t i = 0; i < n; i++) poise_fusion_update(f, t[i], acc + 3 * i, gyr + 3 * i, mag + 3 * i, &m, NULL);
        elapsed = now() - start;
        if (elapsed < best[2]) best[2] = elapsed;
        poise_fusion_destroy(f, NULL);

        for (int all = 0; all < 2; all++) {
            poise_fusion_outputs o;
            memset(&o, 0, sizeof o);
            o.attitude = oq;
            if (all) { o.gravity = og; o.user_acceleration = ou; o.rotation_rate = orr; o.bias = ob; o.heading = oh; o.flags = of; }
            f = fresh_fusion();
            poise_fusion_set_threads(f, 2, NULL);
            start = now();
            poise_fusion_update_buffer(f, n, t, acc, gyr, mag, &o, NULL);
            elapsed = now() - start;
            if (elapsed < best[6 + all]) best[6 + all] = elapsed;
            poise_fusion_destroy(f, NULL);
            checksum += oq[4 * (n - 1)] != m.attitude[0];   /* the last row equals the per-sample call's */
        }

        poise_filter *filter = poise_filter_create("lowpass:cutoff=5", 100.0, NULL);
        memcpy(work, acc, 3 * n * sizeof(double));
        start = now();
        for (size_t i = 0; i < n; i++) poise_filter_process(filter, work + 3 * i, NULL);
        elapsed = now() - start;
        if (elapsed < best[3]) best[3] = elapsed;
        poise_filter_reset(filter, NULL);
        memcpy(work, acc, 3 * n * sizeof(double));
        start = now();
        poise_filter_process_buffer(filter, work, n, NULL);
        elapsed = now() - start;
        if (elapsed < best[4]) best[4] = elapsed;
        poise_filter_reset(filter, NULL);
        memcpy(work, acc, 3 * n * sizeof(double));
        memset(out, 0, 3 * n * sizeof(double));   /* pages touched, as a reused output would be */
        start = now();
        poise_filter_process_into(filter, work, out, n, NULL);
        elapsed = now() - start;
        if (elapsed < best[5]) best[5] = elapsed;
        poise_filter_destroy(filter, NULL);
    }
    if (checksum != 0) { fprintf(stderr, "per-sample and buffer fusion disagree\n"); return 1; }
    const char *names[9] = {"fusion 9D, poise_fusion_update per sample", "fusion 9D, poise_fusion_update_buffer (Swift loop)",
                            "fusion 9D, poise_fusion_update per sample with poise_motion out",
                            "one-pole 3-axis, poise_filter_process per sample", "one-pole 3-axis, poise_filter_process_buffer",
                            "one-pole 3-axis, poise_filter_process_into",
                            "fusion 9D, poise_fusion_update_buffer with the quaternion",
                            "fusion 9D, poise_fusion_update_buffer with all seven outputs",
                            "fusion 9D, poise_fusion_update_buffer on two threads"};
    for (int k = 0; k < 9; k++) printf("%s\t%.1f\n", names[k], best[k] / n * 1e9);
    printf("per-sample / buffer (fusion)\t%.3f\n", best[0] / best[1]);
    printf("per-sample / buffer (filter)\t%.3f\n", best[3] / best[4]);
    printf("samples\t%zu\n", n);
    return 0;
}
