#!/usr/bin/env python3
"""Two builds of Poise side by side: the CLI's commands on one recording, and benchmark suites.

    # the two builds (release, the same flags), e.g. an earlier commit in a second worktree:
    git worktree add /tmp/poise-old COMMIT
    (cd /tmp/poise-old/Benchmarks && POISE_TARGET_CPU=native swift build -c release --product poise \\
        && POISE_TARGET_CPU=native swift build -c release --product PoiseBenchmarks)
    (cd Benchmarks && POISE_TARGET_CPU=native swift build -c release --product poise \\
        && POISE_TARGET_CPU=native swift build -c release --product PoiseBenchmarks)

    # a recording with truth and a magnetometer, 65 MB (six copies of a BROAD trial), and a
    # still one for `allan` (20 min at 200 Hz, 60 MB):
    python3 Benchmarks/soak/repeat_recording.py \\
        ../shared/data/broad/04_undisturbed_slow_rotation_with_breaks_A.csv /tmp/rec.csv --copies 6
    Benchmarks/.build/release/poise simulate --scenario still --rate 200 --duration 1200 --out /tmp/still.csv

    python3 Benchmarks/scripts/compare_commands.py commands \\
        --old /tmp/poise-old/Benchmarks/.build/release/poise --new Benchmarks/.build/release/poise \\
        --input /tmp/rec.csv --still /tmp/still.csv --pairs 5 [--only fuse,report] [--work /tmp/compare]
    python3 Benchmarks/scripts/compare_commands.py suites \\
        --old /tmp/poise-old/Benchmarks/.build/release/PoiseBenchmarks \\
        --new Benchmarks/.build/release/PoiseBenchmarks --pairs 5 fusion report offline

`commands` runs every command of COMMANDS with each build in turn (old, new, then new, old in
the next pair, so a drift in the machine's load falls on both), timed by /usr/bin/time, and
prints one Markdown row per command: the medians over pairs of wall and user CPU time, the
medians of the per-pair ratios new ÷ old (wall, user), the peak resident memory of each, and
whether the two builds wrote the same bytes (their output file, or their standard output where
the command writes no file). User CPU time is the measure to quote on a shared machine: other
processes lengthen the wall time but hardly the CPU time of the command.

`suites` runs the benchmark executable of each build with the named suites, alternating in the
same way, and prints each measurement's ns/item medians and the median per-pair ratio. A
measurement whose name differs between the builds is listed on its own.

A command whose options differ between the builds takes its old form from OLD_ARGS below.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

# name → arguments after `poise`; {in} is the recording, {still} a still one (`poise allan` needs
# one), {out} a file in the work folder.
COMMANDS = [
    ("fuse", "fuse {in} --mode 9d --out {out}.csv"),
    ("fuse --offline", "fuse {in} --mode 9d --offline --out {out}.csv"),
    ("evaluate", "evaluate {in} --mode 9d --json"),
    ("evaluate --offline", "evaluate {in} --mode 9d --offline --json"),
    ("report", "report {in} --out {out}.html"),
    ("replay --speed max", "replay {in} --speed max --pipeline lowpass:cutoff=5 --out {out}.csv"),
    ("tilt", "tilt {in} --out {out}.csv"),
    ("tilt --frame-rate 60", "tilt {in} --frame-rate 60 --out {out}.csv"),
    ("gyro", "gyro {in} --out {out}.csv"),
    ("remap", "remap {in} --orientation landscapeLeft --out {out}.csv"),
    ("convert", "convert {in} --out {out}.csv"),
    ("spectrum", "spectrum {in} --json"),
    ("allan", "allan {still} --json"),
    ("calibrate gyro", "calibrate gyro {in} --out {out}.json"),
]

# Where the earlier build spells a command differently: name → its arguments there.
OLD_ARGS = {}


def timed(argv, stdout_path):
    """Runs argv under /usr/bin/time; returns (wall s, user s, system s, max RSS kB, exit code)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t, open(stdout_path, "wb") as out:
        code = subprocess.call(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name] + argv,
                               stdout=out, stderr=subprocess.DEVNULL)
        fields = t.read().split()[-4:]
    wall, user, system, rss = (float(x) for x in fields)
    return wall, user, system, rss, code


def same_bytes(a, b):
    if not (os.path.exists(a) and os.path.exists(b)):
        return False
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    return subprocess.call(["cmp", "-s", a, b]) == 0


