"""Writes a long recording by repeating a Poise CSV end to end with times that keep increasing
(each copy starts one median interval after the previous one ends), streaming, in constant
memory. Every other column is copied as it is, so a recording with ground truth and a
magnetometer (a BROAD trial) gives a long one that every command can read.

    python3 Benchmarks/soak/repeat_recording.py IN.csv OUT.csv --bytes 2147483648
    python3 Benchmarks/soak/repeat_recording.py IN.csv OUT.csv --copies 5
"""
import argparse, os

p = argparse.ArgumentParser()
p.add_argument("source")
p.add_argument("out")
p.add_argument("--copies", type=int)
p.add_argument("--bytes", type=int, help="repeat until the output holds at least this many bytes")
a = p.parse_args()
if (a.copies is None) == (a.bytes is None):
    p.error("give --copies or --bytes")

with open(a.source) as f:
    header = f.readline()
    rows = [line.rstrip("\n").split(",", 1) for line in f if line.strip()]
times = [float(t) for t, _ in rows]
steps = sorted(b - a for a, b in zip(times, times[1:]) if b > a)
period = steps[len(steps) // 2]
span = times[-1] - times[0] + period
body = os.path.getsize(a.source) - len(header)
copies = a.copies if a.copies is not None else max(1, -(-(a.bytes - len(header)) // body))
with open(a.out, "w") as out:
    out.write(header)
    for k in range(copies):
        shift = k * span
        out.write("".join("%.6f,%s\n" % (t + shift, rest) for t, (_, rest) in zip(times, rows)))
print("%s: %d copies of %d rows, period %.6f s, %d bytes" % (a.out, copies, len(rows), period, os.path.getsize(a.out)))
