#!/usr/bin/env python3
"""Prints the first messages of a ROS 1 bag's sensor_msgs/Imu and sensor_msgs/MagneticField
topics, read with the `rosbags` package (an implementation independent of Poise's reader), and
the message counts per topic. The values in Tests/PoiseRecordingTests/RosBagReaderTests.swift
come from this script.

Set up once (the venv lives in the build folder, not in the tree):
    python3 -m venv .build/rosbags-venv && .build/rosbags-venv/bin/pip install rosbags
Run:
    .build/rosbags-venv/bin/python Tests/Goldens/rosbag_first_messages.py BAG [COUNT]
"""
import sys
from pathlib import Path

from rosbags.rosbag1 import Reader
from rosbags.typesys import Stores, get_typestore


def main() -> None:
    path = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    typestore = get_typestore(Stores.ROS1_NOETIC)
    wanted = {'sensor_msgs/msg/Imu', 'sensor_msgs/msg/MagneticField'}
    with Reader(path) as reader:
        for connection in reader.connections:
            print(f'topic {connection.topic} {connection.msgtype} count {connection.msgcount}')
        printed: dict[str, int] = {}
        nonfinite: dict[str, int] = {}
        for connection, _, raw in reader.messages():
            if connection.msgtype not in wanted:
                continue
            msg = typestore.deserialize_ros1(raw, connection.msgtype)
            stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
            if connection.msgtype.endswith('Imu'):
                a, w = msg.linear_acceleration, msg.angular_velocity
                values = [a.x, a.y, a.z, w.x, w.y, w.z]
                text = (f'stamp {msg.header.stamp.sec}.{msg.header.stamp.nanosec:09d} '
                        f'acc {a.x!r} {a.y!r} {a.z!r} gyro {w.x!r} {w.y!r} {w.z!r}')
            else:
                m = msg.magnetic_field
                values = [m.x, m.y, m.z]
                text = f'stamp {msg.header.stamp.sec}.{msg.header.stamp.nanosec:09d} field {m.x!r} {m.y!r} {m.z!r}'
            if any(v != v or v in (float('inf'), float('-inf')) for v in values):
                nonfinite[connection.topic] = nonfinite.get(connection.topic, 0) + 1
            if printed.get(connection.topic, 0) < count:
                printed[connection.topic] = printed.get(connection.topic, 0) + 1
                print(f'{connection.topic} #{printed[connection.topic]}: {text} (t = {stamp!r} s)')
        for topic, n in nonfinite.items():
            print(f'{topic}: {n} messages with a non-finite value')


if __name__ == '__main__':
    main()
