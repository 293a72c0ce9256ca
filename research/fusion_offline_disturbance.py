#!/usr/bin/env python3
"""The offline smoother (`--offline`) in magnetically disturbed recordings: where its heading
goes wrong, and the disturbed-span rule (`magneticDisturbanceSpans`) judged out of sample.

1. Over time, in the sensor matrix's magnetic-disturbance cells (research/fusion_sensor_matrix.py:
   an earth-fixed 30 µT for 8–18 s or 15 µT for 5–25 s, `poise simulate --mag-disturbance`, on
   three scenarios) and the same scenarios without a disturbance: the heading error (RMSE and
   signed mean, °, rows with movement) before, during, in the 5 s after and later than the
   disturbance, of offlineVQF (the `vqf` package), the smoother with each setting of the rule, and the
   smoother's two passes run alone (`poise fuse` with the smoother's estimator settings, forward
   and over the time-reversed recording, each from its own start), with the share of samples the
   forward pass flags `magneticDisturbance`.
2. The rule OFF, in the first pass, in all passes and earth-fixed (all passes, with the readings a
   magnetometer offset fitted around them explains left undisturbed), each with every span
   (`magneticDisturbanceMaximumRestShare` 1) and without the spans more than 1/2 of whose
   samples are at rest, earth-fixed also without those more than 1/4 or 3/4 at rest, or without
   the spans of at most 1.2 s (`magneticDisturbanceMinimumSpanTime`: one disturbed reading and
   its 0.5-s margins), or both (1/2 and 1.2 s), offline 9D total RMSE: leave one BROAD category out (../shared/data/broad;
   the categories of research/fusion_9d_rules.py; in each fold the candidate with the lower mean
   on the other categories is chosen and scored on the held-out one, pooled over the 15 trials),
   per category, and the simulated matrix's 57 cells (mean, per group, cells lower / higher than
   OFF). The decision: a candidate is eligible only if its matrix mean is no higher than OFF's;
   among the eligible candidates the held-out BROAD choice decides, and a candidate that has a
   higher mean than OFF in any BROAD category (or raises the held-out mean) is not a default.
   Each candidate is also held out against OFF alone. Of the candidates that can be the default,
   the one with the lowest BROAD mean over the 15 trials (the criterion the held-out choice uses)
   is the default.

Writes research/fusion-offline-disturbance.md and prints it. Run from the repository root:
    swift build --product poise   (or a release build: `-c release`, `--poise .build/release/poise`)
    python3 research/fusion_offline_disturbance.py [--poise .build/debug/poise] [--jobs 2] [--no-matrix]
BROAD and matrix scores are cached in .build/fusion_offline_disturbance_*.json (keyed by the
binary's hash); the simulated cells are those of research/fusion_9d_rules.py
(.build/fusion_9d_cells/, written once). Needs numpy and vqf (`pip install numpy vqf`).
"""
import argparse
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import vqf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Goldens"))
from fusion_cv import mean  # noqa: E402
from fusion_9d_rules import CATEGORIES, broad_trials, cell_files, write_report  # noqa: E402
from fusion_rest_bias import EstimateScores, vqf_matrix  # noqa: E402
from fusion_sensor_matrix import MATRIX, SCENARIOS, G  # noqa: E402
from fusion_forward_backward import CONJUGATE, product, score, write_reversed  # noqa: E402



def rule(spans, rest_share=1, minimum_span_time=0):
    """The span rule's settings, each given (the smoother's defaults may change), with the
    passes' `magneticMaximumRejectionTime` at VQF's 60 s (its study:
    research/fusion_offline_rejection.py)."""
    return {"magneticDisturbanceSpans": spans, "magneticDisturbanceMaximumRestShare": rest_share,
            "magneticDisturbanceMinimumSpanTime": minimum_span_time, "magneticMaximumRejectionTime": 60}


