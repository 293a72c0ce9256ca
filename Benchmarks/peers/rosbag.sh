#!/usr/bin/env bash
# Reading a ROS 1 bag: Poise's RosBagReader against the `rosbags` Python package on the same file
# (default: phidgets_imu_upside_down.bag of ../shared/data/formats/ros1_bag_imu, bz2 chunks).
#
#   Benchmarks/peers/rosbag.sh [BAG]
#
# rosbags is installed from PyPI into .build/rosbags-venv (ignored by git). Both sides read every
# sensor_msgs/Imu and sensor_msgs/MagneticField message and turn it into numbers; Poise through
# `poise info` (which also computes the whole report, so it is an upper bound on the read), rosbags
# through Reader.messages() + deserialize_ros1. Best of 5 wall-clock runs each.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bag=${1:-$root/../shared/data/formats/ros1_bag_imu/phidgets_imu_upside_down.bag}
venv=$root/.build/rosbags-venv
[[ -x $venv/bin/python ]] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet rosbags; }
export POISE_TARGET_CPU=${POISE_TARGET_CPU:-native}
(cd "$root" && swift build -c release --product poise >/dev/null)
poise=$root/.build/release/poise

"$venv/bin/python" - "$bag" "$poise" <<'PY'
import subprocess, sys, time
from pathlib import Path
from rosbags.rosbag1 import Reader
from rosbags.typesys import Stores, get_typestore

bag, poise = Path(sys.argv[1]), sys.argv[2]
store = get_typestore(Stores.ROS1_NOETIC)
wanted = {'sensor_msgs/msg/Imu', 'sensor_msgs/msg/MagneticField'}

def rosbags_read():
    n = 0
    with Reader(bag) as reader:
        for connection, _, raw in reader.messages():
            if connection.msgtype in wanted:
                m = store.deserialize_ros1(raw, connection.msgtype)
                n += 1
    return n

def poise_info():
    subprocess.run([poise, 'info', str(bag)], check=True, stdout=subprocess.DEVNULL)

def best(f):
    times = []
    for _ in range(5):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return min(times)

count = rosbags_read()
r, p = best(rosbags_read), best(poise_info)
print(f'{bag.name}: {count} Imu + MagneticField messages')
print(f'rosbags read + deserialize: {r * 1000:.0f} ms')
print(f'poise info (read + report): {p * 1000:.0f} ms  ({r / p:.2f}x rosbags)')
PY
