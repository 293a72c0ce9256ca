#!/usr/bin/env python3
"""Poise's 9D additions to VQF, each ON and OFF, judged where they were not chosen.

The online 9D defaults differ from `--preset vqf` in settings that touch the magnetometer only
(the rest of the differences act in 6D as well and are judged in fusion-tuning.md and
fusion-generalisation.md):
- the magnetometer offset estimation (`magneticOffsetEstimation`, with its time constant,
  coverage and residual), a sphere fit that removes a hard-iron offset moving with the device;
- the field-direction test (`magneticDirectionThreshold` > 0, with its low-pass time constant
  and gain factor), which lowers the heading gain when the heading disagreement jumps.

Each rule's candidates (OFF first, then ON with several parameter values; the other rule held
at the value given in the candidate, so every candidate is a full setting of both rules and the
results do not depend on the binary's defaults) are scored twice:

1. Leave one BROAD category out (../shared/data/broad: rotation 02–09, translation 10–18,
   tapping 24, vibration 26–27, stationary magnet 29–31, attached magnet 34; the shared subset
   has no combined trial). For each category the candidate with the lowest mean 9D total RMSE
   on the other categories' trials is chosen and scored on the held-out category's trials; the
   held-out scores of all categories are pooled (mean over the 15 trials). The rule passes BROAD
   when its held-out pooled mean is below OFF's.
2. The simulated sensor matrix of research/fusion_sensor_matrix.py (57 cells, `poise simulate`,
   truth without lag): the 9D total RMSE of every candidate in every cell, its mean, and the
   cells where it is lower than OFF and than the `vqf` package's online 9D.

The decision: a candidate whose matrix mean is higher than OFF's is not eligible (a rule that
wins on BROAD and loses on the matrix is not a default); among the eligible ones (OFF always
is) the choice is made on BROAD, and its out-of-sample score is the leave-one-category-out
choice among them. Writes research/fusion-9d-rules.md and prints it.

Run from the repository root (a release build; about 20 minutes on two cores, `--jobs 2`):
    swift build -c release --product poise
    python3 research/fusion_9d_rules.py [--poise .build/release/poise] [--jobs 2] [--rule NAME …]
BROAD scores are cached in .build/fusion_9d_rules_broad.json and the matrix's in
.build/fusion_9d_rules_matrix.json (keyed by the binary's hash, so a rerun with the same build
only computes new candidates); the simulated cells are written once to .build/fusion_9d_cells/.
Needs numpy and vqf (`pip install numpy vqf`).
"""
import argparse
import glob
import importlib.metadata
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_cv import Scores, VQF as VQF_SETTINGS, mean  # noqa: E402
from fusion_sensor_matrix import MATRIX, SCENARIOS, SEED, vqf_scores  # noqa: E402

# `--preset vqf` as settings: VQF's values, schedule and fixed time step.
VQF = {**VQF_SETTINGS, "fixedTimeStep": "true", "saturationBiasHoldOff": 0}
CATEGORIES = {"rotation": ("02", "04", "05", "07", "09"), "translation": ("10", "14", "16", "18"),
              "tapping": ("24",), "vibration": ("26", "27"), "stationary magnet": ("29", "31"),
              "attached magnet": ("34",)}

OFFSET_OFF = {"magneticOffsetEstimation": "false"}
DIRECTION_OFF = {"magneticDirectionThreshold": 0}
DIRECTION_ON = {"magneticDirectionThreshold": 4, "magneticDirectionTimeConstant": 2, "magneticDirectionGainFactor": 0.25}


def offset(coverage, time_constant, residual):
    """The offset estimation on with these `magneticOffsetMinimumCoverage`,
    `magneticOffsetTimeConstant` (s) and `magneticOffsetMaximumResidual`."""
    return {"magneticOffsetEstimation": "true", "magneticOffsetTimeConstant": time_constant,
            "magneticOffsetMinimumCoverage": coverage, "magneticOffsetMaximumResidual": residual}


OFFSET_ON = offset(0.2, 5, 0.02)

