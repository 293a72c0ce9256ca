#include "CReference.h"
#include <fftw3.h>
#include <math.h>
#include <string.h>

size_t cref_welch_hann(const double *signal, size_t samples, size_t segment_length, double sample_rate, double *psd) {
    const size_t n = segment_length, bins = n / 2 + 1, step = n - n / 2;
    if (samples < n) return 0;
    const size_t segments = (samples - n) / step + 1;
    double *window = fftw_alloc_real(n), *in = fftw_alloc_real(n);
    fftw_complex *out = fftw_alloc_complex(bins);
    fftw_plan plan = fftw_plan_dft_r2c_1d((int)n, in, out, FFTW_ESTIMATE);
    double square_sum = 0;
    for (size_t i = 0; i < n; i++) {
        window[i] = 0.5 - 0.5 * cos(2 * M_PI * (double)i / (double)n);
        square_sum += window[i] * window[i];
    }
    memset(psd, 0, bins * sizeof(double));
    for (size_t s = 0; s < segments; s++) {
        const double *x = signal + s * step;
        double sum = 0;
        for (size_t i = 0; i < n; i++) sum += x[i];
        const double mean = sum / (double)n;
        for (size_t i = 0; i < n; i++) in[i] = (x[i] - mean) * window[i];
        fftw_execute(plan);
        for (size_t k = 0; k < bins; k++) psd[k] += out[k][0] * out[k][0] + out[k][1] * out[k][1];
    }
    const double scale = 1.0 / (sample_rate * square_sum * (double)segments);
    for (size_t k = 0; k < bins; k++) {
        const int twin = k > 0 && !(n % 2 == 0 && k == bins - 1);
        psd[k] *= scale * (twin ? 2 : 1);
    }
    fftw_destroy_plan(plan);
    fftw_free(window); fftw_free(in); fftw_free(out);
    return segments;
}
