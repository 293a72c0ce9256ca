#!/usr/bin/env python3
"""Fusion defaults from evidence: every configuration of a small grid on every BROAD trial in
../shared/data/broad (6D and 9D, `poise evaluate --json`), then leave-one-trial-out
cross-validation: for each trial, the configuration with the lowest mean total error on the
other 14 is chosen and judged on the held-out trial. Prints the out-of-sample mean of that
procedure next to fixed configurations (Poise's defaults, VQF's), so a default is kept only if it
wins on trials it was not chosen on.

Run from the repository root after `swift build -c release --product poise`:
    python3 scripts/fusion_defaults_cv.py [--poise .build/release/poise] [--jobs 2] [--cache FILE]
The grid results are cached in a JSON file (default .build/fusion_cv_cache.json) so a rerun
only computes new configurations.
"""
import argparse
import glob
import itertools
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

GRID = {
    "correctionRate": [0, 5, 10],
    "biasSigmaRest": [0.01, 0.03],
    "restMinimumTime": [1.0, 1.5],
    "accelerometerTimeConstant": [2.0, 3.0, 4.5],
    "magnetometerTimeConstant": [6.0, 9.0, 14.0, 20.0, 30.0],
}
NAMED = {
    "Poise defaults": {},
    "VQF (defaults, every sample)": {"correctionRate": 0, "biasSigmaRest": 0.03, "restMinimumTime": 1.5},
}


def key(mode, settings):
    return mode + " " + " ".join("%s=%g" % kv for kv in sorted(settings.items()))


def evaluate(poise, path, mode, settings):
    args = [poise, "evaluate", path, "--mode", mode, "--json"]
    for name, value in sorted(settings.items()):
        args += ["--set", "%s=%g" % (name, value)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return [d["total_rmse_deg"], d["heading_rmse_deg"], d["inclination_rmse_deg"]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=".build/release/poise")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", default=".build/fusion_cv_cache.json")
    options = parser.parse_args()
    trials = sorted(glob.glob(os.path.join("..", "shared", "data", "broad", "*.csv")))
    names = [os.path.basename(t)[:2] for t in trials]
    cache = json.load(open(options.cache)) if os.path.exists(options.cache) else {}

    configs = {"6d": [], "9d": []}
    for values in itertools.product(*GRID.values()):
        settings = dict(zip(GRID.keys(), values))
        configs["9d"].append(settings)
        if settings["magnetometerTimeConstant"] == 9.0:       # no effect on 6D
            configs["6d"].append({k: v for k, v in settings.items() if k != "magnetometerTimeConstant"})
    for mode in configs:
        configs[mode] += list(NAMED.values())

    work = [(mode, s, t) for mode in configs for s in configs[mode] for t in trials
            if key(mode, s) + " " + t not in cache]
    with ThreadPoolExecutor(options.jobs) as pool:
        for (mode, s, t), result in zip(work, pool.map(lambda w: evaluate(options.poise, w[2], w[0], w[1]), work)):
            cache[key(mode, s) + " " + t] = result
    os.makedirs(os.path.dirname(options.cache) or ".", exist_ok=True)
    json.dump(cache, open(options.cache, "w"))

    def errors(mode, s, column=0):
        return [cache[key(mode, s) + " " + t][column] for t in trials]

    def mean(xs):
        return sum(xs) / len(xs)

    for mode in ("9d", "6d"):
        print("\n## %s (mean over %d trials; total / heading / inclination, degrees)" % (mode.upper(), len(trials)))
        print("| configuration | total | heading | inclination | worst trial vs VQF |")
        print("|---|---|---|---|---|")
        vqf = errors(mode, NAMED["VQF (defaults, every sample)"])
        for label, s in NAMED.items():
            e = [errors(mode, s, c) for c in range(3)]
            worst = max(a / b for a, b in zip(e[0], vqf))
            print("| %s | %.3f | %.3f | %.3f | %+.1f %% |" % (label, mean(e[0]), mean(e[1]), mean(e[2]), 100 * (worst - 1)))
        # Leave-one-trial-out: choose on 14, judge on the 15th.
        held = [[], [], []]
        chosen = []
        for i in range(len(trials)):
            best = min(configs[mode], key=lambda s: mean([x for j, x in enumerate(errors(mode, s)) if j != i]))
            chosen.append(best)
            for c in range(3):
                held[c].append(errors(mode, best, c)[i])
        print("| cross-validated choice (tuned on 14, judged on the 15th) | %.3f | %.3f | %.3f | %+.1f %% |"
              % (mean(held[0]), mean(held[1]), mean(held[2]), 100 * (max(a / b for a, b in zip(held[0], vqf)) - 1)))
        # The schedule question: cross-validation within each correction rate's sub-grid.
        for rate in GRID["correctionRate"]:
            sub = [s for s in configs[mode] if s.get("correctionRate", 5) == rate]
            held_rate = [[], [], []]
            for i in range(len(trials)):
                best = min(sub, key=lambda s: mean([x for j, x in enumerate(errors(mode, s)) if j != i]))
                for c in range(3):
                    held_rate[c].append(errors(mode, best, c)[i])
            print("| cross-validated within correctionRate=%g | %.3f | %.3f | %.3f | %+.1f %% |"
                  % (rate, mean(held_rate[0]), mean(held_rate[1]), mean(held_rate[2]),
                     100 * (max(a / b for a, b in zip(held_rate[0], vqf)) - 1)))
        best_all = min(configs[mode], key=lambda s: mean(errors(mode, s)))
        e = [errors(mode, best_all, c) for c in range(3)]
        print("| best on all 15 (in-sample, optimistic) | %.3f | %.3f | %.3f | %+.1f %% |"
              % (mean(e[0]), mean(e[1]), mean(e[2]), 100 * (max(a / b for a, b in zip(e[0], vqf)) - 1)))
        print("\nchoice per held-out trial: " + "; ".join("%s: %s" % (n, ",".join("%s=%g" % kv for kv in sorted(s.items())))
                                                          for n, s in zip(names, chosen)))
        print("best on all 15: " + ", ".join("%s=%g" % kv for kv in sorted(best_all.items())))
        print("\nper trial, total (Poise defaults / VQF): " + "  ".join(
            "%s %.2f/%.2f" % (n, a, b) for n, a, b in zip(names, errors(mode, NAMED["Poise defaults"]), vqf)))


if __name__ == "__main__":
    main()