# rule → candidates (label → settings); the first is OFF. The other rule is held at its default.
RULES = {
    "magnetometer offset": {
        "off": {**OFFSET_OFF, **DIRECTION_ON},
        **{"on: coverage %g, %g s, residual %g" % v: {**offset(*v), **DIRECTION_ON}
           for v in ((0.25, 5, 0.03), (0.2, 5, 0.03), (0.3, 5, 0.03), (0.25, 10, 0.03),
                     (0.25, 5, 0.02), (0.2, 5, 0.02), (0.25, 5, 0.01))},
    },
    "field direction": {
        "off": {**OFFSET_ON, **DIRECTION_OFF},
        "on: 4°, ¼ gain, 2 s": {**OFFSET_ON, **DIRECTION_ON},
        "on: 3°, ¼ gain": {**OFFSET_ON, **DIRECTION_ON, "magneticDirectionThreshold": 3},
        "on: 6°, ¼ gain": {**OFFSET_ON, **DIRECTION_ON, "magneticDirectionThreshold": 6},
        "on: 8°, ¼ gain": {**OFFSET_ON, **DIRECTION_ON, "magneticDirectionThreshold": 8},
        "on: 4°, paused": {**OFFSET_ON, **DIRECTION_ON, "magneticDirectionGainFactor": 0},
        "on: 4°, ½ gain": {**OFFSET_ON, **DIRECTION_ON, "magneticDirectionGainFactor": 0.5},
    },
    "field direction, on or off at 4°, ¼ gain, 2 s": {
        "off": {**OFFSET_ON, **DIRECTION_OFF},
        "on: 4°, ¼ gain, 2 s": {**OFFSET_ON, **DIRECTION_ON},
    },
    "both": {
        "both off": {**OFFSET_OFF, **DIRECTION_OFF},
        "offset only": {**OFFSET_ON, **DIRECTION_OFF},
        "direction only": {**OFFSET_OFF, **DIRECTION_ON},
        "both on": {**OFFSET_ON, **DIRECTION_ON},
    },
}
# Where the rest of the 9D difference to VQF is: both rules off, with one more of the defaults'
# other differences from `--preset vqf` set to VQF's value (not a rule of this study: they act in
# 6D as well).
BOTH_OFF = {**OFFSET_OFF, **DIRECTION_OFF}
REST_OF_DIFFERENCE = {
    "both rules off": BOTH_OFF,
    "and correcting every sample (correctionRate 0)": {**BOTH_OFF, "correctionRate": 0},
    "and VQF's fixed time step": {**BOTH_OFF, "fixedTimeStep": "true"},
    "and VQF's rest bias values (biasSigmaRest 0.03, restMinimumTime 1.5)": {**BOTH_OFF, "biasSigmaRest": 0.03,
                                                                         "restMinimumTime": 1.5},
    "`--preset vqf`": VQF,
}
# The defaults' values of both rules (DeviceMotionConfiguration()).
DEFAULTS = {**OFFSET_ON, **DIRECTION_ON}


def cell_files(poise, directory, jobs):
    """Simulates every cell of the matrix once into `directory`; returns [(group, label, scenario, path)]."""
    os.makedirs(directory, exist_ok=True)
    cells, work = [], []
    for group, settings in MATRIX.items():
        for label, rate, extra in settings:
            for scenario in SCENARIOS:
                name = "".join(ch if ch.isalnum() else "_" for ch in "%s %s %s" % (group, label, scenario))
                path = os.path.join(directory, name + ".csv")
                cells.append((group, label, scenario, rate, path))
                if not os.path.exists(path):
                    work.append([poise, "simulate", "--scenario", scenario, "--rate", str(rate), "--seed", SEED,
                                 "--out", path] + extra)
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda args: subprocess.run(args, check=True, capture_output=True), work))
    return cells


def vqf_matrix(cells, cache_path):
    """The `vqf` package's online 9D total RMSE per cell (cached by path and file size)."""
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    out = []
    for _, _, _, rate, path in cells:
        key = "%s %d" % (path, os.path.getsize(path))
        if key not in cache:
            cache[key] = vqf_scores(path, rate, offline=False)[0]
        out.append(cache[key])
    json.dump(cache, open(cache_path, "w"))
    return out


