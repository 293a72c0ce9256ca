#!/usr/bin/env bash
# Reading an MCAP file of ROS 2 messages: Poise's McapReader against the `rosbags` and `mcap`
# (+ mcap-ros2-support) Python packages on the same files, in the same run.
#
#   Benchmarks/peers/mcap.sh [BAG]
#
# The files are made in a temporary folder by Tests/Goldens/make_mcap_fixtures.py from a ROS 1 bag
# (default: phidgets_imu_upside_down.bag of ../shared/data/formats/ros1_bag_imu, 13,964 Imu +
# 13,964 MagneticField messages; GPL data, so never kept) as zstd, lz4 and uncompressed chunks.
# The packages are installed from PyPI into .build/mcap-venv (ignored by git). Every side reads
# every sensor_msgs/msg/Imu and MagneticField message and turns it into numbers: Poise through
# `poise info` (which also computes the whole report, so it is an upper bound on the read),
# rosbags through Reader.messages() + deserialize_cdr, mcap through iter_decoded_messages().
# Best of 5 wall-clock runs each.
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

"$venv/bin/python" - "$work" "$poise" "$(basename "$bag" .bag)" <<'PY'
import subprocess, sys, time
from pathlib import Path
from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore

work, poise, stem = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
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

def best(f, path):
    times = []
    for _ in range(5):
        t = time.perf_counter(); f(path); times.append(time.perf_counter() - t)
    return min(times)

for kind in ('zstd', 'lz4', 'none'):
    path = work / f'{stem}-{kind}.mcap'
    count = rosbags_read(path)
    assert mcap_read(path) == count
    r, m, p = best(rosbags_read, path), best(mcap_read, path), best(poise_info, path)
    print(f'{path.name} ({path.stat().st_size / 1e6:.1f} MB): {count} Imu + MagneticField messages')
    print(f'  rosbags read + deserialize_cdr: {r * 1000:.0f} ms')
    print(f'  mcap + mcap-ros2-support decode: {m * 1000:.0f} ms')
    print(f'  poise info (read + report):      {p * 1000:.0f} ms  ({r / p:.1f}x rosbags, {m / p:.1f}x mcap)')
PY
