#!/usr/bin/env python3
"""Writes the MCAP (ROS 2) test files of Tests/PoiseRecordingTests/Fixtures/mcap/ and their
reference values, with published PyPI libraries only: `rosbags` reads the ROS 1 bag and
serializes ROS 2 CDR messages, `mcap` writes the MCAP container, `mcap-ros2-support` reads the
written files back (an implementation independent of Poise's reader) to make the reference.

Set up once (the venv lives in the build folder, not in the tree):
    python3 -m venv .build/mcap-venv
    .build/mcap-venv/bin/pip install rosbags==0.11.9 mcap==1.6.0 mcap-ros2-support==0.6.0 zstandard lz4
Run:
    .build/mcap-venv/bin/python Tests/Goldens/make_mcap_fixtures.py [BAG] [OUT_DIR] [IMU_COUNT]

BAG defaults to ../shared/data/formats/ros1_bag_imu/test2.bag (robot_localization, BSD-3-Clause,
see Fixtures/mcap/SOURCE.md); OUT_DIR to Tests/PoiseRecordingTests/Fixtures/mcap; IMU_COUNT to
200 (the first 4 s at 50 Hz; 0 converts every message, as Benchmarks/peers/mcap.sh does in a
temporary folder). Files written:

    test2-zstd.mcap        chunked, zstd (the default of ROS 2's MCAP writer)
    test2-lz4.mcap         chunked, lz4
    test2-none.mcap        chunked, uncompressed
    test2-unchunked.mcap   messages in the data section, no chunks
    test2-bigendian.mcap   unchunked, CDR big endian
    test2-unclosed.mcap    zstd chunks of 4 KiB, cut after its last complete chunk (a recording
                           that was not closed: no summary, no footer)
    test2-odometry-last.mcap  zstd chunks of 4 KiB, the odometry messages after all the IMU
                           messages, so the last chunks hold no IMU message
    synthetic-mag.mcap     generated values, not a recording: /imu/data at 100 Hz and
                           /imu/mag (sensor_msgs/msg/MagneticField, tesla) at 25 Hz, zstd
    no-imu.mcap            the 10 odometry messages only (no sensor_msgs/msg/Imu channel)
    zstd/*.zst             zstd frames made by the `zstandard` package (the C library) from
                           test2-none.mcap + test2-unchunked.mcap (170 KB, so several blocks) at
                           levels 3 and 19 with content checksums, and from 300,000 zero bytes
    reference.csv          every IMU and MagneticField message as read back by mcap-ros2-support
                           from test2-zstd.mcap (file `test2`; every other test2 file reads back
                           the same, the unclosed one a prefix: checked here, counts in
                           files.csv) and from synthetic-mag.mcap: file,topic,sec,nanosec,
                           x,y,z,wx,wy,wz (acceleration m/s² then angular velocity rad/s; for
                           MagneticField the field in tesla)
    files.csv              file,messages: how many Imu/MagneticField messages each file holds

and the seeds of the `mcap` fuzz target in Fuzz/corpus/mcap/ (the first 12 synthetic messages,
zstd, lz4, uncompressed, unchunked and not closed; without the 8-byte magic the target adds).
"""
import csv
import math
import sys
from pathlib import Path

import numpy as np
import zstandard
from mcap.reader import make_reader
from mcap.stream_reader import StreamReader
from mcap.records import Message as McapMessage, Channel as McapChannel, Schema as McapSchema
from mcap.writer import CompressionType, Writer
from mcap_ros2.decoder import DecoderFactory
from rosbags.rosbag1 import Reader
from rosbags.typesys import Stores, get_typestore

ROOT = Path(__file__).resolve().parents[2]
ROS1 = get_typestore(Stores.ROS1_NOETIC)
ROS2 = get_typestore(Stores.ROS2_HUMBLE)
T = ROS2.types
IMU, MAG, ODOM = 'sensor_msgs/msg/Imu', 'sensor_msgs/msg/MagneticField', 'nav_msgs/msg/Odometry'


