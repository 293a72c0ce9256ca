#ifndef POISE_CREFERENCE_H
#define POISE_CREFERENCE_H
#include <stddef.h>

/// Plain-C one-pole low-pass over interleaved 3-axis float samples (x,y,z per sample):
/// y = fmaf(1 - a, y, a * x). The sequential limit: one FMA latency per step.
void cref_onepole3f(const float *input, float *output, size_t samples, float a, float state[3]);

#endif
