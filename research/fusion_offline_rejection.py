#!/usr/bin/env python3
"""The offline smoother's (`--offline`) magnetic rejection time, judged out of sample.

While the online disturbance test flags the field, each pass of the smoother skips its heading
correction for at most `magneticMaximumRejectionTime` (VQF's 60 s), then corrects at the gain
divided by `magneticRejectionFactor`. The smoother sees the whole recording, so a reading the
online test flags still carries heading its backward pass can use. The candidates: rejection
times 60 (today's default), 20, 10, 5, 2 and 0 s, each with the disturbed-span rule off (the
default) and earth-fixed with spans more than 1/2 at rest left out
(research/fusion_offline_disturbance.py); every candidate gives all three settings, so the
results do not depend on the binary's defaults.

The protocol and the decision are those of research/fusion_offline_disturbance.py, against
today's default (off, 60 s): offline 9D total RMSE, leave one BROAD category out
(../shared/data/broad; the categories of research/fusion_9d_rules.py) and the simulated sensor
matrix's 57 cells (research/fusion_sensor_matrix.py). A candidate is eligible only if its matrix
mean is no higher than the default's; it can be the default only if, held out against the
default alone, no BROAD category has a higher mean and the held-out mean is not higher. Of
those, the lowest BROAD mean over the 15 trials is the default.

Writes research/fusion-offline-rejection.md and prints it. Run from the repository root (a
release build; about 2 minutes on two cores):
    swift build -c release --product poise
    python3 research/fusion_offline_rejection.py [--poise .build/release/poise] [--jobs 2]
Scores are cached in .build/fusion_offline_rejection_*.json (keyed by the binary's hash); the
simulated cells are those of research/fusion_9d_rules.py (.build/fusion_9d_cells/, written once).
Needs numpy and vqf (`pip install numpy vqf`).
"""
import argparse
import importlib.metadata
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_cv import mean  # noqa: E402
from fusion_9d_rules import CATEGORIES, broad_trials, cell_files, write_report  # noqa: E402
from fusion_rest_bias import EstimateScores, vqf_matrix  # noqa: E402
from fusion_sensor_matrix import MATRIX  # noqa: E402

TIMES = (60, 20, 10, 5, 2, 0)


def setting(spans, minimum_span_time, rejection_time):
    rest = 0.5 if spans == "earth-fixed" else 1
    return {"magneticDisturbanceSpans": spans, "magneticDisturbanceMaximumRestShare": rest,
            "magneticDisturbanceMinimumSpanTime": minimum_span_time, "magneticMaximumRejectionTime": rejection_time}