CANDIDATES = {"off": rule("off"), "first pass, every span": rule("first-pass"), "all passes, every span": rule("all-passes"),
              "earth-fixed, every span": rule("earth-fixed"),
              "first pass, rest > 1/2": rule("first-pass", rest_share=0.5),
              "all passes, rest > 1/2": rule("all-passes", rest_share=0.5),
              "earth-fixed, rest > 1/4": rule("earth-fixed", rest_share=0.25),
              "earth-fixed, rest > 1/2": rule("earth-fixed", rest_share=0.5),
              "earth-fixed, rest > 3/4": rule("earth-fixed", rest_share=0.75),
              "earth-fixed, span > 1.2 s": rule("earth-fixed", minimum_span_time=1.2),
              "earth-fixed, rest > 1/2, span > 1.2 s": rule("earth-fixed", rest_share=0.5, minimum_span_time=1.2)}
# The smoother's estimator settings (DeviceMotionSmoother.defaultConfiguration, with the rejection
# time of `rule`), for its passes alone.
PASS = ["--set", "magnetometerTimeConstant=20", "--set", "magneticDirectionThreshold=0", "--set", "magneticMaximumRejectionTime=60"]
GROUP = "magnetic disturbance"


def fused(poise, path, args, scratch):
    """`poise fuse PATH --mode 9d ARGS`: attitudes (w, x, y, z; device → ENU) and the
    magnetic-disturbance flag per row."""
    out = os.path.join(scratch, "motion.csv")
    subprocess.run([poise, "fuse", path, "--mode", "9d", "--out", out] + args, check=True, capture_output=True)
    o = np.genfromtxt(out, delimiter=",", names=True)
    return np.stack([o["att_qw"], o["att_qx"], o["att_qy"], o["att_qz"]], 1), o["mag_disturbance"] > 0.5


