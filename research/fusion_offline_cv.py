#!/usr/bin/env python3
"""Offline-smoother settings judged on trials they were not chosen on.

Every candidate (settings given to `poise evaluate --offline --set NAME=VALUE`: the smoother's
own, carryState and disturbanceWeightTime, and the estimator's) runs on every BROAD trial in
../shared/data/broad, 6D and 9D. The reference is `vqf.offlineVQF` with its defaults
(Tests/PoiseTests/Fixtures/vqf_offline_broad.csv, made by Tests/Goldens/vqf_offline_broad_golden.py).
For each question:
- each candidate: mean total error 9D and 6D, mean inclination, each vs offlineVQF, and the worst
  trial's total error relative to offlineVQF;
- "chosen in-sample": the candidate best on all trials (chosen and judged on the same trials);
- "chosen by k-fold CV": trial i is in fold i mod k (sorted order); for each fold the candidate
  best on the other folds is chosen and scored on the fold's trials; the held-out scores of all
  folds are pooled (the out-of-sample estimate).
A candidate is better when J = 9D/offlineVQF 9D + 6D/offlineVQF 6D + inclination/offlineVQF
inclination (means over the trials it is chosen on) is lower. With --worst-limit 0.05 the choice
(in-sample and per fold) is made only among the candidates no trial of which, of those chosen on,
is worse than offlineVQF's by more than 5 % (among all, if none is).

Run from the repository root after `swift build -c release --product poise`:
    python3 research/fusion_offline_cv.py [--question NAME …] [--folds 5] [--jobs 1]
    python3 research/fusion_offline_cv.py --candidate "label:carryBias=false"
About 10 s per candidate (30 runs of `poise evaluate --offline`).
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import fusion_cv  # research/fusion_cv.py: the same evaluation and mean
from fusion_cv import mean

GOLDEN = os.path.join("Tests", "PoiseTests", "Fixtures", "vqf_offline_broad.csv")

# "passes", "weights at the default gain" and "convergence weighting" are asked with the defaults
# (heading gain 25 s); the "disturbance weighting" and "schedule" questions with the online
# heading gain (9 s), as research/fusion-tuning.md reports them.
ONLINE_GAIN = {"magnetometerTimeConstant": 9}

# Every question but "heading: passes' starts" is asked with a pass at rest starting from the
# magnetometer's heading and the 25-s heading gain (without the carried heading), unless it sets them.
BEFORE_CARRIED_HEADING = {"carryHeading": "false", "magnetometerTimeConstant": 25}

# The questions asked after "output prediction", at the defaults (the others at the samples' times).
WITH_PREDICTION = ("output prediction", "heading: zero-phase", "heading: passes' starts",
                   "bias: combined by covariances")

QUESTIONS = {
    "passes": {
        "average of independent passes": {"carryBias": "false", "carryAttitude": "false"},
        "bias carried": {"carryAttitude": "false"},
        "attitude carried": {"carryBias": "false"},
        "bias and attitude carried (defaults)": {},
        "bias, attitude and heading carried": {"carryHeading": "true"},
        "bias, attitude and magnetic reference carried": {"carryMagneticReference": "true"},
        "bias, attitude, heading and magnetic reference carried": {"carryHeading": "true", "carryMagneticReference": "true"},
    },
    "disturbance weighting": {
        "equal weights": dict(ONLINE_GAIN),
        "halves after 5 s disturbed": dict(ONLINE_GAIN, disturbanceWeightTime=5),
        "halves after 20 s disturbed": dict(ONLINE_GAIN, disturbanceWeightTime=20),
        "halves after 60 s disturbed": dict(ONLINE_GAIN, disturbanceWeightTime=60),
    },
    "schedule": {
        "10 Hz (online default)": dict(ONLINE_GAIN),
        "5 Hz": dict(ONLINE_GAIN, correctionRate=5),
        "every sample": dict(ONLINE_GAIN, correctionRate=0),
    },
    "schedule at the default gain": {
        "25 s, 10 Hz (defaults)": {},
        "25 s, 5 Hz": {"correctionRate": 5},
        "25 s, every sample": {"correctionRate": 0},
        "20 s, every sample": {"correctionRate": 0, "magnetometerTimeConstant": 20},
    },
    "gyroscope self-calibration": {
        "off (defaults before)": {},
        "on, misalignment bound 1 mrad": {"gyroscopeSelfCalibration": "true", "gyroscopeMaximumMisalignment": 0.001},
        "on, misalignment bound 2 mrad": {"gyroscopeSelfCalibration": "true", "gyroscopeMaximumMisalignment": 0.002},
        "on, misalignment bound 3 mrad": {"gyroscopeSelfCalibration": "true", "gyroscopeMaximumMisalignment": 0.003},
        "on, misalignment bound 4 mrad": {"gyroscopeSelfCalibration": "true", "gyroscopeMaximumMisalignment": 0.004},
        "on, misalignment bound 5 mrad": {"gyroscopeSelfCalibration": "true", "gyroscopeMaximumMisalignment": 0.005},
        "on, no misalignment bound": {"gyroscopeSelfCalibration": "true", "gyroscopeMaximumMisalignment": 1},
    },
    "inclination: accelerometer time constant": {
        "3 s (defaults)": {},
        "2 s": {"accelerometerTimeConstant": 2},
        "1.5 s": {"accelerometerTimeConstant": 1.5},
        "1 s": {"accelerometerTimeConstant": 1},
        "4 s": {"accelerometerTimeConstant": 4},
        "5 s": {"accelerometerTimeConstant": 5},
    },
    "inclination: smoothed bias": {
        "each pass's own bias (defaults)": {},
        "passes again with the mean bias fixed": {"smoothedBias": "true"},
    },
    "weights at the default gain": {
        "equal weights (defaults)": {},
        "halves after 5 s disturbed": {"disturbanceWeightTime": 5},
        "halves after 20 s disturbed": {"disturbanceWeightTime": 20},
        "halves after 60 s disturbed": {"disturbanceWeightTime": 60},
        "halves 10 s after rest": {"restWeightTime": 10},
        "halves 60 s after rest": {"restWeightTime": 60},
    },
    "convergence weighting": {
        "equal weights (defaults)": {},
        "weight grows over 10 s": {"convergenceWeightTime": 10},
        "weight grows over 25 s": {"convergenceWeightTime": 25},
        "weight grows over 50 s": {"convergenceWeightTime": 50},
        "weight grows over 100 s": {"convergenceWeightTime": 100},
    },
    "inclination: zero-phase": {
        "the combined passes' inclination (defaults before)": {"inclinationLowPassTime": 0},
        "zero-phase inclination, 2 s": {"inclinationLowPassTime": 2},
        "zero-phase inclination, 3 s": {"inclinationLowPassTime": 3},
        "zero-phase inclination, 4 s (defaults)": {},
        "zero-phase inclination, 6 s": {"inclinationLowPassTime": 6},
    },
    "heading: zero-phase": {
        "the combined passes' heading (defaults)": {},
        "zero-phase heading correction, 10 s": {"headingLowPassTime": 10},
        "zero-phase heading correction, 30 s": {"headingLowPassTime": 30},
        "zero-phase heading correction, 100 s": {"headingLowPassTime": 100},
        "zero-phase heading correction, 300 s": {"headingLowPassTime": 300},
    },
    "heading: passes' starts": {
        "a pass at rest starts from the magnetometer's heading, 25-s gain": {"carryHeading": "false",
                                                                            "magnetometerTimeConstant": 25},
        "the other pass's heading always carried, 25-s gain": {"magnetometerTimeConstant": 25},
        "heading carried, 9-s gain": {"magnetometerTimeConstant": 9},
        "heading carried, 12-s gain": {"magnetometerTimeConstant": 12},
        "heading carried, 15-s gain": {"magnetometerTimeConstant": 15},
        "heading carried, 20-s gain (defaults)": {},
        "heading carried, 40-s gain": {"magnetometerTimeConstant": 40},
    },
    "bias: combined by covariances": {
        "the mean of the passes' biases (defaults)": {},
        "combined by their covariances": {"biasCovarianceWeighting": "true"},
    },
    "heading gain": {
        "9 s (online default)": {"magnetometerTimeConstant": 9},
        "12 s": {"magnetometerTimeConstant": 12},
        "15 s": {"magnetometerTimeConstant": 15},
        "20 s": {"magnetometerTimeConstant": 20},
        "25 s": {"magnetometerTimeConstant": 25},
        "40 s": {"magnetometerTimeConstant": 40},
    },
    "output prediction": {
        "0 (the attitude at the sample's time)": {"outputPrediction": 0},
        "1.5 ms": {"outputPrediction": 0.0015},
        "2.5 ms (the defaults)": {},
        "3.5 ms": {"outputPrediction": 0.0035},
    },
}


def key(mode, settings):
    return mode + " " + " ".join("%s=%s" % kv for kv in sorted(settings.items()))


def evaluate(poise, path, mode, settings):
    return fusion_cv.evaluate(poise, path, mode, settings, options=["--offline"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--question", action="append")
    parser.add_argument("--candidate", action="append", default=[])
    parser.add_argument("--per-trial", action="store_true")
    parser.add_argument("--worst-limit", type=float, default=None, metavar="FRACTION",
                        help="choose (in-sample and per fold) only among the candidates no trial of which, of those "
                             "chosen on, is worse than offlineVQF's by more than FRACTION (all, if none is)")
    options = parser.parse_args()
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    if not trials:
        sys.exit("no BROAD trials in ../shared/data/broad")
    names = [os.path.basename(t)[:-4] for t in trials]
    golden = {(r["trial"], r["mode"]): [float(r["total_deg"]), float(r["heading_deg"]), float(r["inclination_deg"])]
              for r in csv.DictReader(line for line in open(GOLDEN) if not line.startswith("#"))}
    reference = {m: [golden[(n, m)] for n in names] for m in ("9d", "6d")}
    questions = {q: QUESTIONS[q] for q in (options.question or QUESTIONS)}
    questions = fusion_cv.at_sample_times(questions, WITH_PREDICTION)
    questions = {q: c if q == "heading: passes' starts" else {label: {**BEFORE_CARRIED_HEADING, **v} for label, v in c.items()}
                 for q, c in questions.items()}
    for text in options.candidate:
        label, _, spec = text.partition(":")
        questions.setdefault("candidates", {})[label] = dict(i.split("=", 1) for i in spec.split(",") if i)
    cache = {}

    def compute(candidates):
        work = [(m, s, i) for s in candidates for m in ("9d", "6d") for i in range(len(trials)) if (key(m, s), i) not in cache]
        with ThreadPoolExecutor(options.jobs) as pool:
            for (m, s, i), r in zip(work, pool.map(lambda w: evaluate(options.poise, trials[w[2]], w[0], w[1]), work)):
                cache[(key(m, s), i)] = r

    def summary(per, indices):
        """Means over `indices` of per[mode][i]: 9D total, 6D total, inclination, 9D heading, 6D heading."""
        return (mean([per["9d"][i][0] for i in indices]), mean([per["6d"][i][0] for i in indices]),
                mean([per["9d"][i][2] for i in indices]), mean([per["9d"][i][1] for i in indices]),
                mean([per["6d"][i][1] for i in indices]))

    def objective(per, indices):
        m, v = summary(per, indices), summary(reference, indices)
        return m[0] / v[0] + m[1] / v[1] + m[2] / v[2]

    def worst(per, indices):
        return max(per[mode][i][0] / reference[mode][i][0] for mode in ("9d", "6d") for i in indices)

    def choose(per, indices):
        """The candidate with the lowest objective over `indices` (with --worst-limit, among those
        within the limit on every trial of `indices`)."""
        pool = [c for c in per if options.worst_limit is None or worst(per[c], indices) <= 1 + options.worst_limit]
        return min(pool or list(per), key=lambda label: objective(per[label], indices))

    def row(label, per):
        everyone = range(len(trials))
        m, v = summary(per, everyone), summary(reference, everyone)
        worst = [max(per[mode][i][0] / reference[mode][i][0] for i in everyone) for mode in ("9d", "6d")]
        return "| %s | %.3f / %.3f (%+.1f %%) | %.3f / %.3f (%+.1f %%) | %.3f (%+.1f %%) | %+.1f %% | %+.1f %% |" % (
            label, m[0], m[3], 100 * (m[0] / v[0] - 1), m[1], m[4], 100 * (m[1] / v[1] - 1), m[2], 100 * (m[2] / v[2] - 1),
            100 * (worst[0] - 1), 100 * (worst[1] - 1))

    everyone = list(range(len(trials)))
    folds = [[i for i in everyone if i % options.folds == k] for k in range(options.folds)]
    print(row("vqf.offlineVQF", reference).replace("(+0.0 %)", "").replace("| +0.0 % | +0.0 % |", "| | |"))
    for question, candidates in questions.items():
        compute(candidates.values())
        per = {label: {m: [cache[(key(m, s), i)] for i in everyone] for m in ("9d", "6d")} for label, s in candidates.items()}
        print("\n## %s (%d trials; mean total / heading RMSE 9D, 6D, inclination, degrees, vs offlineVQF; worst trial vs offlineVQF)"
              % (question, len(trials)))
        print("| candidate | 9D total / heading | 6D total / heading | inclination | worst 9D trial | worst 6D trial |")
        print("|---|---|---|---|---|---|")
        for label in candidates:
            print(row(label, per[label]))
        best = choose(per, everyone)
        print(row("chosen in-sample: %s" % best, per[best]))
        held = {"9d": [None] * len(trials), "6d": [None] * len(trials)}
        picks = []
        for fold in folds:
            train = [i for i in everyone if i not in fold]
            choice = choose(per, train)
            picks.append(choice)
            for i in fold:
                for m in ("9d", "6d"):
                    held[m][i] = per[choice][m][i]
        print(row("chosen by %d-fold CV (out of sample)" % options.folds, held))
        print("\nCV choices per fold: " + "; ".join(
            "%s → %s" % ("+".join(names[i][:2] for i in fold), p) for fold, p in zip(folds, picks)))
        if options.per_trial:
            for label in candidates:
                print("per trial %s: " % label + "  ".join("%s %.2f/%.2f" % (names[i][:2], per[label]["9d"][i][0], per[label]["6d"][i][0])
                                                         for i in everyone))


if __name__ == "__main__":
    main()