def header(sec, nanosec, frame):
    return T['std_msgs/msg/Header'](stamp=T['builtin_interfaces/msg/Time'](sec=sec, nanosec=nanosec), frame_id=frame)


def vector(x, y, z):
    return T['geometry_msgs/msg/Vector3'](x=x, y=y, z=z)


def imu2(sec, nanosec, frame, q, acc, gyro):
    return T[IMU](header=header(sec, nanosec, frame),
                  orientation=T['geometry_msgs/msg/Quaternion'](x=q[0], y=q[1], z=q[2], w=q[3]),
                  orientation_covariance=np.zeros(9), angular_velocity=vector(*gyro),
                  angular_velocity_covariance=np.zeros(9), linear_acceleration=vector(*acc),
                  linear_acceleration_covariance=np.zeros(9))


def bag_messages(bag: Path, imu_count: int):
    """(topic, type, log time ns, ROS 2 message) for the first imu_count IMU messages of the bag
    (0: all) and the odometry messages up to the last of them, in file order."""
    out = []
    imus = odometry = 0
    with Reader(bag) as reader:
        for connection, timestamp, raw in reader.messages():
            if imu_count and imus >= imu_count:
                break
            m = ROS1.deserialize_ros1(raw, connection.msgtype)
            if connection.msgtype == 'sensor_msgs/msg/Imu':
                imus += 1
                o, a, w = m.orientation, m.linear_acceleration, m.angular_velocity
                msg = imu2(m.header.stamp.sec, m.header.stamp.nanosec, m.header.frame_id,
                           (o.x, o.y, o.z, o.w), (a.x, a.y, a.z), (w.x, w.y, w.z))
                out.append((connection.topic, IMU, timestamp, msg))
            elif connection.msgtype == 'sensor_msgs/msg/MagneticField':
                f = m.magnetic_field
                msg = T[MAG](header=header(m.header.stamp.sec, m.header.stamp.nanosec, m.header.frame_id),
                             magnetic_field=vector(f.x, f.y, f.z), magnetic_field_covariance=np.zeros(9))
                out.append((connection.topic, MAG, timestamp, msg))
            elif connection.msgtype == 'nav_msgs/msg/Odometry' and imu_count and odometry < 10:
                # The first 10, in the small files only: a topic Poise lists as ignored.
                odometry += 1
                p, tw = m.pose, m.twist
                pose = T['geometry_msgs/msg/PoseWithCovariance'](
                    pose=T['geometry_msgs/msg/Pose'](
                        position=T['geometry_msgs/msg/Point'](x=p.pose.position.x, y=p.pose.position.y, z=p.pose.position.z),
                        orientation=T['geometry_msgs/msg/Quaternion'](x=p.pose.orientation.x, y=p.pose.orientation.y,
                                                                      z=p.pose.orientation.z, w=p.pose.orientation.w)),
                    covariance=np.array(p.covariance, dtype=np.float64))
                twist = T['geometry_msgs/msg/TwistWithCovariance'](
                    twist=T['geometry_msgs/msg/Twist'](linear=vector(tw.twist.linear.x, tw.twist.linear.y, tw.twist.linear.z),
                                                       angular=vector(tw.twist.angular.x, tw.twist.angular.y, tw.twist.angular.z)),
                    covariance=np.array(tw.covariance, dtype=np.float64))
                msg = T[ODOM](header=header(m.header.stamp.sec, m.header.stamp.nanosec, m.header.frame_id),
                              child_frame_id=m.child_frame_id, pose=pose, twist=twist)
                out.append((connection.topic, ODOM, timestamp, msg))
    return out


