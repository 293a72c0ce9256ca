// Times x-io Fusion's 9D AHRS update (FusionAhrsUpdate, float) on the peers input; with a 4th
// argument "bias", each update is preceded by x-io's gyroscope offset filter (FusionBiasUpdate,
// rest-only: a threshold and a timer), the closest x-io has to Poise's bias estimation.
// Built by run.sh against the Fusion C sources from the imufusion sdist (never committed):
//   cc -O3 -march=native fusion_bench.c Fusion/*.c -IFusion -lm
// Input: a raw little-endian float32 file of N rows × 9 (gyroscope °/s xyz, accelerometer g
// xyz, magnetometer µT xyz). Output: "ns_per_update <median over runs>" and the final
// quaternion (so the work cannot be optimised away).
#include "Fusion.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s input.f32 sample_rate_hz [runs] [bias]\n", argv[0]); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    fseek(file, 0, SEEK_END);
    long bytes = ftell(file);
    fseek(file, 0, SEEK_SET);
    size_t rows = (size_t)bytes / (9 * sizeof(float));
    float *data = malloc(rows * 9 * sizeof(float));
    if (!data || fread(data, sizeof(float), rows * 9, file) != rows * 9) { fprintf(stderr, "short read\n"); return 1; }
    fclose(file);
    float rate = (float)atof(argv[2]);
    int runs = argc > 3 ? atoi(argv[3]) : 7;
    int withBias = argc > 4 && strcmp(argv[4], "bias") == 0;
    double times[64];
    if (runs < 1 || runs > 64) runs = 7;
    FusionQuaternion q = {.element = {1.0f, 0.0f, 0.0f, 0.0f}};
    for (int run = 0; run < runs; run++) {
        FusionAhrs ahrs;
        FusionAhrsInitialise(&ahrs);
        FusionAhrsSettings settings = fusionAhrsDefaultSettings;
        settings.sampleRate = rate;
        FusionAhrsSetSettings(&ahrs, &settings);
        FusionBias bias;
        FusionBiasInitialise(&bias);
        FusionBiasSettings biasSettings = fusionBiasDefaultSettings;
        biasSettings.sampleRate = rate;
        FusionBiasSetSettings(&bias, &biasSettings);
        double start = now_ns();
        for (size_t i = 0; i < rows; i++) {
            const float *r = data + 9 * i;
            FusionVector g = {.axis = {r[0], r[1], r[2]}};
            if (withBias) g = FusionBiasUpdate(&bias, g);
            FusionVector a = {.axis = {r[3], r[4], r[5]}};
            FusionVector m = {.axis = {r[6], r[7], r[8]}};
            FusionAhrsUpdate(&ahrs, g, a, m);
        }
        times[run] = (now_ns() - start) / (double)rows;
        q = FusionAhrsGetQuaternion(&ahrs);
    }
    qsort(times, (size_t)runs, sizeof(double), compare);
    printf("ns_per_update %.3f\nquaternion %f %f %f %f\n", times[runs / 2], q.element.w, q.element.x, q.element.y, q.element.z);
    free(data);
    return 0;
}
