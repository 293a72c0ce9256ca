"""Writes a long synthetic Poise CSV (time, acceleration in g, rotation rate in rad/s, optional
magnetic field in µT) for the soak scripts, streaming, in constant memory.

    python3 Benchmarks/soak/make_long_recording.py OUT.csv --minutes 60 --rate 100
    python3 Benchmarks/soak/make_long_recording.py OUT.csv --bytes 2147483648 --rate 200 --magnetometer
"""
import argparse, math, random

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--minutes", type=float)
p.add_argument("--bytes", type=int)
p.add_argument("--rate", type=float, default=100)
p.add_argument("--magnetometer", action="store_true")
a = p.parse_args()
rng = random.Random(1)
header = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps" + (",mag_x_uT,mag_y_uT,mag_z_uT" if a.magnetometer else "")
limit_rows = int(a.minutes * 60 * a.rate) if a.minutes else None
written = 0
with open(a.out, "w") as f:
    f.write(header + "\n")
    n = 0
    chunk = []
    while True:
        if limit_rows is not None and n >= limit_rows: break
        if a.bytes is not None and written >= a.bytes: break
        t = n / a.rate
        # Tilt steps every 5 s with still phases, plus noise.
        phase = (t % 10) < 5
        ax = (0.3 if phase else 0.0) + rng.gauss(0, 0.01)
        row = "%.6f,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f" % (t, ax, rng.gauss(0, 0.01), 0.95 + rng.gauss(0, 0.01),
                                                   rng.gauss(0, 0.02), rng.gauss(0, 0.02), 0.1 * math.sin(t))
        if a.magnetometer:
            row += ",%.3f,%.3f,%.3f" % (20 + rng.gauss(0, 0.3), 5 + rng.gauss(0, 0.3), -40 + rng.gauss(0, 0.3))
        chunk.append(row)
        n += 1
        if len(chunk) == 10000:
            s = "\n".join(chunk) + "\n"; f.write(s); written += len(s); chunk = []
    if chunk:
        s = "\n".join(chunk) + "\n"; f.write(s); written += len(s)
