#include "CReference.h"
#include <math.h>

void cref_onepole3f(const float *input, float *output, size_t samples, float a, float state[3]) {
    float y0 = state[0], y1 = state[1], y2 = state[2];
    const float b = 1.0f - a;
    for (size_t i = 0; i < samples; i++) {
        y0 = fmaf(b, y0, a * input[3 * i + 0]);
        y1 = fmaf(b, y1, a * input[3 * i + 1]);
        y2 = fmaf(b, y2, a * input[3 * i + 2]);
        output[3 * i + 0] = y0;
        output[3 * i + 1] = y1;
        output[3 * i + 2] = y2;
    }
    state[0] = y0; state[1] = y1; state[2] = y2;
}
