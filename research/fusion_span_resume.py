#!/usr/bin/env python3
"""Why the disturbed-span rule (`magneticDisturbanceSpans=earth-fixed`) costs BROAD trials 26
(vibration) and 34 (attached magnet): the readings it removes, or the passes' behaviour when the
magnetometer comes back after a span.

Per trial, `poise fuse --mode 9d --offline` with the rule off and earth-fixed (the smoother's
other settings as they are):
1. The spans: the rows (0-based, first and last) the rule finds with earth-fixed (SPANS below,
   read from `DeviceMotionSmoother.disturbedSpans` on these trials), checked here: the recording
   with their readings blanked in a copy, rule off, must give the earth-fixed output exactly.
2. The readings in each span and in the recording, turned into ENU by the true attitude (gt_q*):
   norm and dip against the recording's medians, and the field's azimuth (° east of the
   recording's median direction) — how far the removed readings are from the others.
3. Per second, the heading error (°, estimate · truth⁻¹ about the vertical, rows with movement)
   of both, and the second's share of the difference of the squared total errors (the 9D total
   RMSE's change).
4. The gap alone: the same recording with the span's readings blanked (0, no reading) in a copy,
   rule off (equal to earth-fixed when the spans are right), and with a gap of the same samples
   moved to other times (±3 s, ±6 s: readings the rule keeps), whose cost is the resume's and
   the lost readings' where nothing is disturbed.
5. The estimator settings that govern re-acceptance after a gap and rejection (`--set`, both
   the rule off and earth-fixed): the cost with each.

Writes research/fusion-span-resume.md and prints it. Run from the repository root with a release
build (`cd Benchmarks && swift build -c release --product poise`):
    python3 research/fusion_span_resume.py --poise Benchmarks/.build/release/poise [--jobs 2]
Needs numpy.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Goldens"))
from fusion_forward_backward import CONJUGATE, product  # noqa: E402

# The rule's spans (earth-fixed, rest share 0.5): first and last row, 0-based.
SPANS = {"26": [(21077, 21361)], "34": [(12730, 13418), (26856, 27217), (27466, 27973), (28356, 28644)]}
TRIALS = tuple(SPANS)
EARTH_FIXED = ["magneticDisturbanceSpans=earth-fixed"]
# Every run starts from the smoother's settings this study was made with (spans off, every span
# kept, the passes' rejection time 60 s); a run's own settings come after them (the last wins).
BASE = ["magneticDisturbanceSpans=off", "magneticDisturbanceMinimumSpanTime=0", "magneticMaximumRejectionTime=60"]
SETTINGS = {"as they are": [],
            "carryMagneticReference=true": ["carryMagneticReference=true"],
            "magneticNewFieldMinimumRate=0": ["magneticNewFieldMinimumRate=0"],
            "magneticNewFieldTime=5": ["magneticNewFieldTime=5"],
            "magneticMaximumRejectionTime=0": ["magneticMaximumRejectionTime=0"],
            "magneticRejectionFactor=1": ["magneticRejectionFactor=1"],
            "magneticDisturbanceRejection=false": ["magneticDisturbanceRejection=false"]}
SHIFTS = (-6, -3, 3, 6)


def trial_path(trial):
    found = glob.glob(os.path.join("..", "shared", "data", "broad", trial + "_*.csv"))
    if not found:
        sys.exit("no BROAD trial %s in ../shared/data/broad" % trial)
    return found[0]


class Run:
    """`poise fuse PATH --mode 9d --offline` with settings: per row the heading error (°), total
    error (°) and the magnetic-disturbance flag."""

    def __init__(self, poise, path, settings, truth, scratch, tag):
        out = os.path.join(scratch, "fused_" + tag + ".csv")
        args = [poise, "fuse", path, "--mode", "9d", "--offline", "--out", out]
        for s in BASE + list(settings):
            args += ["--set", s]
        subprocess.run(args, check=True, capture_output=True)
        o = np.genfromtxt(out, delimiter=",", names=True)
        q = np.stack([o["att_qw"], o["att_qx"], o["att_qy"], o["att_qz"]], 1)
        self.attitude = q
        e = product(q, truth * CONJUGATE)
        self.heading = (np.degrees(2 * np.arctan2(e[:, 3], e[:, 0])) + 180) % 360 - 180
        self.total = np.degrees(2 * np.arccos(np.minimum(1, np.abs(e[:, 0]))))
        self.flags = o["mag_disturbance"] > 0.5


def blanked(path, rows, scratch, tag, fill=None):
    """A copy of `path` whose magnetometer cells are 0 (no reading) in `rows` (a mask), or the
    rows of `fill` (µT, device frame, one per row) there."""
    out = os.path.join(scratch, tag + ".csv")
    with open(path) as f, open(out, "w") as g:
        header = f.readline()
        g.write(header)
        names = header.strip().split(",")
        columns = [names.index(c) for c in ("mag_x_uT", "mag_y_uT", "mag_z_uT")]
        for i, (line, blank) in enumerate(zip(f, rows)):
            if blank:
                cells = line.rstrip("\n").split(",")
                for j, c in enumerate(columns):
                    cells[c] = "0" if fill is None else "%.7g" % fill[i, j]
                line = ",".join(cells) + "\n"
            g.write(line)
    return out


def turn(q, v):
    """v (rows) turned by the unit quaternions q (rows, w x y z)."""
    w, u = q[:, :1], q[:, 1:]
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


def turned_north(m, q, north):
    """Each reading of `m` (device frame) turned about the vertical of the attitude `q` (device →
    ENU) so that its horizontal part points `north` (° east of +y): norm and dip kept."""
    e = turn(q, m)
    angle = np.radians(north) - np.arctan2(e[:, 0], e[:, 1])
    c, s = np.cos(angle), np.sin(angle)
    e = np.stack([c * e[:, 0] + s * e[:, 1], -s * e[:, 0] + c * e[:, 1], e[:, 2]], 1)
    return turn(q * CONJUGATE, e)


def runs_of(mask):
    """(first, last) indices of each run of True."""
    edges = np.flatnonzero(np.diff(np.r_[0, mask.astype(int), 0]))
    return list(zip(edges[::2], edges[1::2] - 1))


def rmse(run, scored):
    return float(np.sqrt(np.mean(run.total[scored] ** 2)))


def study(poise, trial, jobs, scratch):
    path = trial_path(trial)
    o = np.genfromtxt(path, delimiter=",", names=True)
    t = o["t_s"]
    truth = np.stack([o["gt_qw"], o["gt_qx"], o["gt_qy"], o["gt_qz"]], 1)
    scored = (o["movement"] == 1) & np.isfinite(truth).all(1)
    m = np.stack([o["mag_x_uT"], o["mag_y_uT"], o["mag_z_uT"]], 1)

    def fused(args):
        settings, tag, source = args
        return Run(poise, source or path, settings, truth, scratch, "%s_%s" % (trial, tag))

    spans = np.zeros(len(t), bool)
    for a, b in SPANS[trial]:
        spans[a:b + 1] = True
    with ThreadPoolExecutor(jobs) as pool:
        off, earth = pool.map(fused, [([], "off", None), (EARTH_FIXED, "ef", None)])
        shifted = {}
        period = float(np.median(np.diff(t)))
        for s in SHIFTS:
            k = int(round(s / period))
            mask = np.roll(spans, k)
            if k > 0:
                mask[:k] = False
            else:
                mask[k:] = False
            shifted[s] = mask & ~spans
        copies = [([], "blank", blanked(path, spans, scratch, trial + "_blank"))] + [
            ([], "shift%+d" % s, blanked(path, mask, scratch, "%s_shift%+d" % (trial, s))) for s, mask in shifted.items()]
        blank_runs = list(pool.map(fused, copies))
        # The readings kept but their heading turned: to the off estimate's north (no heading
        # information against it) or to the true north of the recording's field (right).
        neutral = turned_north(m, off.attitude, 0.0)
        truth_ok = np.isfinite(truth).all(1)
        e = turn(np.where(truth_ok[:, None], truth, [1.0, 0, 0, 0]), m)
        field_north = np.degrees(np.angle(np.mean(np.exp(1j * np.arctan2(e[truth_ok, 0], e[truth_ok, 1])))))
        right = turned_north(m, np.where(truth_ok[:, None], truth, off.attitude), field_north)
        fills = [([], "neutral%d" % i, blanked(path, mask, scratch, "%s_neutral%d" % (trial, i), neutral))
                 for i, mask in enumerate([spans] + list(shifted.values()))]
        fills.append(([], "right", blanked(path, spans, scratch, trial + "_right", right)))
        fill_runs = list(pool.map(fused, fills))
        sweep = list(pool.map(fused, [(s + extra, "%s_%d" % (tag, i), None) for i, s in enumerate(SETTINGS.values())
                                      for extra, tag in (([], "off"), (EARTH_FIXED, "ef"))]))

    lines = ["## Trial %s (`%s`)" % (trial, os.path.basename(path)), ""]
    base_off, base_ef = rmse(off, scored), rmse(earth, scored)
    lines.append("9D total RMSE: off %.4f°, earth-fixed %.4f° (%+.4f°)." % (base_off, base_ef, base_ef - base_off))
    lines.append("")

    # 2. The readings in the spans.
    w, u = truth[:, :1], truth[:, 1:]
    enu = m + 2 * np.cross(u, np.cross(u, m) + w * m)
    norm = np.linalg.norm(enu, axis=1)
    dip = np.degrees(np.arctan2(enu[:, 2], np.hypot(enu[:, 0], enu[:, 1])))
    azimuth = np.degrees(np.arctan2(enu[:, 0], enu[:, 1]))
    valid = np.isfinite(norm) & (norm > 0)
    median_norm, median_dip = np.median(norm[valid]), np.median(dip[valid])
    median_azimuth = np.degrees(np.angle(np.mean(np.exp(1j * np.radians(azimuth[valid])))))
    off_azimuth = (azimuth - median_azimuth + 180) % 360 - 180
    lines += ["Readings in ENU by the true attitude (rows with a true attitude), against the recording's medians "
              "(norm %.1f µT, dip %.1f°, azimuth by the circular mean): mean (5th–95th percentile)." % (median_norm, median_dip), "",
              "| readings | time, s | samples | norm − median, % | dip − median, ° | azimuth − mean, ° |", "|---|---|---|---|---|---|"]

    def describe(sel):
        sel = sel & valid
        if not sel.any():
            return "— | — | —"
        parts = []
        for x in (100 * (norm[sel] / median_norm - 1), dip[sel] - median_dip, off_azimuth[sel]):
            parts.append("%+.1f (%+.1f … %+.1f)" % (x.mean(), np.percentile(x, 5), np.percentile(x, 95)))
        return " | ".join(parts)

    span_runs = runs_of(spans)
    for a, b in span_runs:
        sel = np.zeros(len(t), bool)
        sel[a:b + 1] = True
        lines.append("| span | %.2f–%.2f | %d | %s |" % (t[a], t[b], b - a + 1, describe(sel)))
    lines.append("| all in motion | | %d | %s |" % ((valid & scored).sum(), describe(scored)))
    lines.append("")

    # 3. Per second around the spans.
    count = scored.sum()
    seconds = np.floor(t).astype(int)
    rows = []
    for s in np.unique(seconds):
        sel = (seconds == s) & scored
        if not sel.any():
            continue
        share = (np.sum(earth.total[sel] ** 2) - np.sum(off.total[sel] ** 2)) / count
        rows.append((s, share, off.heading[sel].mean(), earth.heading[sel].mean(), spans[seconds == s].mean()))
    change = sum(r[1] for r in rows)
    lines += ["Per second (rows with movement): mean heading error (°) off / earth-fixed, and the second's share of the "
              "change of the mean squared total error (%.4f °² in all; the RMSE's change is its square root's). "
              "Seconds whose share is at least 3 %% of the largest, and the seconds of the spans:" % change, "",
              "| second | share, °² | heading off | heading earth-fixed | difference | in a span |", "|---|---|---|---|---|---|"]
    largest = max(abs(r[1]) for r in rows)
    in_span = {int(np.floor(t[i])) for a, b in span_runs for i in (a, b)}
    for s, share, h_off, h_ef, sp in rows:
        if abs(share) >= 0.03 * largest or s in in_span:
            lines.append("| %d | %+.5f | %+.3f | %+.3f | %+.3f | %.2f |" % (s, share, h_off, h_ef, h_ef - h_off, sp))
    before = sum(r[1] for r in rows if r[0] < min(t[a] for a, _ in span_runs)) if span_runs else 0
    longest = max(runs_of(off.flags), key=lambda r: r[1] - r[0])
    lines += ["", "Of the change, %.4f °² (%.0f %%) is before the first span's start. Rule off, the output (forward) pass "
              "flags `magneticDisturbance` on every row from %.2f to %.2f s (its longest run: it has not accepted a "
              "reference field there)." % (before, 100 * before / change if change else 0, t[longest[0]], t[longest[1]]), ""]

    # 4. The gap alone.
    blank = blank_runs[0]
    same = np.array_equal(blank.attitude, earth.attitude, equal_nan=True)
    lines += ["The spans' readings blanked in a copy, rule off: %.4f° (%s earth-fixed's %.4f°). The same samples at other "
              "times (readings the rule keeps), and each gap's readings kept but turned about the vertical (norm and dip "
              "as they are, so the online disturbance test sees the same field): to the off estimate's north (no heading "
              "information against it, no gap) and, in the spans, to the field's true north (the mean direction by the "
              "true attitude). 9D total RMSE, rule off, against off on the recording:" % (
                  rmse(blank, scored), "equal to" if same else "not equal to", base_ef), "",
              "| samples | rows | blanked | turned to the estimate's north | turned to true north |", "|---|---|---|---|---|"]
    names = ["the spans"] + ["the spans moved %+d s" % x for x in shifted]
    masks = [spans] + list(shifted.values())
    for i, (name, mask) in enumerate(zip(names, masks)):
        b, f = rmse(blank_runs[i], scored), rmse(fill_runs[i], scored)
        right = "%.4f (%+.4f)" % (rmse(fill_runs[-1], scored), rmse(fill_runs[-1], scored) - base_off) if i == 0 else ""
        lines.append("| %s | %d | %.4f (%+.4f) | %.4f (%+.4f) | %s |" % (name, mask.sum(), b, b - base_off, f, f - base_off, right))
    lines.append("")

    # 5. The settings of re-acceptance and rejection.
    lines += ["Re-acceptance and rejection settings (`--set`, with the rule off and earth-fixed):", "",
              "| settings | off | earth-fixed | cost |", "|---|---|---|---|"]
    for i, name in enumerate(SETTINGS):
        a, b = rmse(sweep[2 * i], scored), rmse(sweep[2 * i + 1], scored)
        lines.append("| %s | %.4f | %.4f | %+.4f |" % (name, a, b, b - a))
    costs = [rmse(sweep[2 * i + 1], scored) - rmse(sweep[2 * i], scored) for i in range(len(SETTINGS))]
    gaps = [rmse(r, scored) - base_off for r in blank_runs[1:]]
    turned = rmse(fill_runs[0], scored) - base_off
    lines += ["", "In short: the rule's cost %+.4f°; with the settings above %+.4f° … %+.4f°; the same gap at other times "
              "%+.4f° … %+.4f°; the spans' readings kept without their heading (turned to the estimate's north) %+.4f°." % (
                  base_ef - base_off, min(costs), max(costs), min(gaps), max(gaps), turned), ""]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--poise", default=os.path.join("Benchmarks", ".build", "release", "poise"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join("research", "fusion-span-resume.md"))
    options = parser.parse_args()
    text = ["# The disturbed-span rule on BROAD trials 26 and 34: the readings or the resume", "",
            "Produced by `python3 research/fusion_span_resume.py --poise Benchmarks/.build/release/poise --jobs 2` "
            "(its docstring gives the protocol). Degrees; 9D total RMSE as research/fusion_offline_disturbance.py scores it.", ""]
    with tempfile.TemporaryDirectory() as scratch:
        for trial in TRIALS:
            text += study(options.poise, trial, options.jobs, scratch)
    text += ["## Reading", "",
             "Trial 26: the cost is the readings, not the resume. Kept without their heading (no gap), the span's "
             "readings cost as much as blanked; the same gap at other times of the stretch costs about as much; no "
             "re-acceptance or rejection setting removes it, the online test off included. The readings the rule "
             "removes are, by the true attitude, within the online test's norm and dip thresholds, and pull the "
             "heading towards the truth (the earth-fixed heading error is more negative from the span backwards to "
             "the start of the motion, the backward pass's side) in a stretch where the output pass, rule off, has "
             "not yet accepted a reference field and so corrects little: there every second of readings the "
             "backward pass reads counts.", "",
             "Trial 34: the spans hold the cheapest readings to lose (the same gaps moved by 3 or 6 s cost far more), "
             "and the cost's sign follows the rejection settings. Its net is the sum of heading offsets of both signs "
             "that stay constant through stretches where the output pass flags every reading and only the gyroscope "
             "carries the heading. (Its readings carry the magnet's offset, which the turn about the vertical moves "
             "too, so the turned columns are no clean test there.)", ""]
    tmp = options.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(text) + "\n")
    os.replace(tmp, options.out)
    print("\n".join(text))


if __name__ == "__main__":
    main()