def over_time(poise, path, start, end, scratch):
    """Per estimate: total RMSE, and per segment (before, during, 5 s after, later) the heading
    error's RMSE and signed mean (°), and the forward pass's flagged share."""
    o = np.genfromtxt(path, delimiter=",", names=True)
    acc = np.ascontiguousarray(np.stack([o["acc_x_g"], o["acc_y_g"], o["acc_z_g"]], 1) * G)
    gyr = np.ascontiguousarray(np.stack([o["gyr_x_radps"], o["gyr_y_radps"], o["gyr_z_radps"]], 1))
    mag = np.ascontiguousarray(np.stack([o["mag_x_uT"], o["mag_y_uT"], o["mag_z_uT"]], 1))
    truth = np.stack([o["gt_qw"], o["gt_qx"], o["gt_qy"], o["gt_qz"]], 1)
    t, moving = o["t_s"], o["movement"] == 1
    rows = np.loadtxt(path, delimiter=",", skiprows=1)
    backward, backward_flags = fused(poise, write_reversed(path, rows, scratch), PASS, scratch)
    estimates = {
        "offlineVQF": (vqf.offlineVQF(gyr, acc, mag, float(np.median(np.diff(t))))["quat9D"], None),
        **{"smoother, %s" % label: fused(poise, path, ["--offline"] + [a for k, v in s.items() for a in ("--set", "%s=%s" % (k, v))],
                                          scratch) for label, s in CANDIDATES.items()},
        "forward pass alone": fused(poise, path, PASS, scratch),
        "backward pass alone": (backward[::-1], backward_flags[::-1]),
    }
    segments = [t < start, (t >= start) & (t < end), (t >= end) & (t < end + 5), t >= end + 5]
    out = {}
    for name, (q, flags) in estimates.items():
        e = product(q, truth * CONJUGATE)
        heading = np.degrees(2 * np.arctan2(e[:, 3], e[:, 0]))
        heading = (heading + 180) % 360 - 180
        parts = []
        for m in segments:
            m = m & moving
            parts.append((float(np.sqrt(np.mean(heading[m] ** 2))), float(np.mean(heading[m]))) if m.any() else None)
        out[name] = (score(q, truth, moving, False)[0], parts, None if flags is None else float(flags.mean()))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "debug", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-matrix", action="store_true", help="over time and BROAD only")
    parser.add_argument("--out", default=os.path.join("research", "fusion-offline-disturbance.md"))
    options = parser.parse_args()
    text = ["# The offline smoother in magnetically disturbed recordings", "",
            "Produced by `python3 research/fusion_offline_disturbance.py` (its docstring gives the protocol). "
            "Degrees; offlineVQF is the `vqf` package %s." % importlib.metadata.version("vqf"), "",
            "## Over time: the heading error before, during and after the disturbance", "",
            "Heading error RMSE / signed mean (°) per segment of the rows with movement; total: the 9D total RMSE; "
            "flagged: the share of samples the forward pass flags `magneticDisturbance` (the rule's output "
            "also flags the disturbed spans it finds).", ""]
    cells = cell_files(options.poise, os.path.join(".build", "fusion_9d_cells"), options.jobs)
    with tempfile.TemporaryDirectory() as scratch:
        for group, label, scenario, _, path in cells:
            if group not in (GROUP, "base (phone, 100 Hz)"):
                continue
            extra = next(c[2] for c in MATRIX[group] if c[0] == label)
            start, end = (float(x) for x in extra[1].split(",")[:2]) if extra else (8.0, 18.0)
            text += ["### %s, %s: %s%s" % (group, label, scenario, "" if extra else " (segments as the 30-µT cell's)"), "",
                     "| estimate | total | before | during | 5 s after | later | flagged |", "|---|---|---|---|---|---|---|"]
            for name, (total, parts, flagged) in over_time(options.poise, path, start, end, scratch).items():
                text.append("| %s | %.2f | %s | %s |" % (
                    name, total, " | ".join("—" if p is None else "%.2f / %+.2f" % p for p in parts),
                    "" if flagged is None else "%.2f" % flagged))
            text.append("")

    trials = broad_trials()
    names = [os.path.basename(t)[:2] for t in trials]
    everyone = range(len(trials))
    candidates = list(CANDIDATES.values())
    broad = EstimateScores(options.poise, trials, os.path.join(".build", "fusion_offline_disturbance_broad.json"), options.jobs)
    broad.compute(candidates, modes=("9d-offline",))
    per_category = {c: [i for i in everyone if names[i] in m] for c, m in CATEGORIES.items()}

    def loco(pool):
        held, picks = [None] * len(trials), {}
        for category, test in per_category.items():
            train = [i for i in everyone if i not in test]
            choice = min(pool, key=lambda s: mean(broad.estimate("offline 9D", s, train)))
            picks[category] = next(lb for lb, s in CANDIDATES.items() if s == choice)
            for i in test:
                held[i] = broad.estimate("offline 9D", choice, [i])[0]
        return held, picks

    text += ["## BROAD, offline 9D total RMSE, held out by category", "",
             "| candidate | all 15 trials (in-sample) | " + " | ".join(CATEGORIES) + " |",
             "|---" * (len(CATEGORIES) + 2) + "|"]
    for label, s in CANDIDATES.items():
        v = broad.estimate("offline 9D", s, everyone)
        text.append("| %s | %.3f | %s |" % (label, mean(v), " | ".join(
            "%.3f" % mean([v[i] for i in idx]) for idx in per_category.values())))
    held, picks = loco(candidates)
    text.append("| **chosen without the category (held out)** | **%.3f** | %s |" % (mean(held), " | ".join(
        "%.3f" % mean([held[i] for i in idx]) for idx in per_category.values())))
    off = broad.estimate("offline 9D", CANDIDATES["off"], everyone)
    others = [broad.estimate("offline 9D", s, everyone) for s in candidates[1:]]
    text += ["", "Chosen per held-out category: " + "; ".join("%s → %s" % kv for kv in picks.items()) + ". "
             "Per trial, %s: " % " / ".join(CANDIDATES) + ", ".join(
                 "%s %s" % (n, " / ".join("%.2f" % v[i] for v in [off] + others)) for i, n in enumerate(names)) + ".", ""]
    if options.no_matrix:
        write_report(options.out, text)
        return

    allcells = range(len(cells))
    matrix = EstimateScores(options.poise, [c[4] for c in cells], os.path.join(".build", "fusion_offline_disturbance_matrix.json"),
                            options.jobs)
    matrix.compute(candidates, modes=("9d-offline",))
    reference = [v[2] for v in vqf_matrix(cells, os.path.join(".build", "fusion_rest_bias_vqf.json"))]
    first = matrix.estimate("offline 9D", CANDIDATES["off"], allcells)
    groups = list(MATRIX)
    text += ["## Simulated sensor matrix, offline 9D total RMSE (57 cells)", "",
             "| candidate | mean | cells lower / higher than off | lower than offlineVQF | " + " | ".join(groups) + " |",
             "|---" * (len(groups) + 4) + "|"]
    text.append("| offlineVQF | %.3f | | | %s |" % (mean(reference), " | ".join(
        "%.2f" % mean([reference[i] for i in allcells if cells[i][0] == g]) for g in groups)))
    for label, s in CANDIDATES.items():
        v = matrix.estimate("offline 9D", s, allcells)
        text.append("| %s | %.3f | %d / %d | %d | %s |" % (
            label, mean(v), sum(a < b - 1e-9 for a, b in zip(v, first)), sum(a > b + 1e-9 for a, b in zip(v, first)),
            sum(a < b for a, b in zip(v, reference)),
            " | ".join("%.2f" % mean([v[i] for i in allcells if cells[i][0] == g]) for g in groups)))
    eligible = [s for s in candidates if mean(matrix.estimate("offline 9D", s, allcells)) <= mean(first) + 1e-12]
    pairs, defaults = [], []
    for label, s in list(CANDIDATES.items())[1:]:
        if s not in eligible:
            continue
        pair_held, _ = loco([CANDIDATES["off"], s])
        v = broad.estimate("offline 9D", s, everyone)
        worse = [c for c, idx in per_category.items()
                 if mean([v[i] for i in idx]) > mean([off[i] for i in idx]) + 1e-9]
        if not worse and mean(pair_held) <= mean(off) + 1e-12:
            defaults.append(label)
        pairs.append("%s against off alone: held out %.3f°, matrix %.3f°, BROAD categories with a higher mean: %s" % (
            label, mean(pair_held), mean(matrix.estimate("offline 9D", s, allcells)),
            ", ".join("%s (%+.4f°)" % (c, mean([v[i] for i in per_category[c]]) - mean([off[i] for i in per_category[c]]))
                      for c in worse) or "none"))
    held, picks = loco(eligible)
    text += ["", "Each candidate " + "; ".join(pairs) + ".", "", "**The decision.** Eligible (matrix mean no higher than off's): %s. Chosen without the held-out "
             "category among them: %s; BROAD held out %.3f° (off %.3f°, %+.1f %%)." % (
                 ", ".join(lb for lb, s in CANDIDATES.items() if s in eligible),
                 "; ".join("%s → %s" % kv for kv in picks.items()), mean(held), mean(off),
                 100 * (mean(held) / mean(off) - 1)),
             "", "Eligible and no BROAD category with a higher mean than off's (against off alone), the candidates that can be the "
             "default: %s." % (", ".join(defaults) or "none; off stays the default"), ""]
    shares = [lb for lb in CANDIDATES if lb.startswith("earth-fixed") and "span >" not in lb]
    text += ["The rest share of the rule (`magneticDisturbanceMaximumRestShare`) with earth-fixed, among %s: the lowest BROAD "
             "mean over the 15 trials %s, the lowest matrix mean %s." % (
                 ", ".join(shares), min(shares, key=lambda lb: mean(broad.estimate("offline 9D", CANDIDATES[lb], everyone))),
                 min(shares, key=lambda lb: mean(matrix.estimate("offline 9D", CANDIDATES[lb], allcells)))), ""]
    every, half = CANDIDATES["earth-fixed, every span"], CANDIDATES["earth-fixed, rest > 1/2"]
    pairs = [(broad.estimate("offline 9D", half, everyone), broad.estimate("offline 9D", every, everyone)),
             (matrix.estimate("offline 9D", half, allcells), matrix.estimate("offline 9D", every, allcells))]
    text += ["Earth-fixed, rest > 1/2 against earth-fixed, every span: BROAD trials lower / higher %d / %d, matrix cells "
             "lower / higher %d / %d." % tuple(n for a, b in pairs for n in (sum(x < y - 1e-9 for x, y in zip(a, b)),
                                                                           sum(x > y + 1e-9 for x, y in zip(a, b)))), ""]
    if defaults:
        best = min(defaults, key=lambda lb: mean(broad.estimate("offline 9D", CANDIDATES[lb], everyone)))
        text += ["Of them, the lowest BROAD mean over the 15 trials, the default: **%s** (%.3f°; matrix %.3f°)." % (
            best, mean(broad.estimate("offline 9D", CANDIDATES[best], everyone)),
            mean(matrix.estimate("offline 9D", CANDIDATES[best], allcells))), ""]
    write_report(options.out, text)


if __name__ == "__main__":
    main()
