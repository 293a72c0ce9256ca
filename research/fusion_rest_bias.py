#!/usr/bin/env python3
"""The rest-bias values (`biasSigmaRest`, `restMinimumTime`) judged where they were not chosen.

At rest the gyroscope bias is measured from the rest low-pass of the rate with the noise
`biasSigmaRest` (°/s), once the device has been still for `restMinimumTime` (s). The defaults'
values came from BROAD's gyroscope; VQF's are 0.03 °/s and 1.5 s. The rest thresholds (2 °/s,
0.5 m/s², 0.5-s low-pass) are VQF's own and are not asked here.

Each candidate (a pair of values; every other setting the binary's defaults, the two 9D rules
on) is scored on four estimates: online 9D and 6D total RMSE, inclination (online 9D), and the
offline smoother's 9D total RMSE (`--offline`, whose passes use the same rest values):

1. Leave one BROAD category out (../shared/data/broad: rotation 02–09, translation 10–18,
   tapping 24, vibration 26–27, stationary magnet 29–31, attached magnet 34). For each category
   the candidate with the lowest J = 9D/VQF 9D + 6D/VQF 6D + inclination/VQF inclination (means
   over the other categories' trials; VQF is `--preset vqf`'s settings, which equal the `vqf`
   package on BROAD) is chosen and scored on the held-out category's trials; the held-out scores
   are pooled over the 15 trials. The same is done with each estimate alone as the criterion
   (the offline smoother's by its own 9D total).
2. The simulated sensor matrix of research/fusion_sensor_matrix.py (57 cells, `poise simulate`,
   truth without lag): every candidate's four estimates in every cell, their means, and the cells
   where it is lower than today's defaults and than the `vqf` package (online 9D, online 6D,
   offlineVQF 9D).

The decision, online: a candidate whose matrix mean is higher than the defaults' in online 9D or
online 6D is not eligible; among the eligible ones (the defaults always are) the choice is made on
BROAD by J, and its out-of-sample score is the leave-one-category-out choice among them.
Offline (the smoother's configuration may keep values of its own): the same with the matrix's
offline 9D mean and BROAD's offline 9D total.
Writes research/fusion-rest-bias.md and prints it.

Run from the repository root (a release build; about 15 minutes on two cores with `--jobs 2`, a
few minutes of it the `vqf` package on the matrix the first time):
    swift build -c release --product poise
    python3 research/fusion_rest_bias.py [--poise .build/release/poise] [--jobs 2]
Scores are cached in .build/fusion_rest_bias_*.json (keyed by the binary's hash); the simulated
cells are those of research/fusion_9d_rules.py (.build/fusion_9d_cells/, written once). Needs
numpy and vqf (`pip install numpy vqf`).
"""
import argparse
import importlib.metadata
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_cv import Scores, evaluate, mean, settings_key  # noqa: E402
from fusion_9d_rules import CATEGORIES, VQF, broad_trials, cell_files, write_report  # noqa: E402
from fusion_sensor_matrix import MATRIX, vqf_scores  # noqa: E402

# label → settings; the first is today's defaults.
CANDIDATES = {"%g °/s, %g s%s" % (s, t, note): {"biasSigmaRest": s, "restMinimumTime": t}
              for s, t, note in ((0.01, 1.0, " (defaults)"), (0.01, 1.25, ""), (0.01, 1.5, ""), (0.01, 2.0, ""),
                                 (0.02, 1.0, ""), (0.02, 1.25, ""), (0.02, 1.5, ""), (0.03, 1.0, ""),
                                 (0.03, 1.5, " (VQF's)"), (0.03, 2.0, ""), (0.05, 1.5, ""))}
# estimate → (mode, `evaluate` options, column of [total, heading, inclination])
ESTIMATES = {"9D": ("9d", (), 0), "6D": ("6d", (), 0), "inclination": ("9d", (), 2),
             "offline 9D": ("9d-offline", ("--offline",), 0)}
MODES = {"9d": ("9d", ()), "6d": ("6d", ()), "9d-offline": ("9d", ("--offline",))}


class EstimateScores(Scores):
    """fusion_cv's Scores with an offline mode ("9d-offline": `--mode 9d --offline`)."""

    def compute(self, candidates, modes=tuple(MODES)):
        work = [(mode, s, t) for s in candidates for mode in modes for t in self.trials
                if settings_key(mode, s) + " " + t not in self.cache]
        run = lambda w: evaluate(self.poise, w[2], MODES[w[0]][0], w[1], MODES[w[0]][1])  # noqa: E731
        with ThreadPoolExecutor(self.jobs) as pool:
            for (mode, s, t), r in zip(work, pool.map(run, work)):
                self.cache[settings_key(mode, s) + " " + t] = r
        self.everything = {self.digest: self.cache}
        json.dump(self.everything, open(self.cache_path, "w"))

    def estimate(self, name, s, indices):
        mode, _, column = ESTIMATES[name]
        return self.get(mode, s, column, indices)


