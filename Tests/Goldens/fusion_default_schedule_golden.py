#!/usr/bin/env python3
"""Golden output of Poise's accumulated fusion schedules (the defaults, corrections at 10 Hz, and
the `fast` preset, 5 Hz), computed independently of Poise, for
Tests/PoiseTests/DeviceMotionDefaultScheduleTests.swift.

What it computes: VQF (D. Laidig, T. Seel, Information Fusion 91, 2023) with the parameters of
Poise's `DeviceMotionConfiguration()` and its accumulated correction schedule as docs/fusion.md
("Two rates") describes it, written here from that description on top of the reference
implementation's own building blocks: the `vqf` package's pure-Python `PyVQF` (MIT, D. Laidig;
`pip install vqf`) supplies the filter design (`filterCoeffs`), the averaging-initialised
second-order low-pass (`filterVec`), the first-order gain (`gainFromTau`) and the quaternion
product and rotation. PyVQF itself cannot run this schedule (its `accTs`/`magTs` rates
subsample the inputs; they do not average them in the gyroscope earth frame), so the loop below
is the schedule:

- every sample (dt = the sample period): rest test of the gyroscope and accelerometer sample
  against the rest low-pass outputs of the last correction step (and the gyroscope one within
  the bias clip); the rest timer; strapdown integration of gyro − bias (exact quaternion
  exponential; renormalised only at correction steps); the specific force and the magnetic
  field rotated into the gyroscope earth frame by the attitude after this sample's step, summed;
- every N = floor(rate / correction rate) samples, and at the first sample (the correction step, period
  Tc = N / rate): renormalise the gyroscope quaternion; the rest low-passes and the 3-s
  inclination low-pass run once on the block means (coefficients for Tc); inclination
  correction; the bias Kalman filter with V and W for Tc (the in-motion measurement is the
  block's correction divided by Tc; the first, aligning correction is not a measurement); the
  magnetometer update on the block's mean field brought into the 6D earth frame, with gains
  1 − exp(−T/τ) and timers advanced by the block's time T;
- the magnetometer offset (docs/fusion.md, Algorithm step 5): at each correction step
  whose block had a magnetometer sample, the block's last raw sample joins a sphere fit whose
  sums decay by exp(−Tc/5 s) per step; the fit (least squares |m|² = 2h·m + c, solved here with
  numpy from the 4×4 normal equations; coverage from numpy's eigenvalues) is subtracted from
  the following samples when its coverage ≥ 0.2, relative residual ≤ 0.02, radius within
  10 % of the accepted reference norm (or no reference yet) and |h| ≥ 10 % of the radius or
  relative residual < 0.01, else nothing is;
- the field-direction test (docs/fusion.md, Algorithm step 6): at each magnetometer update
  the heading disagreement's low-pass (gain 1 − exp(−Tc/2 s), on the wrapped difference) moves
  towards it; when the disagreement differs from the low-pass (before the move) by more than
  4°, the heading gain is multiplied by 0.25 (after the initial convergence only; before the
  disturbance rules);
- the output prediction (docs/fusion.md, Algorithm step 7): the outputs are carried 2.5 ms
  ahead with the last sample's gyroscope less the bias, q ⊗ (cos(|w|τ/2), sin(|w|τ/2)·w/|w|).

Outputs: q6 = inclination ⊗ gyroscope quaternion ⊗ prediction step; q9 = Rz(heading) ⊗ q6
(both device → ENU, w x y z) and the bias (rad/s), after every STEP-th sample of the first seconds of each trial (TRIALS).
Inputs: the BROAD trials in ../shared/data/broad (CC BY 4.0: D. Laidig, M. Caruso, A. Cereatti,
T. Seel, "BROAD — A Benchmark for Robust Inertial Orientation Estimation", Data 6(7), 2021,
doi:10.3390/data6070072; github.com/dlaidig/broad); accelerometer divided by 9.80665 into g as
Poise's tests read it, gyroscope rad/s, magnetometer µT; sample rate 1 / 0.0035 s (every BROAD
time step is within 0.1 % of it, so Poise integrates each with that period).

Run (about a minute each): python3 -m venv .build/venv && .build/venv/bin/pip install vqf numpy
  .build/venv/bin/python Tests/Goldens/fusion_default_schedule_golden.py 10 > Tests/PoiseTests/Fixtures/fusion_default_schedule_broad.csv
  .build/venv/bin/python Tests/Goldens/fusion_default_schedule_golden.py 5 > Tests/PoiseTests/Fixtures/fusion_fast_schedule_broad.csv
(the argument is the correction rate in Hz: 10 for the defaults, 5 for the fast preset; the
other parameters are the same in both).
"""
import sys
import math
import os
from importlib.metadata import version

