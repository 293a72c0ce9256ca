#!/usr/bin/env python3
"""Whether the gyroscope self-calibration helps the online estimator when it is fitted causally.

The offline smoother fits a 3×3 gyroscope matrix C to the whole recording (the anchor-pair fit of
Tests/Goldens/gyro_self_calibration.py, the reference of `GyroscopeSelfCalibration`) before its
passes. An online estimator has at time t only the samples before t. This script simulates that,
without changing the estimator: for each BROAD trial in ../shared/data/broad (CC BY 4.0, Laidig
et al., Data 6(7) 2021, doi:10.3390/data6070072),
- at the instants t_k = t_0 + k·PERIOD the fit runs on the samples before t_k only (the same
  anchors, pairs, Gauss–Newton steps and acceptance rules as offline: refused beyond 2 % scale or
  3 mrad misalignment), and its C and bias b (mean rate of the rest windows seen so far) correct
  the gyroscope from t_k to t_{k+1}: g → C·(g − b) + b (the estimator still estimates the bias
  itself); before the first accepted fit, and in any period whose fit is refused, the recorded
  rates are kept (C = I);
- the piecewise-corrected gyroscope is written into a copy of the trial (a temporary directory;
  rows left at C = I keep their original text) and scored by the release build's
  `poise evaluate COPY --mode 6d|9d --json` with the online defaults;
- the same for the whole recording's fit applied from the start (what the offline smoother does:
  an optimistic bound, it uses the future), for the recorded trial, and for VQF online
  (`--preset vqf`, equal to the `vqf` package).

Prints, per trial and mean, 6D and 9D total RMSE and the inclination RMSE (9D, as
research/fusion_cv.py) in degrees, when the first accepted causal fit moved C from the identity (a
fit solves only the directions of C its anchor pairs determine) and in how many periods a fit
was accepted (--trace: every fit),
then a fusion_cv-style table (candidates recorded / causal / whole-recording fit, relative to
VQF; the in-sample choice and the 5-fold cross-validated choice among the causal candidates and
the recorded rates, with --worst-limit 0.05 as in fusion_cv — only candidates no trial of which
is more than 5 % worse than VQF — and without it).

Run from the repository root after `swift build -c release --product poise` (numpy; each fit
re-integrates everything seen so far: ≈ 12 minutes for the 15 trials at 10 s and 30 s):
    python3 research/fusion_online_gyro_calibration.py --period 10 --period 30 [--trace] [TRIAL-PREFIX …]
Results are cached in .build/fusion_online_gyro_cache.json, keyed by the poise binary's hash.
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Goldens"))  # the goldens' BROAD metric and references
import fusion_cv  # noqa: E402
import gyro_self_calibration as calibration  # noqa: E402

ROOT = os.path.join("..", "shared", "data", "broad")
GYRO = slice(4, 7)   # gyroscope columns of a BROAD CSV (rad/s)


def causal_rates(t, acc, gyr, period):
    """The gyroscope corrected piecewise by fits on the past only, the rows it changed, and per
    refit instant its fit: time from the start (s), accepted, anchors, pairs, directions of C
    solved, C − I (scale factors − 1 in %, off-diagonal C01 C02 C10 C12 C20 C21 in mrad)."""
    out, changed = gyr.copy(), np.zeros(len(t), bool)
    instants = np.arange(t[0] + period, t[-1], period)
    events = []
    for k, tk in enumerate(instants):
        start = int(np.searchsorted(t, tk))             # samples before t_k
        end = int(np.searchsorted(t, instants[k + 1])) if k + 1 < len(instants) else len(t)
        r = calibration.fit(t[:start], acc[:start], gyr[:start])
        e = r.get("fitted", np.eye(3)) - np.eye(3)
        events.append({"t": float(tk - t[0]), "accepted": bool(r["accepted"]), "anchors": r["anchors"],
                       "pairs": r["pairs"], "solved": r["solved"], "scale": list(100 * np.diag(e)),
                       "axes": list(1000 * e[[0, 0, 1, 1, 2, 2], [1, 2, 0, 2, 0, 1]])})
        if r["accepted"]:
            out[start:end] = (gyr[start:end] - r["b"]) @ r["C"].T + r["b"]
            changed[start:end] = True
    return out, changed, events


def whole_rates(t, acc, gyr):
    """The gyroscope corrected from the start by the whole recording's fit (the offline smoother's)."""
    r = calibration.fit(t, acc, gyr)
    if not r["accepted"]:
        return gyr.copy(), np.zeros(len(t), bool)
    return (gyr - r["b"]) @ r["C"].T + r["b"], np.ones(len(t), bool)


def write_copy(source, target, rates, changed):
    """A copy of a BROAD CSV whose gyroscope cells are `rates` on the rows `changed`."""
    with open(source) as f, open(target, "w") as out:
        out.write(f.readline())
        for row, line in enumerate(f):
            if changed[row]:
                cells = line.rstrip("\n").split(",")
                cells[GYRO] = ["%.9g" % v for v in rates[row]]
                line = ",".join(cells) + "\n"
            out.write(line)


def evaluate(poise, path, mode, options=()):
    """`poise evaluate PATH --mode MODE --json`: [total, heading, inclination] RMSE, degrees."""
    # The attitude at the samples' times (no output prediction), as the table in research/fusion-tuning.md.
    args = [poise, "evaluate", path, "--mode", mode, "--json", "--set", "outputPrediction=0", *options]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(args), run.stderr.strip()))
    d = json.loads(run.stdout)
    return [d["total_rmse_deg"], d["heading_rmse_deg"], d["inclination_rmse_deg"]]


class Table:
    """Per-trial scores by candidate label, read like fusion_cv.Scores (VQF's settings → "VQF")."""

    def __init__(self, results, trials):
        self.results, self.trials = results, trials

    def get(self, mode, s, column, indices):
        label = "VQF" if s == fusion_cv.VQF else s["candidate"]
        return [self.results[self.trials[i]][label][mode][column] for i in indices]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trials", nargs="*", help="trial prefixes (default: all)")
    parser.add_argument("--period", type=float, action="append", help="refit period, s (default 10)")
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--cache", default=".build/fusion_online_gyro_cache.json")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--trace", action="store_true", help="also print every causal fit of each trial")
    options = parser.parse_args()
    periods = options.period or [10.0]

    paths = sorted(glob.glob(os.path.join(ROOT, "*.csv")))
    if options.trials:
        paths = [p for p in paths if os.path.basename(p)[:2] in options.trials]
    if not paths:
        sys.exit("no BROAD trials in %s" % ROOT)
    names = [os.path.basename(p)[:2] for p in paths]
    digest = hashlib.sha256(open(options.poise, "rb").read()).hexdigest()[:16]
    stored = json.load(open(options.cache)) if os.path.exists(options.cache) else {}
    cache = stored.get(digest, {})
    labels = ["recorded"] + ["causal, every %g s" % p for p in periods] + ["whole-recording fit"]

    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        for path, name in zip(paths, names):
            entry = cache.setdefault(name, {})
            if "VQF" not in entry:
                entry["VQF"] = {m: evaluate(options.poise, path, m, ["--preset", "vqf"]) for m in ("6d", "9d")}
                entry["recorded"] = {m: evaluate(options.poise, path, m) for m in ("6d", "9d")}
            missing = [l for l in labels if l not in entry]
            if missing:
                a = np.loadtxt(path, delimiter=",", skiprows=1, usecols=range(7))
                t, acc, gyr = a[:, 0], a[:, 1:4], a[:, GYRO]
                copy = os.path.join(scratch, os.path.basename(path))
                for label in missing:
                    if label == "whole-recording fit":
                        rates, changed = whole_rates(t, acc, gyr)
                        events = []
                    else:
                        rates, changed, events = causal_rates(t, acc, gyr, float(label.split()[-2]))
                    write_copy(path, copy, rates, changed)
                    entry[label] = {m: evaluate(options.poise, copy, m) for m in ("6d", "9d")}
                    entry[label]["events"] = events
                    print("%s %s done" % (name, label), file=sys.stderr, flush=True)
                os.makedirs(os.path.dirname(options.cache) or ".", exist_ok=True)
                json.dump({digest: cache}, open(options.cache, "w"))
            results[name] = entry

    def fmt(name, label, mode, column):
        return "%.3f" % results[name][label][mode][column]

    shown = ["VQF"] + labels
    print("| trial | causal fits: first accepted fit that moves C at (s), accepted / refits | 6D total: %s | 9D total: %s | inclination (9D): %s |"
          % ((" / ".join(shown),) * 3))
    print("|---|---|---|---|---|")
    for name in names:
        fits = []
        for p in periods:
            ev = results[name]["causal, every %g s" % p]["events"]
            first = next((e["t"] for e in ev if e["accepted"] and e["solved"]), None)
            fits.append("%s, %d / %d" % ("never" if first is None else "%.0f" % first,
                                         sum(e["accepted"] for e in ev), len(ev)))
        print("| %s | %s | %s | %s | %s |" % (name, "; ".join(fits),
              " / ".join(fmt(name, l, "6d", 0) for l in shown), " / ".join(fmt(name, l, "9d", 0) for l in shown),
              " / ".join(fmt(name, l, "9d", 2) for l in shown)))
    means = {l: [fusion_cv.mean([results[n][l][m][c] for n in names]) for m, c in (("6d", 0), ("9d", 0), ("9d", 2))]
             for l in shown}
    print("| **mean** | | %s | %s | %s |" % tuple(" / ".join("%.3f" % means[l][k] for l in shown) for k in range(3)))
    for l in labels:
        worse = ["%s %s %+.1f %%" % (m.upper(), n, 100 * (results[n][l][m][0] / results[n]["VQF"][m][0] - 1))
                 for m in ("6d", "9d") for n in names if results[n][l][m][0] > 1.05 * results[n]["VQF"][m][0]]
        print("trials more than 5 %% worse than VQF online, %s: %s" % (l, ", ".join(worse) or "none"))

    table = Table(results, names)
    everyone = range(len(names))
    candidates = {l: {"candidate": l} for l in labels}

    def per_trial(s, indices):
        return {m: [[table.get(m, s, c, [i])[0] for c in range(3)] for i in indices] for m in ("9d", "6d")}

    vqf_all = per_trial(fusion_cv.VQF, everyone)
    print("\n| candidate | 9D total | 6D total | inclination | worst 9D trial | worst 6D trial |")
    print("|---|---|---|---|---|---|")
    for label, s in candidates.items():
        print(fusion_cv.row(label, per_trial(s, everyone), vqf_all))
    pool = [candidates[l] for l in labels if l != "whole-recording fit"]   # the causal choices
    choices = []
    for limit in (0.05, None):
        rule = "no trial > 5 % worse than VQF" if limit else "without the 5 % rule"
        best = fusion_cv.choose(table, pool, everyone, limit)
        print(fusion_cv.row("chosen in-sample (%s): %s" % (rule, best["candidate"]), per_trial(best, everyone), vqf_all))
        if len(names) >= 2 * options.folds:
            choices.append(cross_validate(table, pool, names, options.folds, limit, rule, vqf_all))
    print("\n" + "\n".join(choices))
    if options.trace:
        for name in names:
            for p in periods:
                print("\n%s, refit every %g s: instant (s), accepted, anchors, pairs, solved directions, "
                      "C − I scale (%%), off-diagonal (mrad)" % (name, p))
                for e in results[name]["causal, every %g s" % p]["events"]:
                    print("%5.0f %-5s %4d %5d %d  %s  %s" % (e["t"], e["accepted"], e["anchors"], e["pairs"], e["solved"],
                          " ".join("%+.2f" % v for v in e["scale"]), " ".join("%+.1f" % v for v in e["axes"])))


def cross_validate(table, pool, names, folds_count, limit, rule, vqf_all):
    """fusion_cv's k-fold choice among `pool` (with `limit`, as fusion_cv's --worst-limit), scored
    on the held-out trials; prints its row and returns the folds' choices."""
    everyone = range(len(names))
    folds = [[i for i in everyone if i % folds_count == k] for k in range(folds_count)]
    held, picks = {"9d": [None] * len(names), "6d": [None] * len(names)}, []
    for fold in folds:
        choice = fusion_cv.choose(table, pool, [i for i in everyone if i not in fold], limit)
        picks.append(choice["candidate"])
        for i in fold:
            for m in ("9d", "6d"):
                held[m][i] = [table.get(m, choice, c, [i])[0] for c in range(3)]
    print(fusion_cv.row("chosen by %d-fold CV (out of sample, %s)" % (folds_count, rule), held, vqf_all))
    return ("CV choices per fold (%s): " % rule + "; ".join(
        "%s → %s" % ("+".join(names[i] for i in fold), p) for fold, p in zip(folds, picks)))


if __name__ == "__main__":
    main()
