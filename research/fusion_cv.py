#!/usr/bin/env python3
"""Fusion settings judged on trials they were not chosen on.

Every candidate configuration of a question runs on every BROAD trial in ../shared/data/broad
(6D and 9D, `poise evaluate --json`, BROAD metric). Then, for each question:
- each fixed candidate: mean total error 9D and 6D, mean inclination, heading, and the worst
  trial's total error relative to VQF (vqfDefaults, which equals the `vqf` package to 1e-10 rad);
- "chosen in-sample": the candidate best on all trials (optimistic: chosen and judged on the same
  trials);
- "chosen by k-fold CV": the trials are split into folds (5 folds of 3 trials by default, trial i
  in fold i mod k in sorted order); for each fold the candidate best on the other folds is chosen
  and scored on the fold's trials; the held-out scores of all folds are pooled. This is the
  out-of-sample estimate of "tune this question's setting on data like these".
With --worst-limit 0.05 a choice is made only among the candidates no trial of which (of those
chosen on) is more than 5 % worse than VQF (the rule a default must meet).
A candidate is better when its score J = 9D/VQF 9D + 6D/VQF 6D + inclination/VQF inclination
(means over the trials it is chosen on) is lower.

Run from the repository root after `swift build -c release --product poise`:
    python3 research/fusion_cv.py [--question NAME …] [--folds 5] [--jobs 1] [--poise PATH]
    python3 research/fusion_cv.py --candidate "label:correctionRate=0,biasSigmaRest=0.01"
Results are cached per trial in .build/fusion_cv_cache.json, keyed by the binary's hash, so a
rerun with the same build only computes new candidates. A question takes seconds per candidate.
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

VQF = {"correctionRate": 0, "biasSigmaRest": 0.03, "restMinimumTime": 1.5, "magneticOffsetEstimation": "false",
       "magneticDirectionThreshold": 0, "outputPrediction": 0}
# The questions on VQF's own settings run without the magnetometer offset estimation; all
# questions before "field direction" run without the field-direction test.
NODIR = {"magneticDirectionThreshold": 0}
OFF = {"magneticOffsetEstimation": "false", **NODIR}

# Each question: the candidates compared (label → settings given with --set). The first
# candidate is the question's baseline.
QUESTIONS = {
    "schedule": {
        "VQF (vqfDefaults)": VQF,
        "every sample, 0.01 °/s, 1.0 s": {**OFF, "correctionRate": 0},
        "50 Hz": {**OFF, "correctionRate": 50},
        "25 Hz": {**OFF, "correctionRate": 25},
        "10 Hz": {**OFF, "correctionRate": 10},
        "5 Hz": {**OFF, "correctionRate": 5},
    },
    "rest": {
        "VQF (vqfDefaults)": VQF,
        "0.03 °/s, 1.5 s": {**OFF, "correctionRate": 0, "biasSigmaRest": 0.03, "restMinimumTime": 1.5},
        "0.01 °/s, 1.5 s": {**OFF, "correctionRate": 0, "biasSigmaRest": 0.01, "restMinimumTime": 1.5},
        "0.03 °/s, 1.0 s": {**OFF, "correctionRate": 0, "biasSigmaRest": 0.03, "restMinimumTime": 1.0},
        "0.01 °/s, 1.0 s": {**OFF, "correctionRate": 0, "biasSigmaRest": 0.01, "restMinimumTime": 1.0},
        "0.005 °/s, 1.0 s": {**OFF, "correctionRate": 0, "biasSigmaRest": 0.005, "restMinimumTime": 1.0},
    },
    "magnetic disturbance thresholds": {
        "VQF (vqfDefaults)": VQF,
        "10 %, 10° (VQF)": {**OFF, "correctionRate": 0},
        "5 %, 10°": {**OFF, "correctionRate": 0, "magneticNormThreshold": 0.05},
        "10 %, 5°": {**OFF, "correctionRate": 0, "magneticDipThreshold": 5},
        "5 %, 5°": {**OFF, "correctionRate": 0, "magneticNormThreshold": 0.05, "magneticDipThreshold": 5},
        "7 %, 7°": {**OFF, "correctionRate": 0, "magneticNormThreshold": 0.07, "magneticDipThreshold": 7},
        "3 %, 3°": {**OFF, "correctionRate": 0, "magneticNormThreshold": 0.03, "magneticDipThreshold": 3},
    },
    "magnetometer time constant": {
        "VQF (vqfDefaults)": VQF,
        "9 s (VQF)": {**OFF, "correctionRate": 0},
        "6 s": {**OFF, "correctionRate": 0, "magnetometerTimeConstant": 6},
        "14 s": {**OFF, "correctionRate": 0, "magnetometerTimeConstant": 14},
        "20 s": {**OFF, "correctionRate": 0, "magnetometerTimeConstant": 20},
        "30 s": {**OFF, "correctionRate": 0, "magnetometerTimeConstant": 30},
    },
    "accelerometer time constant": {
        "VQF (vqfDefaults)": VQF,
        "3 s (VQF)": {**OFF, "correctionRate": 0},
        "2 s": {**OFF, "correctionRate": 0, "accelerometerTimeConstant": 2},
        "4.5 s": {**OFF, "correctionRate": 0, "accelerometerTimeConstant": 4.5},
        "6 s": {**OFF, "correctionRate": 0, "accelerometerTimeConstant": 6},
    },
    "bias in motion": {
        "VQF (vqfDefaults)": VQF,
        "0.1 °/s, 100 s (VQF)": {**OFF, "correctionRate": 0},
        "0.05 °/s": {**OFF, "correctionRate": 0, "biasSigmaMotion": 0.05},
        "0.2 °/s": {**OFF, "correctionRate": 0, "biasSigmaMotion": 0.2},
        "forgetting 50 s": {**OFF, "correctionRate": 0, "biasForgettingTime": 50},
        "forgetting 200 s": {**OFF, "correctionRate": 0, "biasForgettingTime": 200},
        "no bias estimation in motion": {**OFF, "correctionRate": 0, "motionBiasEstimation": "false"},
    },
    "disturbance timing": {
        "VQF (vqfDefaults)": VQF,
        "0.5 s, 0.05 s, 20 s (VQF)": {**OFF, "correctionRate": 0},
        "undisturbed 1 s": {**OFF, "correctionRate": 0, "magneticMinimumUndisturbedTime": 1},
        "undisturbed 2 s": {**OFF, "correctionRate": 0, "magneticMinimumUndisturbedTime": 2},
        "norm/dip low-pass 0.2 s": {**OFF, "correctionRate": 0, "magneticCurrentTimeConstant": 0.2},
        "norm/dip low-pass 0.5 s": {**OFF, "correctionRate": 0, "magneticCurrentTimeConstant": 0.5},
        "new field after 10 s": {**OFF, "correctionRate": 0, "magneticNewFieldTime": 10},
        "longest pause 30 s": {**OFF, "correctionRate": 0, "magneticMaximumRejectionTime": 30},
    },
    "magnetometer offset": {
        "VQF (vqfDefaults)": VQF,
        "off, every sample": {**OFF, "correctionRate": 0},
        "coverage 0.2, 5 s": {**NODIR, "correctionRate": 0, "magneticOffsetMinimumCoverage": 0.2},
        "coverage 0.25, 5 s": {**NODIR, "correctionRate": 0, "magneticOffsetMinimumCoverage": 0.25},
        "coverage 0.3, 5 s": {**NODIR, "correctionRate": 0, "magneticOffsetMinimumCoverage": 0.3},
        "coverage 0.2, 10 s": {**NODIR, "correctionRate": 0, "magneticOffsetMinimumCoverage": 0.2, "magneticOffsetTimeConstant": 10},
        "coverage 0.25, 10 s": {**NODIR, "correctionRate": 0, "magneticOffsetMinimumCoverage": 0.25, "magneticOffsetTimeConstant": 10},
        "residual 0.02, coverage 0.2, 5 s": {**NODIR, "correctionRate": 0, "magneticOffsetMaximumResidual": 0.02},
    },
    "default schedule": {
        "VQF (vqfDefaults)": VQF,
        "every sample, offset": {**NODIR, "correctionRate": 0},
        "5 Hz, offset": {**NODIR, "correctionRate": 5},
        "10 Hz, offset": {**NODIR, "correctionRate": 10},
        "every sample, no offset": {**OFF, "correctionRate": 0},
        "5 Hz, no offset": {**OFF, "correctionRate": 5},
    },
    "field direction": {
        "VQF (vqfDefaults)": VQF,
        "off": {"magneticDirectionThreshold": 0},
        "3°, paused": {"magneticDirectionThreshold": 3, "magneticDirectionGainFactor": 0},
        "5°, paused": {"magneticDirectionThreshold": 5, "magneticDirectionGainFactor": 0},
        "8°, paused": {"magneticDirectionThreshold": 8, "magneticDirectionGainFactor": 0},
        "3°, ¼ gain": {"magneticDirectionThreshold": 3},
        "4°, ¼ gain (the defaults)": {},
        "5°, ¼ gain": {"magneticDirectionThreshold": 5},
        "6°, ¼ gain": {"magneticDirectionThreshold": 6},
        "8°, ¼ gain": {"magneticDirectionThreshold": 8},
        "5°, ⅛ gain": {"magneticDirectionThreshold": 5, "magneticDirectionGainFactor": 0.125},
        "5°, ½ gain": {"magneticDirectionThreshold": 5, "magneticDirectionGainFactor": 0.5},
        "5°, ¼ gain, low-pass 1 s": {"magneticDirectionThreshold": 5, "magneticDirectionTimeConstant": 1},
        "5°, ¼ gain, low-pass 4 s": {"magneticDirectionThreshold": 5, "magneticDirectionTimeConstant": 4},
    },
    "schedule with the field-direction test": {
        "VQF (vqfDefaults)": VQF,
        "10 Hz (the defaults)": {},
        "5 Hz (`fast`)": {"correctionRate": 5},
        "every sample": {"correctionRate": 0},
    },
    "output prediction": {
        "VQF (vqfDefaults)": VQF,
        "0 (the attitude at the sample's time)": {"outputPrediction": 0},
        "1 ms": {"outputPrediction": 0.001},
        "1.5 ms": {"outputPrediction": 0.0015},
        "2 ms": {"outputPrediction": 0.002},
        "2.5 ms (the defaults)": {},
        "3 ms": {"outputPrediction": 0.003},
        "4 ms": {"outputPrediction": 0.004},
        "5 Hz (`fast`), 2.5 ms": {"correctionRate": 5},
        "VQF's settings and schedule, 2.5 ms": {**VQF, "outputPrediction": 0.0025},
    },
}


def at_sample_times(questions, with_prediction=("output prediction",)):
    """The questions with `outputPrediction` 0 in every candidate but those of "output
    prediction" and of `with_prediction` (asked after it, at the defaults): the questions before
    it were measured on the attitude at the samples' times."""
    return {q: c if q in with_prediction else {label: {"outputPrediction": 0, **s} for label, s in c.items()}
            for q, c in questions.items()}


