"""End-to-end latency of `poise live` on loopback, from a separate sender process.

A sender process sends 9-axis samples as CSV datagrams to `poise live udp://127.0.0.1:PORT
--pipeline fusion:9d --send udp://127.0.0.1:PORT2` at a fixed rate, sleeping to absolute
deadlines (no spinning: each datagram is stamped as it is sent, so the sender's pacing does not
enter the figures); a receiver thread in this process notes when each processed sample comes
back. Reported per rate:
- round trip: send → processed datagram received here (two loopback hops, Python's own
  scheduling included: an upper bound of Poise's part);
- Poise's own per-sample latency from its report (the datagram read from the socket → end of
  the sinks);
- samples lost (sent but not received back), and datagrams Poise's socket dropped in the kernel
  (its report's `kernel_drops`);
- the CPU `poise live` used (user + system time over its run, % of one core) and how long it
  spun polling for datagrams (its report's `spin_s`).

Each rate runs with `poise live`'s default (spinning for datagrams shortly before they are due)
and with `--no-spin`, one after the other (`--spin on|off|both`), so both are measured in the
same minutes.

    python3 Benchmarks/live/latency.py [--poise .build/release/poise] [--seconds 10] [--rates 100 1000] [--spin both]
"""
import argparse, json, math, os, resource, signal, socket, subprocess, sys, threading, time

def percentile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)

def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def run(poise, rate, seconds, spin=True):
    listen, back = free_port(), free_port()
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    receiver.bind(("127.0.0.1", back))
    receiver.settimeout(0.2)
    arrived = {}
    done = threading.Event()

    def receive():
        while not done.is_set():
            try:
                data = receiver.recv(65536)
            except socket.timeout:
                continue
            now = time.monotonic_ns()
            field = data.split(b",", 1)[0]
            try:
                arrived[float(field)] = now
            except ValueError:
                pass   # the header

    thread = threading.Thread(target=receive)
    thread.start()
    process = subprocess.Popen([poise, "live", f"udp://127.0.0.1:{listen}", "--pipeline", "fusion:9d", "--rate", str(rate),
                                "--send", f"udp://127.0.0.1:{back}", "--json"] + ([] if spin else ["--no-spin"]),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    # The sender is its own process (a busy-waiting sender thread would starve this process's
    # receiver of the interpreter lock); both sides stamp with CLOCK_MONOTONIC, shared by processes.
    stamps = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"poise-latency-{os.getpid()}.json")
    subprocess.run([sys.executable, os.path.abspath(__file__), "--sender", str(listen), str(rate), str(seconds), stamps], check=True)
    with open(stamps) as f:
        sent = {float(k): v for k, v in json.load(f).items()}
    os.remove(stamps)
    count = len(sent)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)   # the sender process is already counted
    out, err = process.communicate(timeout=30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    done.set()
    thread.join()
    report = json.loads(out) if out.strip() else {}
    trips = [(arrived[t] - sent[t]) / 1000 for t in sent if t in arrived]
    poise_latency = report.get("latency_ns") or {}
    return {
        "rate_hz": rate, "sent": count, "received": len(trips), "lost": count - len(trips),
        "round_trip_us": {"p50": percentile(trips, 0.5), "p99": percentile(trips, 0.99), "max": max(trips or [float("nan")])},
        "poise_arrival_to_sent_us": {k: poise_latency.get(k, float("nan")) / 1000 for k in ("p50", "p99", "max")},
        "poise_samples": report.get("samples"), "kernel_drops": report.get("kernel_drops"),
        "spin": spin, "spin_s": report.get("spin_s"),
        "cpu_percent": 100 * cpu / report["wall_s"] if report.get("wall_s") else float("nan"),
    }

def send(port, rate, seconds, stamps):
    """The sender process: a header, then one CSV datagram per sample from absolute deadlines;
    writes {t_s: send time in ns} to `stamps`."""
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    target = ("127.0.0.1", port)
    sender.sendto(b"t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT\n", target)
    sent = {}
    count = int(rate * seconds)
    start = time.monotonic_ns() + 1_000_000
    for i in range(count):
        deadline = start + int(i * 1e9 / rate)
        wait = deadline - time.monotonic_ns()
        if wait > 0:
            time.sleep(wait / 1e9)
        t = i / rate
        a = 0.01 * math.sin(t)
        line = f"{t!r},{a},0.0,1.0,0.01,-0.02,0.005,20.0,5.0,-40.0\n".encode()
        sent[repr(t)] = time.monotonic_ns()
        sender.sendto(line, target)
    with open(stamps, "w") as f:
        json.dump(sent, f)

def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--sender":
        send(int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
        return
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--poise", default=os.path.join(here, "..", "..", ".build", "release", "poise"))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rates", type=float, nargs="+", default=[100, 1000])
    parser.add_argument("--spin", choices=["on", "off", "both"], default="both",
                        help="poise live's default (spinning shortly before each datagram), --no-spin, or both in turn")
    args = parser.parse_args()
    modes = {"on": [True], "off": [False], "both": [True, False]}[args.spin]
    for rate in args.rates:
        for spin in modes:
            result = run(args.poise, rate, args.seconds, spin)
            rt, own = result["round_trip_us"], result["poise_arrival_to_sent_us"]
            print(f"{rate:6.0f} Hz, {'spin' if spin else 'no spin'}, {result['sent']} samples: lost {result['lost']}, "
                  f"kernel drops {result['kernel_drops']}; "
                  f"round trip median {rt['p50']:.1f} µs, p99 {rt['p99']:.1f} µs, max {rt['max']:.1f} µs; "
                  f"poise arrival→sent median {own['p50']:.1f} µs, p99 {own['p99']:.1f} µs, max {own['max']:.1f} µs; "
                  f"poise CPU {result['cpu_percent']:.1f} % of a core, spun {result['spin_s'] or 0:.2f} s", flush=True)

if __name__ == "__main__":
    main()
