#!/usr/bin/env python3
"""Generates the golden scipy outputs PoiseSpectral is tested against.

Run once from the repo root:  python3 Tests/Goldens/spectral_golden.py
Writes Tests/PoiseSpectralTests/Fixtures/spectral_golden.json (a few tens of KB).
Everything comes from numpy/scipy (independent of Poise); floats are written with repr, which
round-trips exactly.
"""
import json
import pathlib

import numpy as np
import scipy
import scipy.signal as sig

rng = np.random.default_rng(20261121)
fs = 100.0
n = 600
t = np.arange(n) / fs
# A sine between bins, a slow trend (so the detrend choices differ), an offset and noise.
x = 0.8 * np.sin(2 * np.pi * 12.3 * t) + 0.05 * t * fs / 10 + 1.5 + 0.2 * rng.standard_normal(n)

windows = {"rectangular": "boxcar", "hann": "hann", "hamming": "hamming",
           "blackman": "blackman", "flattop": "flattop"}
welch = []
for wname, sname in windows.items():
    for detrend in ["none", "constant", "linear"]:
        for scaling in ["density", "spectrum"]:
            f, p = sig.welch(x, fs=fs, window=sname, nperseg=64, detrend=False if detrend == "none" else detrend,
                             scaling=scaling)
            welch.append(dict(window=wname, detrend=detrend, scaling=scaling, segmentLength=64,
                              overlap=None, fftLength=None, frequencies=f.tolist(), values=p.tolist()))
# Odd segment/FFT lengths, explicit overlap and zero-padding to a longer FFT.
for nperseg, noverlap, nfft in [(45, 20, None), (50, 10, 81), (64, 0, 128)]:
    f, p = sig.welch(x, fs=fs, window="hann", nperseg=nperseg, noverlap=noverlap, nfft=nfft)
    welch.append(dict(window="hann", detrend="constant", scaling="density", segmentLength=nperseg,
                      overlap=noverlap, fftLength=nfft, frequencies=f.tolist(), values=p.tolist()))

rfft = []
for length in [1, 2, 7, 16, 97]:
    X = np.fft.rfft(x[:length])
    rfft.append(dict(count=length, real=X.real.tolist(), imaginary=X.imag.tolist()))

f, tt, sxx = sig.spectrogram(x, fs=fs, nperseg=64)  # scipy defaults: tukey(0.25), noverlap 8
spectrogram = dict(segmentLength=64, frequencies=f.tolist(), times=tt.tolist(), power=sxx.T.tolist())

# Frequency response of IIR filters (transfer function and second-order sections).
response_hz = np.linspace(0, fs / 2, 41)[:-1].tolist() + [4.9, 5.0, 5.1]
b, a = sig.butter(2, 5.0, fs=fs)
_, h = sig.freqz(b, a, worN=response_hz, fs=fs)
_, gd = sig.group_delay((b, a), w=response_hz, fs=fs)
sos = sig.butter(4, 10.0, fs=fs, output="sos")
_, hs = sig.sosfreqz(sos, worN=response_hz, fs=fs)
# Group delay of the cascade = sum of the sections' group delays.
gds = sum(sig.group_delay((s[:3], s[3:]), w=response_hz, fs=fs)[1] for s in sos)
response = dict(frequencies=response_hz,
                butterworth2=dict(b=b.tolist(), a=a.tolist(), cutoff=5.0,
                                  real=h.real.tolist(), imaginary=h.imag.tolist(), groupDelay=gd.tolist()),
                butterworth4sos=dict(sos=sos.tolist(), cutoff=10.0,
                                     real=hs.real.tolist(), imaginary=hs.imag.tolist(), groupDelay=gds.tolist()))

out = dict(generator=f"Tests/Goldens/spectral_golden.py, scipy {scipy.__version__}, numpy {np.__version__}",
           sampleRate=fs, signal=x.tolist(), welch=welch, rfft=rfft, spectrogram=spectrogram, response=response)
path = pathlib.Path(__file__).resolve().parents[2] / "Tests/PoiseSpectralTests/Fixtures/spectral_golden.json"
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text(json.dumps(out))
print(f"wrote {path} ({path.stat().st_size // 1024} KB)")

# The vibration peak of the BROAD trial 27 (phone vibrating), from scipy, for the `spectrum`
# command's done-criterion test. Only when ../shared is present (data is never copied here).
broad = pathlib.Path(__file__).resolve().parents[2] / "../shared/data/broad/27_disturbed_phone_vibration_B.csv"
if broad.exists():
    d = np.genfromtxt(broad, delimiter=",", names=True)
    rate = 1 / np.median(np.diff(d["t_s"]))
    peaks = {}
    for column in ["acc_x", "acc_y", "acc_z"]:
        x = d[column + "_mps2"] / 9.80665  # Poise's unit: g
        f, p = sig.welch(x, fs=rate, nperseg=1024)
        local = [k for k in range(1, len(p) - 1) if p[k] > p[k - 1] and p[k] >= p[k + 1]]
        vibration = max((k for k in local if f[k] > 20), key=lambda k: p[k])
        peaks[column] = dict(frequency=float(f[vibration]), psd=float(p[vibration]),
                             largestPeakFrequency=float(f[max(local, key=lambda k: p[k])]))
    target = path.parent.parent.parent / "PoiseCLITests/Fixtures/broad27_vibration.json"
    target.write_text(json.dumps(dict(generator=out["generator"], sampleRate=rate, nperseg=1024, peaks=peaks), indent=1))
    print(f"wrote {target}")