def commands(a):
    os.makedirs(a.work, exist_ok=True)
    chosen = [c for c in COMMANDS if not a.only or c[0] in a.only.split(",")]
    print("| command | old wall s | new wall s | wall new ÷ old | old user s | new user s | user new ÷ old | old / new RSS MB | same output |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, arguments in chosen:
        runs = {"old": [], "new": []}
        same = True
        for k in range(a.pairs):
            order = ("old", "new") if k % 2 == 0 else ("new", "old")
            for build in order:
                form = OLD_ARGS.get(name, arguments) if build == "old" else arguments
                stem = os.path.join(a.work, "%s-%s" % (re.sub(r"\W+", "_", name), build))
                argv = [getattr(a, build)] + form.replace("{in}", a.input).replace("{still}", a.still).replace("{out}", stem).split()
                result = timed(argv, stem + ".stdout")
                if result[4] != 0:
                    sys.exit("%s failed (exit %d): %s" % (build, result[4], " ".join(argv)))
                runs[build].append(result)
            stem = os.path.join(a.work, re.sub(r"\W+", "_", name))
            written = [p for p in (".csv", ".html", ".json") if os.path.exists(stem + "-new" + p)]
            suffix = written[0] if written else ".stdout"
            same = same and same_bytes(stem + "-old" + suffix, stem + "-new" + suffix)

        def med(build, i):
            return statistics.median(r[i] for r in runs[build])

        def ratio(i):
            return statistics.median(n[i] / o[i] for o, n in zip(runs["old"], runs["new"]) if o[i] > 0)

        print("| `%s` | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f | %.0f / %.0f | %s |" % (
            name, med("old", 0), med("new", 0), ratio(0), med("old", 1), med("new", 1), ratio(1),
            med("old", 3) / 1024, med("new", 3) / 1024, "yes" if same else "no"), flush=True)
        if not a.keep:
            for f in os.listdir(a.work):
                if f.startswith(re.sub(r"\W+", "_", name) + "-"):
                    os.remove(os.path.join(a.work, f))


LINE = re.compile(r"^  (.+?)\s+([0-9.]+) ns/item")


def suite_run(binary, suites):
    """ns/item of every measurement the benchmark executable prints."""
    done = subprocess.run([binary] + suites, capture_output=True, text=True)
    found = {}
    for line in done.stdout.splitlines():
        m = LINE.match(line)
        if m:
            found[m.group(1).strip()] = float(m.group(2))
    return found


def suites(a):
    runs = {"old": [], "new": []}
    for k in range(a.pairs):
        for build in (("old", "new") if k % 2 == 0 else ("new", "old")):
            runs[build].append(suite_run(getattr(a, build), a.suites))
            print("pair %d %s done" % (k + 1, build), file=sys.stderr, flush=True)
    names = list(runs["new"][0]) + [n for n in runs["old"][0] if n not in runs["new"][0]]
    print("| measurement | old ns/item | new ns/item | new ÷ old |")
    print("|---|---:|---:|---:|")
    for name in names:
        old = [r[name] for r in runs["old"] if name in r]
        new = [r[name] for r in runs["new"] if name in r]
        pairs = [n / o for o, n in zip(old, new)] if len(old) == len(new) else []
        print("| %s | %s | %s | %s |" % (
            name, "%.3f" % statistics.median(old) if old else "—", "%.3f" % statistics.median(new) if new else "—",
            "%.3f" % statistics.median(pairs) if pairs else "—"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("commands")
    c.add_argument("--old", required=True)
    c.add_argument("--new", required=True)
    c.add_argument("--input", required=True)
    c.add_argument("--still", required=True, help="a still recording, for allan")
    c.add_argument("--pairs", type=int, default=5)
    c.add_argument("--only", help="comma-separated command names of COMMANDS")
    c.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "poise-compare-commands"))
    c.add_argument("--keep", action="store_true", help="keep the outputs in --work")
    s = sub.add_parser("suites")
    s.add_argument("--old", required=True)
    s.add_argument("--new", required=True)
    s.add_argument("--pairs", type=int, default=5)
    s.add_argument("suites", nargs="+")
    a = p.parse_args()
    commands(a) if a.mode == "commands" else suites(a)


if __name__ == "__main__":
    main()