def settings_key(mode, settings):
    return mode + " " + " ".join("%s=%s" % (k, "%g" % v if isinstance(v, (int, float)) else v) for k, v in sorted(settings.items()))


def evaluate(poise, path, mode, settings, options=()):
    """`poise evaluate PATH --mode MODE --json OPTIONS --set …`: total, heading and inclination RMSE."""
    args = [poise, "evaluate", path, "--mode", mode, "--json", *options]
    for name, value in sorted(settings.items()):
        args += ["--set", "%s=%s" % (name, value)]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(args), run.stderr.strip()))
    d = json.loads(run.stdout)
    return [d["total_rmse_deg"], d["heading_rmse_deg"], d["inclination_rmse_deg"]]


def mean(xs):
    return sum(xs) / len(xs)


class Scores:
    """Per-trial [total, heading, inclination] for (mode, settings), computed on demand."""

    def __init__(self, poise, trials, cache_path, jobs):
        self.poise, self.trials, self.cache_path, self.jobs = poise, trials, cache_path, jobs
        digest = hashlib.sha256(open(poise, "rb").read()).hexdigest()[:16]
        everything = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
        self.cache = everything.get(digest, {})
        self.everything, self.digest = everything, digest

    def compute(self, candidates, modes=("9d", "6d")):
        work = [(mode, s, t) for s in candidates for mode in modes for t in self.trials
                if settings_key(mode, s) + " " + t not in self.cache]
        with ThreadPoolExecutor(self.jobs) as pool:
            for (mode, s, t), r in zip(work, pool.map(lambda w: evaluate(self.poise, w[2], w[0], w[1]), work)):
                self.cache[settings_key(mode, s) + " " + t] = r
        self.everything = {self.digest: self.cache}   # older builds' results are dropped
        os.makedirs(os.path.dirname(self.cache_path) or ".", exist_ok=True)
        json.dump(self.everything, open(self.cache_path, "w"))

    def get(self, mode, s, column, indices):
        return [self.cache[settings_key(mode, s) + " " + self.trials[i]][column] for i in indices]


