#!/usr/bin/env python3
"""Portable builds against the native one, on the hot paths of the peers table, in one run.

    Benchmarks/peers/portable.sh        # builds three PoiseBenchmarks, runs them, writes BENCHMARKS.md

Builds the benchmark program three times (release): for this machine's CPU
(POISE_TARGET_CPU=native, the numbers of the peers table), for x86-64-v3 (`haswell`, what
`make dist` ships) and for plain x86-64 (no POISE_TARGET_CPU: what a SwiftPM package depending on
Poise gets). Then runs the `peers` suite of each on the same 9-axis stream as the peers table,
ROUNDS times, the three builds back to back in each round (in rotating order), and reports per
measurement the median ns/item of each build and the median over rounds of the ratio build ÷
native within the round: the machine is shared, so only ratios between neighbouring runs count.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

import numpy as np

# (name, POISE_TARGET_CPU); see build() for where each builds.
BUILDS = [("native", "native"), ("x86-64-v3", "haswell"), ("x86-64", "")]
# The hot paths of the peers table: (row label, measurement name in PeersSuite.swift).
ROWS = [
    ("CSV ingest into memory", "ingest Recording.load"),
    ("CSV ingest streaming", "ingest RecordingReader streaming"),
    ("one-pole low-pass, 3-axis Float", "one-pole 3-axis Float"),
    ("Butterworth order 4, 3-axis Double", "Butterworth order 4 3-axis Double"),
    ("One Euro, 3-axis Double", "One Euro 3-axis Double"),
    ("9D fusion update, defaults", "fusion 9D update"),
    ("9D fusion update, `fast` preset", "fusion 9D update fast"),
    ("Welch PSD, 3 axes, nperseg 1024", "Welch 3 axes nperseg 1024"),
]
BEGIN, END = "<!-- portable: begin -->", "<!-- portable: end -->"


def make_input(path, samples, rate=100.0):
    """The peers table's stream (Benchmarks/peers/peers.py make_input: same generator and seed)."""
    if os.path.exists(path):
        return
    rng = np.random.default_rng(20261121)
    t = np.arange(samples) / rate
    gyr = np.cumsum(rng.normal(0, 2.0, (samples, 3)), axis=0)
    gyr -= np.linspace(0, 1, samples)[:, None] * gyr[-1]
    gyr = 60 * np.tanh(gyr / 60) + rng.normal(0, 0.3, (samples, 3))
    acc = np.column_stack([0.3 * np.sin(0.5 * t), 0.3 * np.cos(0.31 * t), np.ones(samples)])
    acc += rng.normal(0, 0.01, (samples, 3))
    mag = np.column_stack([20 + 5 * np.sin(0.2 * t), 5 * np.cos(0.2 * t), -40 + np.zeros(samples)])
    mag += rng.normal(0, 0.5, (samples, 3))
    header = "t_s,gyr_x_dps,gyr_y_dps,gyr_z_dps,acc_x_g,acc_y_g,acc_z_g,mag_x_uT,mag_y_uT,mag_z_uT"
    np.savetxt(path + ".tmp", np.column_stack([t, gyr, acc, mag]), fmt="%.6f", delimiter=",",
               header=header, comments="")
    os.replace(path + ".tmp", path)


def build(root, name, cpu):
    # native shares make bench's build (.build), plain x86-64 run.sh's (.build-generic).
    scratch = os.path.join(root, "Benchmarks", ".build" if cpu == "native" else f".build-{cpu or 'generic'}")
    env = dict(os.environ, POISE_TARGET_CPU=cpu)
    command = ["swift", "build", "-c", "release", "--scratch-path", scratch, "--product", "PoiseBenchmarks"]
    print(f"building PoiseBenchmarks for {name}…", file=sys.stderr)
    subprocess.run(command, cwd=os.path.join(root, "Benchmarks"), env=env, check=True,
                   stdout=sys.stderr)
    return os.path.join(scratch, "release", "PoiseBenchmarks")


def run(binary, root, stream):
    env = dict(os.environ, POISE_PEERS_INPUT=stream)
    out = subprocess.run([binary, "peers"], cwd=os.path.join(root, "Benchmarks"), env=env,
                         capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        match = re.match(r"^  (?P<name>\S.*?)\s+(?P<ns>[0-9.]+) ns/item", line)
        if match:
            found[match["name"]] = float(match["ns"])
    return found


def table(results, builds):
    head = ["hot path", "native ns/item"]
    for name, _ in builds[1:]:
        head += [f"{name} ns/item", f"{name} ÷ native"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    worst = {name: 0.0 for name, _ in builds[1:]}
    for label, measurement in ROWS:
        native = [r["native"].get(measurement) for r in results]
        if any(v is None for v in native):
            continue
        cells = [label, f"{statistics.median(native):.3f}"]
        for name, _ in builds[1:]:
            values = [r[name].get(measurement) for r in results]
            ratio = statistics.median(v / n for v, n in zip(values, native))
            worst[name] = max(worst[name], ratio)
            cells += [f"{statistics.median(values):.3f}", f"{ratio:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines), worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", help="the Markdown file whose portable section to replace")
    parser.add_argument("--builds", default=",".join(name for name, _ in BUILDS),
                        help="which builds to compare (native first), e.g. native,x86-64-v3")
    args = parser.parse_args()
    builds = [b for name in args.builds.split(",") for b in BUILDS if b[0] == name]
    assert builds and builds[0][0] == "native", "the first build must be native"
    os.makedirs(args.work, exist_ok=True)
    stream = os.path.join(args.work, f"stream-{args.samples}.csv")
    make_input(stream, args.samples)
    binaries = {name: build(args.root, name, cpu) for name, cpu in builds}
    results = []
    for index in range(args.rounds):
        order = builds[index % len(builds):] + builds[:index % len(builds)]
        results.append({name: run(binaries[name], args.root, stream) for name, _ in order})
        print(f"round {index + 1}/{args.rounds} done", file=sys.stderr)
    body, worst = table(results, builds)
    model = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                           capture_output=True, text=True).stdout.strip()
    section = "\n".join([
        BEGIN,
        f"CPU: {model}, {os.cpu_count()} cores (native = `-target-cpu native` on it). Release builds of "
        f"the `peers` suite on the stream of the table above ({args.samples:,} samples), the "
        f"builds back to back in each of {args.rounds} rounds; ns/item are medians over rounds, the "
        "ratios medians of the per-round ratios (the machine is shared: compare the ratios).",
        "",
        body,
        "",
        "Slowest hot path: " + "; ".join(f"{name} {ratio:.2f}× native" for name, ratio in worst.items()) + ".",
        END,
    ])
    print(section)
    if args.write:
        text = ""
        if os.path.exists(args.write):
            with open(args.write, encoding="utf-8") as file:
                text = file.read()
        if BEGIN in text and END in text:
            text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
        else:
            text = text.rstrip("\n") + "\n\n## Portable builds\n\n" + section + "\n"
        with open(args.write + ".tmp", "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(args.write + ".tmp", args.write)


if __name__ == "__main__":
    main()