def synthetic_messages():
    """Generated values (not a recording): 2 s of IMU at 100 Hz, rotating slowly about z, and a
    magnetometer at 25 Hz stamped 3 ms after every fourth IMU sample."""
    out = []
    for k in range(200):
        t = 1_000 * 10**9 + k * 10_000_000
        phase = 2 * math.pi * 0.5 * k / 100
        acc = (0.2 * math.sin(phase), -0.1 * math.cos(phase), 9.80665)
        gyro = (0.01, -0.02, 0.5 * math.cos(phase))
        out.append(('/imu/data', IMU, t, imu2(t // 10**9, t % 10**9, 'imu', (0, 0, 0, 1), acc, gyro)))
        if k % 4 == 1:
            tm = t + 3_000_000
            field = (2e-5 * math.cos(phase), -2e-5 * math.sin(phase), -4.3e-5)
            out.append(('/imu/mag', MAG, tm, T[MAG](header=header(tm // 10**9, tm % 10**9, 'imu'),
                                                     magnetic_field=vector(*field),
                                                     magnetic_field_covariance=np.zeros(9))))
    return out


def write(path: Path, messages, compression=CompressionType.ZSTD, chunked=True, little_endian=True,
          chunk_size=1 << 20, close=True, reorder=False):
    if reorder:
        messages = [m for m in messages if m[1] != ODOM] + [m for m in messages if m[1] == ODOM]
    with open(path, 'wb') as f:
        writer = Writer(f, chunk_size=chunk_size, compression=compression, use_chunking=chunked)
        writer.start(profile='ros2', library='Tests/Goldens/make_mcap_fixtures.py (mcap 1.6.0, rosbags 0.11.9)')
        channels = {}
        for topic, msgtype, _, _ in messages:
            if topic in channels:
                continue
            text, _ = ROS2.generate_msgdef(msgtype, ros_version=2)
            schema = writer.register_schema(name=msgtype, encoding='ros2msg', data=text.encode())
            channels[topic] = writer.register_channel(topic=topic, message_encoding='cdr', schema_id=schema)
        for sequence, (topic, msgtype, log_time, msg) in enumerate(messages):
            data = bytes(ROS2.serialize_cdr(msg, msgtype, little_endian=little_endian))
            writer.add_message(channel_id=channels[topic], log_time=log_time, publish_time=log_time,
                               data=data, sequence=sequence)
        if close:
            writer.finish()


def read_back(path: Path, closed=True):
    """(topic, sec, nanosec, values) of every Imu/MagneticField message, decoded by mcap-ros2-support."""
    rows = []
    factory = DecoderFactory()
    decoders = {}

    def row(schema, channel, message):
        if schema.name not in (IMU, MAG):
            return
        key = channel.id
        if key not in decoders:
            decoders[key] = factory.decoder_for(channel.message_encoding, schema)
        m = decoders[key](message.data)
        if schema.name == IMU:
            a, w = m.linear_acceleration, m.angular_velocity
            values = [a.x, a.y, a.z, w.x, w.y, w.z]
        else:
            f = m.magnetic_field
            values = [f.x, f.y, f.z, '', '', '']
        rows.append((channel.topic, m.header.stamp.sec, m.header.stamp.nanosec, values))

    with open(path, 'rb') as f:
        if closed:
            for schema, channel, message in make_reader(f).iter_messages(log_time_order=False):
                row(schema, channel, message)
        else:
            # A file that was not closed: the stream reader up to the end of its last whole record.
            schemas, channels = {}, {}
            try:
                for record in StreamReader(f, skip_magic=False).records:
                    if isinstance(record, McapSchema):
                        schemas[record.id] = record
                    elif isinstance(record, McapChannel):
                        channels[record.id] = record
                    elif isinstance(record, McapMessage):
                        channel = channels[record.channel_id]
                        row(schemas[channel.schema_id], channel, record)
            except Exception as end:  # noqa: BLE001 — the cut end of the file
                print(f'{path.name}: the stream reader stops at the cut end ({type(end).__name__})')
    return rows


def main() -> None:
    bag = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / 'shared/data/formats/ros1_bag_imu/test2.bag'
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / 'Tests/PoiseRecordingTests/Fixtures/mcap'
    imu_count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    out.mkdir(parents=True, exist_ok=True)
    stem = bag.stem
    messages = bag_messages(bag, imu_count)
    files = [
        (f'{stem}-zstd.mcap', dict(compression=CompressionType.ZSTD)),
        (f'{stem}-lz4.mcap', dict(compression=CompressionType.LZ4)),
        (f'{stem}-none.mcap', dict(compression=CompressionType.NONE)),
        (f'{stem}-unchunked.mcap', dict(compression=CompressionType.NONE, chunked=False)),
    ]
    if imu_count:
        files += [
            (f'{stem}-bigendian.mcap', dict(compression=CompressionType.NONE, chunked=False, little_endian=False)),
            (f'{stem}-unclosed.mcap', dict(compression=CompressionType.ZSTD, chunk_size=4096, close=False)),
            (f'{stem}-odometry-last.mcap', dict(compression=CompressionType.ZSTD, chunk_size=4096, reorder=True)),
        ]
    first = None
    counts = []
    for name, options in files:
        write(out / name, messages, **options)
        rows = read_back(out / name, closed=options.get('close', True))
        first = first or rows
        # repr: the phidgets bag has NaN fields (no magnetometer reading), which compare unequal.
        assert repr(rows) == repr(first[:len(rows)]) and (len(rows) == len(first) or not options.get('close', True)), name
        counts.append((name, len(rows)))
        print(f'{name}: {(out / name).stat().st_size} bytes, {len(rows)} Imu/MagneticField messages read back')
    if imu_count:
        reference = [('test2', *r) for r in first]
        write(out / 'synthetic-mag.mcap', synthetic_messages())
        rows = read_back(out / 'synthetic-mag.mcap')
        reference += [('synthetic-mag', *r) for r in rows]
        counts.append(('synthetic-mag.mcap', len(rows)))
        print(f'synthetic-mag.mcap: {len(rows)} messages read back')
        write(out / 'no-imu.mcap', [m for m in messages if m[1] == ODOM])
        frames = out / 'zstd'
        frames.mkdir(exist_ok=True)
        content = (out / f'{stem}-none.mcap').read_bytes() + (out / f'{stem}-unchunked.mcap').read_bytes()
        for level in (3, 19):
            compressor = zstandard.ZstdCompressor(level=level, write_checksum=True, write_content_size=True)
            (frames / f'{stem}-none+unchunked.l{level}.zst').write_bytes(compressor.compress(content))
        (frames / 'zeros-300000.zst').write_bytes(zstandard.ZstdCompressor(level=3).compress(bytes(300_000)))
        seeds = ROOT / 'Fuzz/corpus/mcap'
        seeds.mkdir(parents=True, exist_ok=True)
        few = synthetic_messages()[:12]
        for name, options in [('zstd', dict()), ('lz4', dict(compression=CompressionType.LZ4)),
                              ('none', dict(compression=CompressionType.NONE)),
                              ('unchunked', dict(compression=CompressionType.NONE, chunked=False)),
                              ('unclosed', dict(chunk_size=1024, close=False))]:
            write(seeds / name, few, **options)
            data = (seeds / name).read_bytes()
            (seeds / name).write_bytes(data[8:])
        with open(out / 'files.csv', 'w', newline='') as f:
            csv.writer(f, lineterminator='\n').writerows([('file', 'messages')] + counts)
        with open(out / 'reference.csv', 'w', newline='') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['file', 'topic', 'sec', 'nanosec', 'x', 'y', 'z', 'wx', 'wy', 'wz'])
            for name, topic, sec, nanosec, values in reference:
                w.writerow([name, topic, sec, nanosec] + [repr(v) if v != '' else '' for v in values])


if __name__ == '__main__':
    main()
