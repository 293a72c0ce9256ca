#!/usr/bin/env python3
"""Golden output of the VQF reference implementation (pip package `vqf`, MIT, by D. Laidig)
for Poise's DeviceMotionEstimator peer test.

The input is a closed-form synthetic 9-axis stream, recomputed identically by the Swift test
(Tests/PoiseTests/DeviceMotionPeerTests.swift), so only VQF's outputs are stored: every 10th
sample's 6D and 9D quaternions (w, x, y, z), bias (rad/s) and rest/disturbance flags.

Run: python3 Tests/Goldens/vqf_peer_fixture.py > Tests/PoiseTests/Fixtures/vqf_peer.csv
"""
import numpy as np
import vqf

RATE = 100.0
N = 6000          # 60 s
G = 9.80665       # Poise's core uses g; VQF takes m/s²


def synthetic(i):
    """Sample i: gyro (rad/s), acc (g), mag (µT). Same formulas in the Swift test."""
    t = i / RATE
    bias = np.array([0.010, -0.005, 0.008])
    if t < 8.0:        # still: bias plus a tiny wobble -> rest detection and rest bias estimation
        gyr = bias + 0.001 * np.array([np.sin(13 * t), np.cos(11 * t), np.sin(7 * t)])
        acc = np.array([0.02, -0.01, 1.0]) + 0.001 * np.array([np.sin(17 * t), np.cos(19 * t), np.sin(23 * t)])
    else:              # turning about the vertical device z axis, with a small wobble
        gyr = bias + np.array([0.05 * np.sin(0.7 * t), 0.05 * np.cos(1.1 * t), 0.6 + 0.3 * np.sin(0.3 * t)])
        acc = np.array([0.02 + 0.1 * np.sin(0.5 * t), -0.01 + 0.1 * np.cos(0.4 * t), 1.0 + 0.05 * np.sin(2.0 * t)])
    # heading angle of the z rotation (closed form of the integral of 0.6 + 0.3 sin(0.3 t) from 8 s)
    theta = 0.0 if t < 8.0 else 0.6 * (t - 8.0) + np.cos(2.4) - np.cos(0.3 * t)
    mag = np.array([20 * np.sin(theta), 20 * np.cos(theta), -40.0])
    if 30.0 <= t < 34.0:   # magnetic disturbance: the field grows by 60 %
        mag = 1.6 * mag
    return gyr, acc, mag


def main():
    gyr = np.zeros((N, 3)); acc = np.zeros((N, 3)); mag = np.zeros((N, 3))
    for i in range(N):
        gyr[i], acc[i], mag[i] = synthetic(i)
    f = vqf.VQF(1.0 / RATE)
    out = f.updateBatch(np.ascontiguousarray(gyr), np.ascontiguousarray(acc * G), np.ascontiguousarray(mag))
    from importlib.metadata import version
    print("# vqf %s, VQF(gyrTs=0.01) defaults; input from Tests/Goldens/vqf_peer_fixture.py synthetic()" % version("vqf"))
    print("i,q6_w,q6_x,q6_y,q6_z,q9_w,q9_x,q9_y,q9_z,bias_x,bias_y,bias_z,rest,mag_dist")
    for i in range(9, N, 10):
        row = [i] + list(out['quat6D'][i]) + list(out['quat9D'][i]) + list(out['bias'][i])
        row += [int(out['restDetected'][i]), int(out['magDistDetected'][i])]
        print(",".join(str(v) if isinstance(v, int) else "%.12g" % v for v in row))


if __name__ == "__main__":
    main()
