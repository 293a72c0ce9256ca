#!/usr/bin/env python3
"""Peer timing for the `ingest` benchmark suite (Benchmarks/Sources/PoiseBenchmarks/IngestSuite.swift).

    python3 Benchmarks/scripts/bench_ingest.py generate FILE [ROWS]   # write the synthetic file (same bytes as the suite's)
    python3 Benchmarks/scripts/bench_ingest.py pandas FILE [RUNS]     # median seconds of pandas.read_csv(engine="c")

The suite generates the file in a temporary folder, times Poise's reader on it, calls this script's
`pandas` mode on the same file in the same run, and prints the ratio. The file is never committed.
Output of `pandas` mode: one line `pandas_seconds <median wall> rows <n> version <v> cpu_seconds <median CPU>`.
"""
import math
import statistics
import sys
import time

HEADER = "t_s,gyr_x_dps,gyr_y_dps,gyr_z_dps,acc_x_g,acc_y_g,acc_z_g,mag_x_uT,mag_y_uT,mag_z_uT"


def row_values(i):
    """Deterministic 9-axis stream at 100 Hz; must match syntheticRow in IngestSuite.swift."""
    t = i / 100.0
    gyro = [120.0 * math.sin(0.7 * t + k) + ((i * (7 + k)) % 13) * 0.0137 for k in range(3)]
    acc = [0.6 * math.cos(0.3 * t + k) + ((i * (5 + k)) % 11) * 0.00091 for k in range(3)]
    mag = [40.0 * math.sin(0.05 * t + 2 * k) + ((i * (3 + k)) % 7) * 0.071 for k in range(3)]
    return t, gyro, acc, mag


def generate(path, rows):
    with open(path, "w") as f:
        f.write(HEADER + "\n")
        for i in range(rows):
            t, g, a, m = row_values(i)
            f.write("%.3f,%.4f,%.4f,%.4f,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f\n" % (t, *g, *a, *m))


def time_pandas(path, runs):
    # The target is single-threaded: pandas 3.1 parses with a second native thread (0.25 s wall,
    # 0.47 s CPU per 1M rows here), so pin the process, and every thread it starts, to one core.
    import os
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    import pandas
    times = []
    cpu = []
    rows = 0
    pandas.read_csv(path, engine="c")  # warm-up (page cache, imports)
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        frame = pandas.read_csv(path, engine="c")
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        rows = len(frame)
    print("pandas_seconds %.6f rows %d version %s cpu_seconds %.6f"
          % (statistics.median(times), rows, pandas.__version__, statistics.median(cpu)))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        generate(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000)
    elif len(sys.argv) >= 3 and sys.argv[1] == "pandas":
        time_pandas(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 5)
    else:
        print(__doc__)
        sys.exit(2)