import numpy as np
from vqf import PyVQF

# Trial and seconds from its start (34: until after its attached magnet is removed at 100 s).
TRIALS = [("05_undisturbed_slow_rotation_with_breaks_B", 80.0), ("09_undisturbed_fast_rotation_with_breaks_B", 80.0),
          ("16_undisturbed_fast_translation_B", 80.0), ("29_disturbed_stationary_magnet_B", 80.0),
          ("34_disturbed_attached_magnet_3cm", 110.0)]
STEP = 200
RATE = 1 / 0.0035
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "broad")

# Poise's defaults (DeviceMotionConfiguration()); angles in degrees as there. The correction
# rate is the command-line argument (10 Hz: the defaults; 5 Hz: DeviceMotionConfiguration.fast).
CORRECTION_RATE = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
TAU_ACC, TAU_MAG = 3.0, 9.0
BIAS_SIGMA_INIT, BIAS_FORGETTING_TIME, BIAS_CLIP = 0.5, 100.0, 2.0
BIAS_SIGMA_MOTION, BIAS_VERTICAL_FORGETTING, BIAS_SIGMA_REST = 0.1, 0.0001, 0.01
REST_MIN_T, REST_TAU, REST_TH_GYR, REST_TH_ACC = 1.0, 0.5, 2.0, 0.5 / 9.80665
MAG_CURRENT_TAU, MAG_REF_TAU, MAG_NORM_TH, MAG_DIP_TH = 0.05, 20.0, 0.1, 10.0
MAG_NEW_TIME, MAG_NEW_FIRST_TIME, MAG_NEW_MIN_GYR = 20.0, 5.0, 20.0
MAG_MIN_UNDISTURBED_TIME, MAG_MAX_REJECTION_TIME, MAG_REJECTION_FACTOR = 0.5, 60.0, 2.0
MAG_OFFSET_TAU, MAG_OFFSET_COVERAGE, MAG_OFFSET_RESIDUAL = 5.0, 0.2, 0.02
MAG_SMALL_OFFSET_RESIDUAL = 0.01
MAG_DIRECTION_TH, MAG_DIRECTION_TAU, MAG_DIRECTION_GAIN_FACTOR = 4.0, 2.0, 0.25
OUTPUT_PREDICTION = 0.0025


def wrap(angle):
    if angle > math.pi:
        return angle - 2 * math.pi
    if angle < -math.pi:
        return angle + 2 * math.pi
    return angle


def normalized(v):
    n = math.sqrt(float(v.dot(v)))
    return v / n if n != 0 else v


