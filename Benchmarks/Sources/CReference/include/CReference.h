#ifndef POISE_CREFERENCE_H
#define POISE_CREFERENCE_H
#include <stddef.h>

/// Plain-C one-pole low-pass over interleaved 3-axis float samples (x,y,z per sample):
/// y = fmaf(1 - a, y, a * x). The sequential limit: one FMA latency per step.
void cref_onepole3f(const float *input, float *output, size_t samples, float a, float state[3]);

/// Plain-C Welch PSD (the loop a C programmer would write on FFTW): periodic Hann window,
/// constant detrend, half-overlap, one-sided density scaling, FFTW_ESTIMATE plan made per call.
/// `psd` receives segment_length / 2 + 1 values. Returns the number of segments.
size_t cref_welch_hann(const double *signal, size_t samples, size_t segment_length, double sample_rate, double *psd);

/// Plain-C fixed frame rotation of n interleaved 13-double records
/// (acc xyz, gyr xyz, mag xyz, attitude quaternion w x y z): vectors v ← R·v, attitude
/// q ← q ⊗ conj(r). R is row-major 3×3, r = (w, x, y, z) its quaternion.
void cref_remap13d(const double *input, double *output, size_t records, const double R[9], const double r[4]);

#endif