RULES = (("off", 0, "off"), ("earth-fixed", 0, "earth-fixed rest > 1/2"), ("earth-fixed", 1.2, "earth-fixed rest > 1/2 span > 1.2 s"))
CANDIDATES = {"%s, %g s" % (label, t): setting(spans, span, t) for spans, span, label in RULES for t in TIMES}
DEFAULT = "off, 60 s"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join("research", "fusion-offline-rejection.md"))
    options = parser.parse_args()
    trials = broad_trials()
    names = [os.path.basename(t)[:2] for t in trials]
    everyone = range(len(trials))
    per_category = {c: [i for i in everyone if names[i] in m] for c, m in CATEGORIES.items()}
    candidates = list(CANDIDATES.values())
    broad = EstimateScores(options.poise, trials, os.path.join(".build", "fusion_offline_rejection_broad.json"), options.jobs)
    broad.compute(candidates, modes=("9d-offline",))
    cells = cell_files(options.poise, os.path.join(".build", "fusion_9d_cells"), options.jobs)
    allcells = range(len(cells))
    matrix = EstimateScores(options.poise, [c[4] for c in cells], os.path.join(".build", "fusion_offline_rejection_matrix.json"),
                            options.jobs)
    matrix.compute(candidates, modes=("9d-offline",))
    reference = [v[2] for v in vqf_matrix(cells, os.path.join(".build", "fusion_rest_bias_vqf.json"))]
    b = {lb: broad.estimate("offline 9D", s, everyone) for lb, s in CANDIDATES.items()}
    m = {lb: matrix.estimate("offline 9D", s, allcells) for lb, s in CANDIDATES.items()}

    def loco(pool):
        held, picks = [None] * len(trials), {}
        for category, test in per_category.items():
            train = [i for i in everyone if i not in test]
            choice = min(pool, key=lambda lb: mean([b[lb][i] for i in train]))
            picks[category] = choice
            for i in test:
                held[i] = b[choice][i]
        return held, picks

    groups = list(MATRIX)
    text = ["# The offline smoother's magnetic rejection time", "",
            "Produced by `python3 research/fusion_offline_rejection.py --jobs 2` (its docstring gives the protocol). "
            "Offline 9D total RMSE (°); offlineVQF is the `vqf` package %s." % importlib.metadata.version("vqf"), "",
            "## BROAD, held out by category, and the simulated matrix (57 cells)", "",
            "| candidate | BROAD, 15 trials (in-sample) | " + " | ".join(CATEGORIES) + " | matrix | cells lower / higher than "
            "the default | " + " | ".join(groups) + " |", "|---" * (len(CATEGORIES) + len(groups) + 4) + "|"]
    text.append("| offlineVQF | | %s | %.3f | | %s |" % (" | ".join("" for _ in CATEGORIES), mean(reference), " | ".join(
        "%.2f" % mean([reference[i] for i in allcells if cells[i][0] == g]) for g in groups)))
    first = m[DEFAULT]
    for lb in CANDIDATES:
        text.append("| %s | %.3f | %s | %.3f | %d / %d | %s |" % (
            lb, mean(b[lb]), " | ".join("%.3f" % mean([b[lb][i] for i in idx]) for idx in per_category.values()), mean(m[lb]),
            sum(x < y - 1e-9 for x, y in zip(m[lb], first)), sum(x > y + 1e-9 for x, y in zip(m[lb], first)),
            " | ".join("%.2f" % mean([m[lb][i] for i in allcells if cells[i][0] == g]) for g in groups)))
    held, picks = loco(list(CANDIDATES))
    text += ["", "All candidates, chosen without the held-out category: %s; BROAD held out %.3f° (default %.3f°)." % (
        "; ".join("%s → %s" % kv for kv in picks.items()), mean(held), mean(b[DEFAULT])), ""]
    eligible = [lb for lb in CANDIDATES if mean(m[lb]) <= mean(first) + 1e-12]
    defaults, lines = [], []
    for lb in eligible:
        if lb == DEFAULT:
            continue
        pair_held, _ = loco([DEFAULT, lb])
        worse = [c for c, idx in per_category.items()
                 if mean([b[lb][i] for i in idx]) > mean([b[DEFAULT][i] for i in idx]) + 1e-9]
        if not worse and mean(pair_held) <= mean(b[DEFAULT]) + 1e-12:
            defaults.append(lb)
        lines.append("%s: held out %.3f°, matrix %.3f°, categories with a higher mean: %s" % (
            lb, mean(pair_held), mean(m[lb]), ", ".join(
                "%s (%+.4f°)" % (c, mean([b[lb][i] for i in per_category[c]]) - mean([b[DEFAULT][i] for i in per_category[c]]))
                for c in worse) or "none"))
    held, picks = loco(eligible)
    text += ["Eligible (matrix mean no higher than the default's), each against the default alone: " + "; ".join(lines) + ".", "",
             "Chosen among the eligible without the held-out category: %s; BROAD held out %.3f° (default %.3f°, %+.1f %%)." % (
                 "; ".join("%s → %s" % kv for kv in picks.items()), mean(held), mean(b[DEFAULT]),
                 100 * (mean(held) / mean(b[DEFAULT]) - 1)), ""]
    if defaults:
        best = min(defaults, key=lambda lb: mean(b[lb]))
        text += ["Candidates that can be the default: %s. Of them, the lowest BROAD mean over the 15 trials, the default: "
                 "**%s** (BROAD %.3f°, matrix %.3f°; today's %.3f° and %.3f°)." % (
                     ", ".join(defaults), best, mean(b[best]), mean(m[best]), mean(b[DEFAULT]), mean(first)), ""]
    else:
        text += ["No candidate can be the default; %s stays." % DEFAULT, ""]
    text += ["Per BROAD trial (%s): " % " / ".join(CANDIDATES) + ", ".join(
        "%s %s" % (n, " / ".join("%.2f" % b[lb][i] for lb in CANDIDATES)) for i, n in enumerate(names)) + ".", ""]
    write_report(options.out, text)


if __name__ == "__main__":
    main()