class DefaultSchedule:
    """VQF on Poise's default correction schedule (see the module docstring)."""

    def __init__(self, rate):
        self.ts = 1 / rate
        self.n = max(1, int(math.floor(rate / CORRECTION_RATE)))
        self.tc = self.n * self.ts
        tc = self.tc
        self.acc_b, self.acc_a = PyVQF.filterCoeffs(TAU_ACC, tc)
        self.rest_b, self.rest_a = PyVQF.filterCoeffs(REST_TAU, tc)
        self.mag_b, self.mag_a = PyVQF.filterCoeffs(MAG_CURRENT_TAU, tc)
        self.bias_p0 = (BIAS_SIGMA_INIT * 100) ** 2
        self.bias_v = (0.1 * 100) ** 2 * tc / BIAS_FORGETTING_TIME
        p_motion = (BIAS_SIGMA_MOTION * 100) ** 2
        self.bias_motion_w = p_motion ** 2 / self.bias_v + p_motion
        self.bias_vertical_w = self.bias_motion_w / max(BIAS_VERTICAL_FORGETTING, 1e-10)
        p_rest = (BIAS_SIGMA_REST * 100) ** 2
        self.bias_rest_w = p_rest ** 2 / self.bias_v + p_rest
        self.clip = BIAS_CLIP * math.pi / 180
        nan = lambda k: np.full((2, k), np.nan)
        self.gyr_quat = np.array([1.0, 0, 0, 0])
        self.acc_quat = np.array([1.0, 0, 0, 0])
        self.delta = 0.0
        self.bias = np.zeros(3)
        self.bias_p = self.bias_p0 * np.eye(3)
        self.rest_detected, self.rest_t = False, 0.0
        self.rest_gyr_lp, self.rest_acc_lp = np.zeros(3), np.zeros(3)
        self.rest_gyr_state, self.rest_acc_state, self.acc_state = nan(3), nan(3), nan(3)
        self.acc_lp = np.zeros(3)
        self.r_state, self.rb_state, self.mag_state = nan(9), nan(2), nan(2)
        self.aligned = False
        self.to_correction = 1
        self.gyr_sum, self.acc_sum, self.acc_earth_sum, self.mag_sum = (np.zeros(3) for _ in range(4))
        self.block, self.mag_count, self.mag_elapsed = 0, 0, 0.0
        self.mag_dist, self.k_mag_init = True, 1.0
        self.mag_ref_norm = self.mag_ref_dip = self.mag_undisturbed_t = 0.0
        self.mag_reject_t = MAG_MAX_REJECTION_TIME
        self.mag_cand_norm, self.mag_cand_dip, self.mag_cand_t = -1.0, 0.0, 0.0
        self.offset, self.offset_sample = np.zeros(3), None
        self.fit_w, self.fit_y, self.fit_yy = 0.0, 0.0, 0.0
        self.fit_m, self.fit_my, self.fit_mm = np.zeros(3), np.zeros(3), np.zeros((3, 3))
        self.direction_mean = 0.0

    def update(self, gyr, acc, mag):
        ts = self.ts
        self.last_gyr = gyr
        # Rest test of this sample against the last correction step's rest low-passes.
        self.gyr_sum += gyr
        d = gyr - self.rest_gyr_lp
        if d.dot(d) >= (REST_TH_GYR * math.pi / 180) ** 2 or np.max(np.abs(self.rest_gyr_lp)) > self.clip:
            self.rest_t, self.rest_detected = 0.0, False
        # Strapdown integration (VQF's prediction step, without its per-sample normalisation).
        w = gyr - self.bias
        norm = math.sqrt(float(w.dot(w)))
        if norm > np.finfo(float).eps:
            c, s = math.cos(norm * ts / 2), math.sin(norm * ts / 2) / norm
            self.gyr_quat = PyVQF.quatMultiply(self.gyr_quat, np.array([c, s * w[0], s * w[1], s * w[2]]))
        self.acc_sum += acc
        d = acc - self.rest_acc_lp
        if d.dot(d) >= REST_TH_ACC ** 2:
            self.rest_t, self.rest_detected = 0.0, False
        else:
            self.rest_t += ts
            if self.rest_t >= REST_MIN_T:
                self.rest_detected = True
        self.acc_earth_sum += PyVQF.quatRotate(self.gyr_quat, acc)
        self.block += 1
        if mag is not None and mag.dot(mag) != 0:
            self.offset_sample = mag
            self.mag_sum += PyVQF.quatRotate(self.gyr_quat, mag - self.offset)
            self.mag_count += 1
            self.mag_elapsed += ts
        self.to_correction -= 1
        if self.to_correction <= 0:
            self.correct()

    def correct(self):
        tc, count = self.tc, self.block
        self.to_correction = self.n
        self.gyr_quat = normalized(self.gyr_quat)
        # The low-passes run once on the block means.
        self.rest_gyr_lp = PyVQF.filterVec(self.gyr_sum / count, REST_TAU, tc, self.rest_b, self.rest_a, self.rest_gyr_state)
        self.rest_acc_lp = PyVQF.filterVec(self.acc_sum / count, REST_TAU, tc, self.rest_b, self.rest_a, self.rest_acc_state)
        self.acc_lp = PyVQF.filterVec(self.acc_earth_sum / count, TAU_ACC, tc, self.acc_b, self.acc_a, self.acc_state)
        self.gyr_sum, self.acc_sum, self.acc_earth_sum, self.block = np.zeros(3), np.zeros(3), np.zeros(3), 0
        # Inclination correction (VQF's updateAcc with accTs = Tc).
        acc_earth = normalized(PyVQF.quatRotate(self.acc_quat, self.acc_lp))
        q_w = math.sqrt((acc_earth[2] + 1) / 2)
        if q_w > 1e-6:
            corr = np.array([q_w, 0.5 * acc_earth[1] / q_w, -0.5 * acc_earth[0] / q_w, 0])
        else:
            corr = np.array([0.0, 1, 0, 0])
        self.acc_quat = normalized(PyVQF.quatMultiply(corr, self.acc_quat))
        self.estimate_bias(acc_earth, motion_measurement=self.aligned)
        self.aligned = True
        if self.mag_count > 0:
            mean = self.mag_sum / self.mag_count
            elapsed = self.mag_elapsed
            self.mag_sum, self.mag_count, self.mag_elapsed = np.zeros(3), 0, 0.0
            self.update_mag(PyVQF.quatRotate(self.acc_quat, mean), elapsed)
            self.estimate_offset()

    def estimate_offset(self):
        """The sphere fit of the magnetometer offset (module docstring)."""
        m = self.offset_sample
        y = float(m.dot(m))
        decay = math.exp(-self.tc / MAG_OFFSET_TAU)
        self.fit_w = self.fit_w * decay + 1
        self.fit_m = self.fit_m * decay + m
        self.fit_mm = self.fit_mm * decay + np.outer(m, m)
        self.fit_my = self.fit_my * decay + m * y
        self.fit_y = self.fit_y * decay + y
        self.fit_yy = self.fit_yy * decay + y * y
        self.offset = np.zeros(3)
        w = self.fit_w
        mean = self.fit_m / w
        smallest = np.linalg.eigvalsh(self.fit_mm / w - np.outer(mean, mean))[0]
        if not smallest > 0:
            return
        a = np.zeros((4, 4))
        a[:3, :3], a[:3, 3], a[3, :3], a[3, 3] = self.fit_mm, self.fit_m, self.fit_m, w
        b = np.append(self.fit_my, self.fit_y)
        try:
            theta = np.linalg.solve(a, b)
        except np.linalg.LinAlgError:   # readings at one point: no sphere (coverage 0)
            return
        h = theta[:3] / 2
        r2 = theta[3] + h.dot(h)
        if not r2 > 0:
            return
        misfit = self.fit_yy - 2 * theta.dot(b) + theta.dot(a @ theta)
        residual = math.sqrt(max(misfit / w, 0.0)) / (2 * r2)
        coverage = math.sqrt(smallest / r2)
        radius = math.sqrt(r2)
        reference = self.mag_ref_norm
        if (coverage >= MAG_OFFSET_COVERAGE and residual <= MAG_OFFSET_RESIDUAL
                and (reference == 0 or abs(radius - reference) <= MAG_NORM_TH * reference)
                and (math.sqrt(h.dot(h)) >= MAG_NORM_TH * radius or residual < MAG_SMALL_OFFSET_RESIDUAL)):
            self.offset = h

    def estimate_bias(self, acc_earth, motion_measurement):
        tc, bias = self.tc, self.bias
        q = PyVQF.quatMultiply(self.acc_quat, self.gyr_quat)
        R = np.array([
            1 - 2 * q[2] ** 2 - 2 * q[3] ** 2, 2 * (q[2] * q[1] - q[0] * q[3]), 2 * (q[0] * q[2] + q[3] * q[1]),
            2 * (q[0] * q[3] + q[2] * q[1]), 1 - 2 * q[1] ** 2 - 2 * q[3] ** 2, 2 * (q[2] * q[3] - q[1] * q[0]),
            2 * (q[3] * q[1] - q[0] * q[2]), 2 * (q[0] * q[1] + q[3] * q[2]), 1 - 2 * q[1] ** 2 - 2 * q[2] ** 2])
        bias_lp = np.array([R[0:3].dot(bias), R[3:6].dot(bias)])
        R = PyVQF.filterVec(R, TAU_ACC, tc, self.acc_b, self.acc_a, self.r_state)
        bias_lp = PyVQF.filterVec(bias_lp, TAU_ACC, tc, self.acc_b, self.acc_a, self.rb_state)
        for i in range(3):
            if self.bias_p[i, i] < self.bias_p0:
                self.bias_p[i, i] += self.bias_v
        if self.rest_detected:
            e = self.rest_gyr_lp - bias
            R = np.eye(3)
            w = np.full(3, self.bias_rest_w)
        elif motion_measurement:
            e = np.array([-acc_earth[1] / tc + bias_lp[0] - R[0:3].dot(bias),
                          acc_earth[0] / tc + bias_lp[1] - R[3:6].dot(bias),
                          -R[6:9].dot(bias)])
            R = R.reshape(3, 3)
            w = np.array([self.bias_motion_w, self.bias_motion_w, self.bias_vertical_w])
        else:
            return
        e = np.clip(e, -self.clip, self.clip)
        K = self.bias_p @ R.T @ np.linalg.inv(np.diag(w) + R @ self.bias_p @ R.T)
        self.bias = np.clip(bias + K @ e, -self.clip, self.clip)
        self.bias_p = self.bias_p - K @ R @ self.bias_p

    def update_mag(self, m, dt):
        """VQF's updateMag on the block's mean field in the 6D earth frame, over dt seconds."""
        k_ref = PyVQF.gainFromTau(MAG_REF_TAU, dt)
        norm = math.sqrt(float(m.dot(m)))
        nd = np.array([norm, -math.asin(max(-1.0, min(1.0, m[2] / norm)))])
        nd = PyVQF.filterVec(nd, MAG_CURRENT_TAU, self.tc, self.mag_b, self.mag_a, self.mag_state)
        dip_th = MAG_DIP_TH * math.pi / 180
        if abs(nd[0] - self.mag_ref_norm) < MAG_NORM_TH * self.mag_ref_norm and abs(nd[1] - self.mag_ref_dip) < dip_th:
            self.mag_undisturbed_t += dt
            if self.mag_undisturbed_t >= MAG_MIN_UNDISTURBED_TIME:
                self.mag_dist = False
                self.mag_ref_norm += k_ref * (nd[0] - self.mag_ref_norm)
                self.mag_ref_dip += k_ref * (nd[1] - self.mag_ref_dip)
        else:
            self.mag_undisturbed_t, self.mag_dist = 0.0, True
        if abs(nd[0] - self.mag_cand_norm) < MAG_NORM_TH * self.mag_cand_norm and abs(nd[1] - self.mag_cand_dip) < dip_th:
            if math.sqrt(float(self.rest_gyr_lp.dot(self.rest_gyr_lp))) >= MAG_NEW_MIN_GYR * math.pi / 180:
                self.mag_cand_t += dt
            self.mag_cand_norm += k_ref * (nd[0] - self.mag_cand_norm)
            self.mag_cand_dip += k_ref * (nd[1] - self.mag_cand_dip)
            if self.mag_dist and (self.mag_cand_t >= MAG_NEW_TIME
                                  or (self.mag_ref_norm == 0 and self.mag_cand_t >= MAG_NEW_FIRST_TIME)):
                self.mag_ref_norm, self.mag_ref_dip = self.mag_cand_norm, self.mag_cand_dip
                self.mag_dist = False
                self.mag_undisturbed_t = MAG_MIN_UNDISTURBED_TIME
        else:
            self.mag_cand_t, self.mag_cand_norm, self.mag_cand_dip = 0.0, nd[0], nd[1]
        disagreement = wrap(math.atan2(m[0], m[1]) - self.delta)
        k = PyVQF.gainFromTau(TAU_MAG, dt)
        difference = wrap(disagreement - self.direction_mean)
        self.direction_mean = wrap(self.direction_mean + PyVQF.gainFromTau(MAG_DIRECTION_TAU, self.tc) * difference)
        if abs(difference) > MAG_DIRECTION_TH * math.pi / 180 and self.k_mag_init == 0:
            k *= MAG_DIRECTION_GAIN_FACTOR
        if self.mag_dist:
            if self.mag_reject_t <= MAG_MAX_REJECTION_TIME:
                self.mag_reject_t += dt
                k = 0.0
            else:
                k /= MAG_REJECTION_FACTOR
        else:
            self.mag_reject_t = max(self.mag_reject_t - MAG_REJECTION_FACTOR * dt, 0.0)
        if self.k_mag_init != 0:
            k = max(k, self.k_mag_init)
            self.k_mag_init = self.k_mag_init / (self.k_mag_init + 1)
            if self.k_mag_init * TAU_MAG < self.tc:
                self.k_mag_init = 0.0
        self.delta = wrap(self.delta + k * disagreement)

    def outputs(self):
        q6 = PyVQF.quatMultiply(self.acc_quat, self.gyr_quat)
        w = self.last_gyr - self.bias
        norm = math.sqrt(float(w.dot(w)))
        if norm > 0:
            half = norm * OUTPUT_PREDICTION / 2
            s = math.sin(half) / norm
            q6 = PyVQF.quatMultiply(q6, np.array([math.cos(half), s * w[0], s * w[1], s * w[2]]))
        return q6, PyVQF.quatApplyDelta(q6, self.delta), self.bias


