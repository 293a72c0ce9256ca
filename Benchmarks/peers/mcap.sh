#!/usr/bin/env bash
# Reading an MCAP file of ROS 2 messages: Poise's McapReader against the `rosbags` and `mcap`
# (+ mcap-ros2-support) Python packages on the same files, in the same run.
#
#   Benchmarks/peers/mcap.sh [BAG]        (MCAP_ROUNDS=N: rounds, default 20)
#
# The files are made in a temporary folder by Tests/Goldens/make_mcap_fixtures.py from a ROS 1 bag
# (default: phidgets_imu_upside_down.bag of ../shared/data/formats/ros1_bag_imu, 13,964 Imu +
# 13,964 MagneticField messages; GPL data, so never kept) as zstd, lz4 and uncompressed chunks.
# The packages are installed from PyPI into .build/mcap-venv (ignored by git). Every side reads
# every sensor_msgs/msg/Imu and MagneticField message and turns it into numbers: Poise through
# `poise info` (which also computes the whole report, so it is an upper bound on the read),
# rosbags through Reader.messages() + deserialize_cdr, mcap through iter_decoded_messages().
# The runs are interleaved: each round reads every file once with every reader, in turn, and
# each (file, reader) keeps its best wall-clock time over the rounds, so a slow spell of the
# machine hits every file alike instead of one file's back-to-back runs. Prints the table of
# BENCHMARKS.md ("Reading MCAP files") and Poise's peak resident memory.
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

"$venv/bin/python" - "$work" "$poise" "$(basename "$bag" .bag)" "${MCAP_ROUNDS:-20}" <<'PY'
import resource, subprocess, sys, time
from pathlib import Path
from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore

work, poise, stem, rounds = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
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
    subprocess.run([poise, 'info', str(path)], check=True, stdout=subprocess.DEVNULL)

kinds = {'zstd': 'zstd', 'lz4': 'lz4', 'none': 'uncompressed'}
readers = {'poise': poise_info, 'rosbags': rosbags_read, 'mcap': mcap_read}
paths = {kind: work / f'{stem}-{kind}.mcap' for kind in kinds}
counts = {}
for kind, path in paths.items():
    counts[kind] = rosbags_read(path)
    assert mcap_read(path) == counts[kind], path
best = {(kind, name): float('inf') for kind in kinds for name in readers}
for _ in range(rounds):
    for kind, path in paths.items():
        for name, read in readers.items():
            t = time.perf_counter(); read(path); elapsed = time.perf_counter() - t
            best[kind, name] = min(best[kind, name], elapsed)

print(f'{counts["none"]:,} Imu + MagneticField messages; best of {rounds} interleaved rounds')
print()
print('| file | poise info | rosbags | mcap | rosbags ÷ Poise | poise ÷ uncompressed | target |')
print('|---|---|---|---|---|---|---|')
for kind, label in kinds.items():
    p, r, m = (best[kind, name] for name in ('poise', 'rosbags', 'mcap'))
    ratio = p / best['none', 'poise']
    size = paths[kind].stat().st_size / 1e6
    print(f'| {label}, {size:.1f} MB | {p * 1000:.0f} ms | {r * 1000:,.0f} ms | {m * 1000:,.0f} ms '
          f'| {r / p:.1f} | {ratio:.2f} | {"" if kind == "none" else "≤ 1.2"} |')
print()
print(f'poise info peak resident memory: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MB')
PY