def objective(scores, s, vqf, indices):
    """J: the candidate's mean 9D, 6D and inclination over `indices`, each relative to VQF's."""
    return sum(mean(scores.estimate(e, s, indices)) / mean(scores.estimate(e, vqf, indices))
               for e in ("9D", "6D", "inclination"))


def loco(scores, trials, pool, criterion, estimates=ESTIMATES, label=None):
    """Leave-one-category-out: per held-out category the candidate of `pool` with the lowest
    `criterion(s, train indices)`; returns the held-out per-trial values of every estimate and
    the choices (named by `label(s)`, by default the candidate's label in CANDIDATES)."""
    names = [os.path.basename(t)[:2] for t in trials]
    held = {e: [None] * len(trials) for e in estimates}
    picks = {}
    for category, members in CATEGORIES.items():
        test = [i for i, n in enumerate(names) if n in members]
        train = [i for i, n in enumerate(names) if n not in members]
        choice = min(pool, key=lambda s: criterion(s, train))
        picks[category] = label(choice) if label else next(lb for lb, s in CANDIDATES.items() if s == choice)
        for e in estimates:
            for i in test:
                held[e][i] = scores.estimate(e, choice, [i])[0]
    return held, picks


def vqf_matrix(cells, cache_path):
    """The `vqf` package per cell: online 9D, online 6D and offlineVQF 9D total RMSE (cached by
    path and file size)."""
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    out = []
    for _, _, _, rate, path in cells:
        key = "%s %d" % (path, os.path.getsize(path))
        if key not in cache:
            cache[key] = vqf_scores(path, rate, offline=True)
            json.dump(cache, open(cache_path, "w"))
        out.append(cache[key])
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join(".build", "release", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join("research", "fusion-rest-bias.md"))
    options = parser.parse_args()
    trials = broad_trials()
    names = [os.path.basename(t)[:2] for t in trials]
    everyone = range(len(trials))
    candidates = list(CANDIDATES.values())
    defaults = candidates[0]
    broad = EstimateScores(options.poise, trials, os.path.join(".build", "fusion_rest_bias_broad.json"), options.jobs)
    broad.compute(candidates + [VQF])
    cells = cell_files(options.poise, os.path.join(".build", "fusion_9d_cells"), options.jobs)
    allcells = range(len(cells))
    matrix = EstimateScores(options.poise, [c[4] for c in cells], os.path.join(".build", "fusion_rest_bias_matrix.json"),
                            options.jobs)
    matrix.compute(candidates)
    vqf_cells = vqf_matrix(cells, os.path.join(".build", "fusion_rest_bias_vqf.json"))

    per_category = {c: [i for i in everyone if names[i] in m] for c, m in CATEGORIES.items()}
    text = ["# The rest-bias values out of sample", "",
            "Produced by `python3 research/fusion_rest_bias.py` (its docstring gives the protocol). Total and "
            "inclination RMSE in degrees (BROAD metric, rows with movement); VQF is the `vqf` package %s "
            "(`--preset vqf` equals it on BROAD to 1e-10 rad). Every candidate runs with the defaults' other "
            "settings (both 9D rules on, 10-Hz correction step, no output prediction)." % importlib.metadata.version("vqf"),
            "", "## Leave one BROAD category out (15 trials)", "",
            "In-sample means (all 15 trials) and, per category, the mean over its trials:", ""]
    for e in ESTIMATES:
        text += ["### %s" % e, "", "| candidate | all 15 trials | " + " | ".join(CATEGORIES) + " |",
                 "|---" * (len(CATEGORIES) + 2) + "|"]
        rows = ([("VQF (`--preset vqf` settings)", VQF)] if e != "offline 9D" else []) + list(CANDIDATES.items())
        for label, s in rows:
            v = broad.estimate(e, s, everyone)
            text.append("| %s | %.3f | %s |" % (label, mean(v), " | ".join(
                "%.3f" % mean([v[i] for i in idx]) for idx in per_category.values())))
        text.append("")

    criteria = {"J (9D, 6D, inclination vs VQF)": lambda s, idx: objective(broad, s, VQF, idx)}
    criteria.update({"%s alone" % e: (lambda e: lambda s, idx: mean(broad.estimate(e, s, idx)))(e) for e in ESTIMATES})
    text += ["### Held out: chosen without the category, scored on it (pooled over the 15 trials)", "",
             "| chosen by | 9D | 6D | inclination | offline 9D | choices (held-out category → candidate) |",
             "|---|---|---|---|---|---|"]
    vqf_means = [mean(broad.estimate(e, VQF, everyone)) for e in ("9D", "6D", "inclination")]
    text.append("| VQF | %.3f | %.3f | %.3f | | |" % tuple(vqf_means))
    text.append("| the defaults (fixed) | %s | |" % " | ".join(
        "%.3f" % mean(broad.estimate(e, defaults, everyone)) for e in ESTIMATES))
    for label, criterion in criteria.items():
        held, picks = loco(broad, trials, candidates, criterion)
        text.append("| %s | %s | %s |" % (label, " | ".join("%.3f" % mean(held[e]) for e in ESTIMATES),
                                          "; ".join("%s → %s" % kv for kv in picks.items())))
    text.append("")

    columns = ((0, "9D"), (1, "6D"), (2, "offline 9D"))
    text += ["## Simulated sensor matrix (57 cells)", "",
             "Mean over the cells; in parentheses, the cells lower than the defaults; \"lower than VQF\": cells "
             "lower than the `vqf` package (online 9D / online 6D / offlineVQF 9D).", "",
             "| candidate | 9D | 6D | inclination | offline 9D | lower than VQF | " + " | ".join(
                 "%s 9D / 6D" % g for g in MATRIX) + " |", "|---" * (len(MATRIX) + 6) + "|"]
    text.append("| VQF (`vqf` package; offlineVQF) | %.3f | %.3f | | %.3f | | %s |" % (
        mean([v[0] for v in vqf_cells]), mean([v[1] for v in vqf_cells]), mean([v[2] for v in vqf_cells]),
        " | ".join("%.2f / %.2f" % tuple(mean([vqf_cells[i][k] for i in allcells if cells[i][0] == g]) for k in (0, 1))
                   for g in MATRIX)))
    first = {e: matrix.estimate(e, defaults, allcells) for e in ESTIMATES}
    for label, s in CANDIDATES.items():
        v = {e: matrix.estimate(e, s, allcells) for e in ESTIMATES}
        text.append("| %s | %s | %s | %s |" % (
            label, " | ".join("%.3f (%d)" % (mean(v[e]), sum(a < b - 1e-9 for a, b in zip(v[e], first[e])))
                              for e in ESTIMATES),
            " / ".join("%d" % sum(a < b[k] for a, b in zip(v[e], vqf_cells)) for k, e in columns),
            " | ".join("%.2f / %.2f" % tuple(mean([v[e][i] for i in allcells if cells[i][0] == g]) for e in ("9D", "6D"))
                       for g in MATRIX)))
    text.append("")

    # Online: eligible when no worse than the defaults on the matrix's online 9D and 6D means,
    # chosen by J. Offline (the smoother's own configuration may keep other values): eligible
    # when no worse on the matrix's offline 9D mean, chosen by the offline 9D total.
    text += ["## The decision", ""]
    for name, estimates, criterion in (
            ("online", ("9D", "6D"), criteria["J (9D, 6D, inclination vs VQF)"]),
            ("offline", ("offline 9D",), criteria["offline 9D alone"])):
        eligible = [s for s in candidates
                    if all(mean(matrix.estimate(e, s, allcells)) <= mean(first[e]) + 1e-12 for e in estimates)]
        held, picks = loco(broad, trials, eligible, criterion)
        chosen = min(eligible, key=lambda s: criterion(s, everyone))
        label = next(lb for lb, s in CANDIDATES.items() if s == chosen)
        text += ["**%s** (%s)." % (name.capitalize(), "; ".join(
                     ["candidates no worse than the defaults on the matrix's %s mean%s: %s" % (
                         " and ".join(estimates), "s" if len(estimates) > 1 else "",
                         ", ".join(lb for lb, s in CANDIDATES.items() if s in eligible)),
                      "chosen among them without the held-out category: " + ", ".join(
                          "%s → %s" % kv for kv in picks.items()),
                      "chosen on all 15 trials: **%s**, matrix means %s against the defaults' %s" % (
                          label, " / ".join("%.3f" % mean(matrix.estimate(e, chosen, allcells)) for e in estimates),
                          " / ".join("%.3f" % mean(first[e]) for e in estimates))])),
                 "", "| BROAD, 15 trials | 9D | 6D | inclination | offline 9D |", "|---|---|---|---|---|",
                 "| held out (chosen without the category) | %s |" % " | ".join("%.3f" % mean(held[e]) for e in ESTIMATES),
                 "| the defaults | %s |" % " | ".join("%.3f" % mean(broad.estimate(e, defaults, everyone)) for e in ESTIMATES),
                 "| VQF | %.3f | %.3f | %.3f | |" % tuple(vqf_means), ""]
    write_report(options.out, text)


if __name__ == "__main__":
    main()