def loco(scores, candidates, trials, pool=None):
    """Leave-one-category-out: per held-out category the candidate (of `pool`, default all)
    chosen on the others, and the pooled held-out 9D totals (per trial)."""
    names = [os.path.basename(t)[:2] for t in trials]
    pool = pool or list(candidates.values())
    held, picks = [None] * len(trials), {}
    for category, members in CATEGORIES.items():
        test = [i for i, n in enumerate(names) if n in members]
        train = [i for i, n in enumerate(names) if n not in members]
        choice = min(pool, key=lambda s: mean(scores.get("9d", s, 0, train)))
        picks[category] = next(label for label, s in candidates.items() if s == choice)
        for i in test:
            held[i] = scores.get("9d", choice, 0, [i])[0]
    return held, picks


def broad_trials():
    """The BROAD trials in ../shared/data/broad, sorted (exits when there are none)."""
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    if not trials:
        sys.exit("no BROAD trials in ../shared/data/broad")
    return trials


def write_report(path, lines):
    """Writes the report's `lines` to `path` (replaced atomically) and prints them."""
    out = "\n".join(lines) + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(out)
    os.replace(tmp, path)
    print(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rule", action="append", help="rules to run (default: all)")
    parser.add_argument("--no-matrix", action="store_true", help="BROAD only")
    parser.add_argument("--out", default=os.path.join("research", "fusion-9d-rules.md"))
    options = parser.parse_args()
    trials = broad_trials()
    names = [os.path.basename(t)[:2] for t in trials]
    rules = {r: RULES[r] for r in (options.rule or RULES)}
    broad = Scores(options.poise, trials, os.path.join(".build", "fusion_9d_rules_broad.json"), options.jobs)
    broad.compute([VQF], modes=("9d",))
    everyone = range(len(trials))
    vqf_broad = broad.get("9d", VQF, 0, everyone)
    if not options.no_matrix:
        cells = cell_files(options.poise, os.path.join(".build", "fusion_9d_cells"), options.jobs)
        matrix = Scores(options.poise, [c[4] for c in cells], os.path.join(".build", "fusion_9d_rules_matrix.json"),
                        options.jobs)
        vqf_cells = vqf_matrix(cells, os.path.join(".build", "fusion_9d_rules_vqf.json"))

    text = ["# Poise's 9D additions to VQF, on and off, out of sample", "",
            "Produced by `python3 research/fusion_9d_rules.py` (its docstring gives the protocol). "
            "Total RMSE in degrees (BROAD metric, 9D, online, rows with movement); VQF is the `vqf` "
            "package %s (`--preset vqf` equals it on BROAD to 1e-10 rad)." % importlib.metadata.version("vqf"), ""]
    for rule, candidates in rules.items():
        broad.compute(list(candidates.values()), modes=("9d",))
        text += ["## %s" % rule, "",
                 "### Leave one BROAD category out (15 trials; VQF 9D mean %.3f°)" % mean(vqf_broad), "",
                 "| candidate | all 15 trials (in-sample) | " + " | ".join(CATEGORIES) + " |",
                 "|---" * (len(CATEGORIES) + 2) + "|"]
        per_category = {c: [i for i in everyone if names[i] in m] for c, m in CATEGORIES.items()}
        text.append("| VQF | %.3f | %s |" % (mean(vqf_broad), " | ".join(
            "%.3f" % mean([vqf_broad[i] for i in idx]) for idx in per_category.values())))
        for label, s in candidates.items():
            v = broad.get("9d", s, 0, everyone)
            text.append("| %s | %.3f | %s |" % (label, mean(v), " | ".join(
                "%.3f" % mean([v[i] for i in idx]) for idx in per_category.values())))
        held, picks = loco(broad, candidates, trials)
        off = broad.get("9d", list(candidates.values())[0], 0, everyone)
        text.append("| **chosen without the category (held out)** | **%.3f** | %s |" % (mean(held), " | ".join(
            "%.3f" % mean([held[i] for i in idx]) for idx in per_category.values())))
        text += ["", "Chosen per held-out category: " + "; ".join("%s → %s" % kv for kv in picks.items()) + ".",
                 "Held out against the first candidate: %.3f° vs %.3f° (%+.1f %%), against VQF %+.1f %%; "
                 "held-out trials lower than the first candidate: %d of 15." % (
                     mean(held), mean(off), 100 * (mean(held) / mean(off) - 1), 100 * (mean(held) / mean(vqf_broad) - 1),
                     sum(h < o for h, o in zip(held, off))), ""]
        if options.no_matrix:
            continue
        matrix.compute(list(candidates.values()), modes=("9d",))
        allcells = range(len(cells))
        first = matrix.get("9d", list(candidates.values())[0], 0, allcells)
        groups = list(MATRIX)
        text += ["### Simulated sensor matrix (57 cells; VQF 9D mean %.3f°)" % mean(vqf_cells), "",
                 "| candidate | mean | lower than the first candidate | lower than VQF | " + " | ".join(groups) + " |",
                 "|---" * (len(groups) + 4) + "|"]
        text.append("| VQF | %.3f | | | %s |" % (mean(vqf_cells), " | ".join(
            "%.2f" % mean([vqf_cells[i] for i in allcells if cells[i][0] == g]) for g in groups)))
        for label, s in candidates.items():
            v = matrix.get("9d", s, 0, allcells)
            text.append("| %s | %.3f | %d | %d | %s |" % (
                label, mean(v), sum(a < b - 1e-9 for a, b in zip(v, first)), sum(a < b for a, b in zip(v, vqf_cells)),
                " | ".join("%.2f" % mean([v[i] for i in allcells if cells[i][0] == g]) for g in groups)))
        # The decision: the candidates whose matrix mean is no higher than OFF's are eligible;
        # leaving one BROAD category out chooses among them.
        eligible = [c for c in candidates.values() if mean(matrix.get("9d", c, 0, allcells)) <= mean(first) + 1e-12]
        held, picks = loco(broad, candidates, trials, eligible)
        chosen = min(eligible, key=lambda c: mean(broad.get("9d", c, 0, everyone)))
        label = next(lb for lb, c in candidates.items() if c == chosen)
        text += ["", "**The decision.** Candidates no worse than the first on the matrix's mean: %s. Chosen among them "
                 "without the held-out category: %s; held out %.3f° against the first candidate's %.3f° (%+.1f %%), "
                 "VQF %+.1f %%. Chosen on all 15 trials: **%s** (matrix mean %.3f°, first candidate %.3f°)%s." % (
                     "; ".join(lb for lb, c in candidates.items() if c in eligible),
                     "; ".join("%s → %s" % kv for kv in picks.items()), mean(held), mean(off),
                     100 * (mean(held) / mean(off) - 1), 100 * (mean(held) / mean(vqf_broad) - 1), label,
                     mean(matrix.get("9d", chosen, 0, allcells)), mean(first),
                     "; the defaults" if chosen == DEFAULTS else ""), ""]
    if not options.no_matrix and not options.rule:
        broad.compute(list(REST_OF_DIFFERENCE.values()), modes=("9d",))
        matrix.compute(list(REST_OF_DIFFERENCE.values()), modes=("9d",))
        allcells = range(len(cells))
        text += ["## Where the rest of the 9D difference is", "",
                 "Without a magnetic disturbance the matrix's 9D is above VQF's with both rules off too. "
                 "Both rules off, and one more of the defaults' other differences from `--preset vqf` "
                 "set to VQF's value (mean 9D total RMSE °; BROAD in-sample):", "",
                 "| settings | BROAD (15 trials) | matrix (57 cells) | " + " | ".join(MATRIX) + " |",
                 "|---" * (len(MATRIX) + 3) + "|"]
        for label, c in REST_OF_DIFFERENCE.items():
            v = matrix.get("9d", c, 0, allcells)
            text.append("| %s | %.3f | %.3f | %s |" % (label, mean(broad.get("9d", c, 0, everyone)), mean(v), " | ".join(
                "%.2f" % mean([v[i] for i in allcells if cells[i][0] == g]) for g in MATRIX)))
        text.append("| the `vqf` package | %.3f | %.3f | %s |" % (mean(vqf_broad), mean(vqf_cells), " | ".join(
            "%.2f" % mean([vqf_cells[i] for i in allcells if cells[i][0] == g]) for g in MATRIX)))
        text.append("")
    write_report(options.out, text)


if __name__ == "__main__":
    main()
