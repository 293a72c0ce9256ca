#!/usr/bin/env python3
"""The Python package against Python peers, on the same arrays in the same run (run through
Benchmarks/peers/embedding.sh). Prints tab-separated rows: what, seconds, ns per sample, and
the peer ÷ Poise time ratio.

- poise.fuse (9D, defaults, one C call) vs vqf.VQF.updateBatch (C++ batch) on N samples, with
  all of Poise's outputs and with the ones vqf returns (quaternion, bias, rest and magnetic
  disturbance flags);
  also poise.fuse with preset="vqf" (VQF's schedule: corrections on every sample);
- imufusion (x-io Fusion's Python binding) called once per sample from Python, on N/10
  samples (per-sample cost is what is compared);
- poise.Filter("lowpass:cutoff=5").process vs scipy.signal.lfilter with the same one-pole
  coefficients on N x 3 (best of 15 each: short calls whose time moves with the first touch of
  their fresh output).
Also writes the samples as raw float64 rows for capi_bench.c when --raw is given.
"""
import argparse
import os
import time

import numpy as np

import poise

G = 9.80665
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def samples(n):
    """data/phone-tilt-steer-100hz.csv repeated to n rows with continuous 100 Hz time."""
    a = np.loadtxt(os.path.join(ROOT, "data", "phone-tilt-steer-100hz.csv"), delimiter=",", skiprows=1, usecols=range(10))
    reps = -(-n // len(a))
    rows = np.tile(a, (reps, 1))[:n].copy()
    rows[:, 0] = np.arange(n) / 100.0
    return rows


def best(function, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--raw", help="also write the samples here as raw float64 rows")
    args = parser.parse_args()
    n = args.samples
    rows = samples(n)
    if args.raw:
        rows.tofile(args.raw)
    t = np.ascontiguousarray(rows[:, 0])
    acc, gyr, mag = (np.ascontiguousarray(rows[:, k:k + 3]) for k in (1, 4, 7))
    out = []

    # Best of 5 for the fusion rows and vqf alike: on this shared VM one call in a few runs
    # slow (another task on the second core, or a slow first touch of the fresh outputs).
    fuse = best(lambda: poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t, threads=2), repeat=5)
    out.append(("poise.fuse 9D (defaults)", fuse, n, None))
    fuse_few = best(lambda: poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t, outputs=("quaternion", "bias", "flags"), threads=2), repeat=5)
    out.append(("poise.fuse 9D (defaults; quaternion, bias, flags: what vqf returns)", fuse_few, n, None))
    fuse_vqf = best(lambda: poise.fuse(acc=acc, gyr=gyr, mag=mag, rate=100.0, times=t, preset="vqf", threads=2), repeat=5)
    out.append(("poise.fuse 9D (preset vqf: every-sample corrections)", fuse_vqf, n, None))
    try:
        import vqf
        acc_ms2 = np.ascontiguousarray(acc * G)
        peer = best(lambda: vqf.VQF(0.01).updateBatch(gyr, acc_ms2, mag), repeat=5)
        out.append(("vqf.VQF.updateBatch 9D", peer, n, peer / fuse))
        out.append(("vqf.VQF.updateBatch 9D ÷ poise.fuse with vqf's outputs", peer, n, peer / fuse_few))
    except ImportError:
        out.append(("vqf.VQF.updateBatch 9D", None, n, None))
    try:
        import imufusion
        m = n // 10
        gyr_deg = np.degrees(gyr[:m])

        def run_imufusion():
            # x-io's recommended settings, as in peers.py, and reading the quaternion each sample.
            settings = imufusion.AhrsSettings(sample_rate=100, gain=0.5, gyroscope_range=2000,
                                              acceleration_rejection=10, magnetic_rejection=10, rejection_timeout=5)
            ahrs = imufusion.Ahrs().set_settings(settings)
            quaternions = np.empty((m, 4))
            for i in range(m):
                ahrs.update(gyr_deg[i], acc[i], mag[i])
                quaternions[i] = ahrs.get_quaternion()
        peer = best(run_imufusion, repeat=1)
        out.append(("imufusion.Ahrs.update per sample 9D", peer, m, (peer / m) / (fuse / n)))
    except ImportError:
        out.append(("imufusion.Ahrs.update per sample 9D", None, n // 10, None))

    # Best of 15 on both sides: a call takes 2-15 ms, and how long the first touch of its
    # fresh output takes (most of Poise's time) varies from call to call.
    filt = best(lambda: poise.Filter("lowpass:cutoff=5", 100.0).process(acc), repeat=15)
    out.append(("poise.Filter('lowpass:cutoff=5').process N x 3", filt, n, None))
    try:
        from scipy.signal import lfilter
        alpha = poise.Filter("lowpass:cutoff=5", 100.0)
        # The same one-pole: alpha from the filter's step response (y1 - y0 for a unit step from 0).
        probe = alpha.process(np.array([[0.0, 0, 0], [1.0, 1, 1]]))
        a = probe[1, 0]
        peer = best(lambda: lfilter([a], [1.0, -(1.0 - a)], acc, axis=0), repeat=15)
        out.append(("scipy.signal.lfilter one-pole N x 3", peer, n, peer / filt))
    except ImportError:
        out.append(("scipy.signal.lfilter one-pole N x 3", None, n, None))

    for name, seconds, count, ratio in out:
        if seconds is None:
            print(f"{name}\tnot installed\t\t")
        else:
            print(f"{name}\t{seconds:.3f}\t{seconds / count * 1e9:.1f}\t" + ("" if ratio is None else f"{ratio:.2f}"))


if __name__ == "__main__":
    main()