def summary(scores, s, indices):
    """Means over the trials `indices`: 9D total, 6D total, inclination (9D), 9D heading, 6D heading."""
    return (mean(scores.get("9d", s, 0, indices)), mean(scores.get("6d", s, 0, indices)),
            mean(scores.get("9d", s, 2, indices)), mean(scores.get("9d", s, 1, indices)),
            mean(scores.get("6d", s, 1, indices)))


def worst(scores, s, indices):
    """The largest ratio of a trial's total error to VQF's over `indices`, 9D and 6D."""
    return max(a / b for mode in ("9d", "6d")
               for a, b in zip(scores.get(mode, s, 0, indices), scores.get(mode, VQF, 0, indices)))


def choose(scores, pool, indices, limit):
    """The candidate of `pool` with the lowest objective over `indices`; with a limit, only among
    those no trial of which is worse than VQF's by more than the limit (all, if none is)."""
    eligible = [s for s in pool if worst(scores, s, indices) <= 1 + limit] if limit is not None else pool
    return min(eligible or pool, key=lambda s: objective(scores, s, indices))


def objective(scores, s, indices):
    m, v = summary(scores, s, indices), summary(scores, VQF, indices)
    return m[0] / v[0] + m[1] / v[1] + m[2] / v[2]


def row(label, per_trial, vqf_per_trial):
    """per_trial: {mode: [[total, heading, inclination] per trial]}."""
    t9 = [r[0] for r in per_trial["9d"]]
    t6 = [r[0] for r in per_trial["6d"]]
    inc = [r[2] for r in per_trial["9d"]]
    v9 = [r[0] for r in vqf_per_trial["9d"]]
    v6 = [r[0] for r in vqf_per_trial["6d"]]
    vi = [r[2] for r in vqf_per_trial["9d"]]
    worst9 = max(a / b for a, b in zip(t9, v9))
    worst6 = max(a / b for a, b in zip(t6, v6))
    return "| %s | %.3f (%+.1f %%) | %.3f (%+.1f %%) | %.3f (%+.1f %%) | %+.1f %% | %+.1f %% |" % (
        label, mean(t9), 100 * (mean(t9) / mean(v9) - 1), mean(t6), 100 * (mean(t6) / mean(v6) - 1),
        mean(inc), 100 * (mean(inc) / mean(vi) - 1), 100 * (worst9 - 1), 100 * (worst6 - 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--folds", type=int, default=5, help="k of k-fold CV (15 = leave one trial out)")
    parser.add_argument("--cache", default=".build/fusion_cv_cache.json")
    parser.add_argument("--question", action="append", help="questions to run (default: all)")
    parser.add_argument("--candidate", action="append", default=[],
                        help="an extra question of one candidate: 'label:name=value,name=value'")
    parser.add_argument("--per-trial", action="store_true", help="also print per-trial totals")
    parser.add_argument("--worst-limit", type=float, default=None, metavar="FRACTION",
                        help="choose only among candidates no trial of which (of those chosen on) is worse "
                             "than VQF's by more than this, e.g. 0.05 (the house rule); default: no limit")
    options = parser.parse_args()

    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    if not trials:
        sys.exit("no BROAD trials in ../shared/data/broad")
    names = [os.path.basename(t)[:2] for t in trials]
    questions = {q: QUESTIONS[q] for q in (options.question or QUESTIONS)}
    questions = at_sample_times(questions)
    for text in options.candidate:
        label, _, spec = text.partition(":")
        settings = dict(item.split("=", 1) for item in spec.split(",") if item)
        questions.setdefault("candidates", {"VQF (vqfDefaults)": VQF})[label] = settings
    scores = Scores(options.poise, trials, options.cache, options.jobs)
    everyone = range(len(trials))
    folds = [[i for i in everyone if i % options.folds == k] for k in range(options.folds)]

    for question, candidates in questions.items():
        scores.compute([VQF] + list(candidates.values()))
        vqf_all = {mode: [[scores.get(mode, VQF, c, [i])[0] for c in range(3)] for i in everyone] for mode in ("9d", "6d")}
        print("\n## %s (%d trials; mean total RMSE 9D, 6D, inclination in degrees, vs VQF; worst trial vs VQF)"
              % (question, len(trials)))
        print("| candidate | 9D total | 6D total | inclination | worst 9D trial | worst 6D trial |")
        print("|---|---|---|---|---|---|")

        def per_trial(s, indices):
            return {mode: [[scores.get(mode, s, c, [i])[0] for c in range(3)] for i in indices] for mode in ("9d", "6d")}

        for label, s in candidates.items():
            print(row(label, per_trial(s, everyone), vqf_all))
        pool = list(candidates.values())
        best = choose(scores, pool, everyone, options.worst_limit)
        rule = "" if options.worst_limit is None else ", no trial > %g %% worse than VQF" % (100 * options.worst_limit)
        print(row("chosen in-sample (all %d trials%s): %s" % (len(trials), rule, label_of(candidates, best)),
                  per_trial(best, everyone), vqf_all))
        held = {"9d": [None] * len(trials), "6d": [None] * len(trials)}
        picks = []
        for fold in folds:
            train = [i for i in everyone if i not in fold]
            choice = choose(scores, pool, train, options.worst_limit)
            picks.append(label_of(candidates, choice))
            for i in fold:
                for mode in ("9d", "6d"):
                    held[mode][i] = [scores.get(mode, choice, c, [i])[0] for c in range(3)]
        print(row("chosen by %d-fold CV (out of sample%s)" % (options.folds, rule), held, vqf_all))
        print("\nCV choices per fold: " + "; ".join(
            "%s → %s" % ("+".join(names[i] for i in fold), p) for fold, p in zip(folds, picks)))
        if options.per_trial:
            for label, s in candidates.items():
                print("per trial %s: " % label + "  ".join(
                    "%s %.2f/%.2f" % (n, scores.get("9d", s, 0, [i])[0], scores.get("6d", s, 0, [i])[0])
                    for i, n in enumerate(names)))


def label_of(candidates, settings):
    return next(label for label, s in candidates.items() if s == settings)


if __name__ == "__main__":
    main()