def main():
    print("# Poise accumulated schedule (VQF maths, %g-Hz accumulated corrections, magnetometer offset, field-direction test, 2.5-ms output prediction), computed by "
          "Tests/Goldens/fusion_default_schedule_golden.py with the filters and quaternion maths of vqf %s (PyVQF); BROAD trials (CC BY 4.0, "
          "Laidig et al., Data 6(7) 2021, doi:10.3390/data6070072), first %s s, every %dth sample, rate 1/0.0035 Hz"
          % (CORRECTION_RATE, version("vqf"), "/".join("%g" % s for _, s in TRIALS), STEP))
    print("trial,i,q6_w,q6_x,q6_y,q6_z,q9_w,q9_x,q9_y,q9_z,bias_x,bias_y,bias_z")
    for trial, seconds in TRIALS:
        a = np.loadtxt(os.path.join(ROOT, trial + ".csv"), delimiter=",", skiprows=1, usecols=range(10),
                       max_rows=int(seconds * RATE))
        steps = np.diff(a[:, 0])
        assert np.all(np.abs(steps - 1 / RATE) <= 0.001 / RATE), "a time step is not the nominal period"
        estimator = DefaultSchedule(RATE)
        for i, row in enumerate(a):
            estimator.update(row[4:7].copy(), row[1:4] / 9.80665, row[7:10].copy())
            if i % STEP == STEP - 1:
                q6, q9, bias = estimator.outputs()
                print(trial + ",%d," % i + ",".join("%.17g" % v for v in (*q6, *q9, *bias)))


if __name__ == "__main__":
    main()
