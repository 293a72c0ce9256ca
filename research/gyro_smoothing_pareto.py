#!/usr/bin/env python3
"""The latency/jitter table of docs/games.md: tiered smoothing, one-pole low-pass and One Euro on
real gyroscope recordings, measured by `poise gyro FILE --compare-smoothing` (Poise's own lag and
jitter metrics), summarised over recordings.

    python3 research/gyro_smoothing_pareto.py POISE FILE... > table.md

For every recording, each smoother's jitter is divided by the raw signal's jitter on the same
still segments (so recordings with noisier gyroscopes weigh the same); the table gives, per
smoother, the median lag (ms) and the median jitter ratio over the recordings, and marks the
Pareto front of those medians (no other row has both lower or equal, one lower). Standard library
only.
"""
import csv
import io
import statistics
import subprocess
import sys


def compare(poise, path):
    out = subprocess.run([poise, "gyro", path, "--compare-smoothing"], check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    raw = next(float(r["jitter_degps"]) for r in rows if r["kind"] == "none")
    return raw, rows


def main():
    poise, files = sys.argv[1], sys.argv[2:]
    table = {}
    raws = []
    for path in files:
        raw, rows = compare(poise, path)
        raws.append((path, raw))
        for r in rows:
            key = (r["kind"], r["settings"])
            if r["lag_ms"] == "" or raw == 0:
                continue
            table.setdefault(key, []).append((float(r["lag_ms"]), float(r["jitter_degps"]) / raw,
                                              float(r["slow_step_ms"] or "nan"), float(r["fast_step_ms"] or "nan")))
    summary = []
    for key, values in table.items():
        if len(values) != len(files):
            continue
        summary.append((key, statistics.median(v[0] for v in values), statistics.median(v[1] for v in values),
                        statistics.median(v[2] for v in values), statistics.median(v[3] for v in values)))
    front = set()
    for i, (_, lag, jit, _, _) in enumerate(summary):
        dominated = any(l2 <= lag and j2 <= jit and (l2 < lag or j2 < jit) for k, (_, l2, j2, _, _) in enumerate(summary) if k != i)
        if not dominated:
            front.add(i)
    print(f"Median over {len(files)} recordings (lag on moving segments, jitter on still segments ÷ the raw rate's;"
          " latency to 90 % of a step from rest to a 2 °/s and a 100 °/s turn):\n")
    print("| smoother | settings | lag, ms | jitter ÷ raw | 2 °/s step, ms | 100 °/s step, ms | Pareto (lag, jitter) |")
    print("|---|---|---|---|---|---|---|")
    for i, ((kind, settings), lag, jit, slow, fast) in sorted(enumerate(summary), key=lambda e: (e[1][1], e[1][2])):
        print(f"| {kind} | {settings} | {lag:.1f} | {jit:.3f} | {slow:.1f} | {fast:.1f} | {'front' if i in front else ''} |")
    print("\nRaw jitter of the turn rate on still segments, °/s:\n")
    for path, raw in raws:
        print(f"- {path.split('/')[-1]}: {raw:.4f}")


if __name__ == "__main__":
    main()
