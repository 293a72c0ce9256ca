#!/usr/bin/env bash
# Reading an MCAP file of ROS 2 messages: Poise's McapReader against the `rosbags` and `mcap`
# (+ mcap-ros2-support) Python packages on the same files, in the same run.
#
#   Benchmarks/peers/mcap.sh [BAG]   (MCAP_ROUNDS: poise info's rounds, default 60;
#                                     MCAP_PEER_ROUNDS: the Python readers', default 5)
#
# The files are made in a temporary folder by Tests/Goldens/make_mcap_fixtures.py from a ROS 1 bag
# (default: phidgets_imu_upside_down.bag of ../shared/data/formats/ros1_bag_imu, 13,964 Imu +
# 13,964 MagneticField messages; GPL data, so never kept) as zstd, lz4 and uncompressed chunks.
# The packages are installed from PyPI into .build/mcap-venv (ignored by git). Every side reads
# every sensor_msgs/msg/Imu and MagneticField message and turns it into numbers: Poise through
# `poise info` (which also computes the whole report, so it is an upper bound on the read),
# rosbags through Reader.messages() + deserialize_cdr, mcap through iter_decoded_messages().
# The runs are interleaved: for each reader, each round reads the three files once, in turn, and
# each file keeps its best wall-clock time over the rounds, so a slow spell of the machine hits
# every file alike instead of one file's back-to-back runs (Poise's three runs of a round follow
# each other within a few tenths of a second, not seconds of Python reading apart). Prints the table of BENCHMARKS.md
# ("Reading MCAP files") and Poise's peak resident memory. The ratios are of CPU time (user +
# system; poise info's from its process, the Python readers' from this one), which other
# processes on the machine do not inflate; wall times are printed beside them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bag=${1:-$root/../shared/data/formats/ros1_bag_imu/phidgets_imu_upside_down.bag}
venv=$root/.build/mcap-venv
[[ -x $venv/bin/python ]] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet rosbags==0.11.9 mcap==1.6.0 mcap-ros2-support==0.6.0 zstandard lz4; }
export POISE_TARGET_CPU=${POISE_TARGET_CPU:-native}
(cd "$root" && swift build -c release --product poise >/dev/null)
poise=$root/.build/release/poise
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$root/Tests/Goldens/make_mcap_fixtures.py" "$bag" "$work" 0 >/dev/null

"$venv/bin/python" - "$work" "$poise" "$(basename "$bag" .bag)" "${MCAP_ROUNDS:-60}" "${MCAP_PEER_ROUNDS:-5}" <<'PY'
import os, subprocess, sys, time
from pathlib import Path
from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore

work, poise, stem = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
rounds, peer_rounds = int(sys.argv[4]), int(sys.argv[5])
store = get_typestore(Stores.ROS2_HUMBLE)
wanted = {'sensor_msgs/msg/Imu', 'sensor_msgs/msg/MagneticField'}

def rosbags_read(path):
    n = 0
    with Reader(path) as reader:
        for connection, _, raw in reader.messages():
            if connection.msgtype in wanted:
                store.deserialize_cdr(raw, connection.msgtype)
                n += 1
    return n

def mcap_read(path):
    n = 0
    with open(path, 'rb') as f:
        for schema, _, _, _ in make_reader(f, decoder_factories=[DecoderFactory()]).iter_decoded_messages():
            n += schema.name in wanted
    return n

def poise_info(path):
    """poise info's CPU time (user + system, s): other processes on the machine do not inflate it."""
    child = subprocess.Popen([poise, 'info', str(path)], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, path
    child.returncode = 0
    return usage.ru_utime + usage.ru_stime

kinds = {'zstd': 'zstd', 'lz4': 'lz4', 'none': 'uncompressed'}
paths = {kind: work / f'{stem}-{kind}.mcap' for kind in kinds}
counts = {}
for kind, path in paths.items():
    counts[kind] = rosbags_read(path)
    assert mcap_read(path) == counts[kind], path

def interleaved(read, rounds):
    """Best wall and CPU time per file over `rounds` rounds, each reading every file once in turn.
    The CPU time is what `read` returns when it is a float (a child's), else this process's."""
    wall = {kind: float('inf') for kind in kinds}
    cpu = dict(wall)
    for _ in range(rounds):
        for kind, path in paths.items():
            t, c = time.perf_counter(), time.process_time()
            value = read(path)
            elapsed, used = time.perf_counter() - t, time.process_time() - c
            wall[kind] = min(wall[kind], elapsed)
            cpu[kind] = min(cpu[kind], value if isinstance(value, float) else used)
    return wall, cpu

def peak_rss_mb(path):
    """poise info's peak resident memory, measured by /usr/bin/time (a child of Python starts as a
    copy of it, which its own maximum would count)."""
    out = subprocess.run(['/usr/bin/time', '-f', '%M', poise, 'info', str(path)], check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    return int(out.split()[-1]) / 1024

p, pc = interleaved(poise_info, rounds)
r, rc = interleaved(rosbags_read, peer_rounds)
m, mc = interleaved(mcap_read, peer_rounds)

print(f'{counts["none"]:,} Imu + MagneticField messages; poise info best of {rounds} rounds, '
      f'rosbags and mcap best of {peer_rounds}, each round reading the three files in turn')
print()
print('CPU time (user + system) of each reader, its best over the rounds; wall time in brackets')
print()
print('| file | poise info | rosbags | mcap | rosbags ÷ Poise | mcap ÷ Poise | poise ÷ uncompressed | target |')
print('|---|---|---|---|---|---|---|---|')
for kind, label in kinds.items():
    size = paths[kind].stat().st_size / 1e6
    print(f'| {label}, {size:.1f} MB | {pc[kind] * 1000:.0f} ms ({p[kind] * 1000:.0f}) '
          f'| {rc[kind] * 1000:,.0f} ms ({r[kind] * 1000:,.0f}) | {mc[kind] * 1000:,.0f} ms ({m[kind] * 1000:,.0f}) '
          f'| {rc[kind] / pc[kind]:.1f} | {mc[kind] / pc[kind]:.1f} | {pc[kind] / pc["none"]:.2f} '
          f'| {"" if kind == "none" else "≤ 1.2"} |')
print()
print('poise info peak resident memory: ' + ', '.join(f'{kinds[k]} {peak_rss_mb(path):.0f} MB' for k, path in paths.items()))
PY
