#!/usr/bin/env python3
"""Damages a ROS 1 bag at random and checks that `poise info` never crashes on it.

Each of COUNT copies gets one of: 1–4 random bytes flipped after the first line, a cut at a
random length, or a random 4-byte field set to 0, 1, 0x7FFFFFF0 or 0xFFFFFFFF. `poise info` must
end with 0 (report) or 1 (RecordingError); anything else (a signal, a trap) is a crash, and the
copy is kept as /tmp/rosbag_crashN.bag.

    scripts/rosbag_damage.py BAG .build/release/poise SEED COUNT
"""
import os
import random
import subprocess
import sys
import tempfile

src = open(sys.argv[1], 'rb').read()
work = os.path.join(tempfile.mkdtemp(), 'damaged.bag')
poise = sys.argv[2]
random.seed(int(sys.argv[3]))
bad = 0; errs = 0; oks = 0
for i in range(int(sys.argv[4])):
    b = bytearray(src)
    mode = random.random()
    if mode < 0.5:
        for _ in range(random.randint(1, 4)):
            b[random.randrange(13, len(b))] ^= random.randrange(1, 256)
    elif mode < 0.8:
        b = b[:random.randrange(0, len(b))]
    else:
        p = random.randrange(13, len(b) - 4)
        b[p:p+4] = random.choice([b'\xff\xff\xff\xff', b'\xf0\xff\xff\x7f', b'\x00\x00\x00\x00', b'\x01\x00\x00\x00'])
    open(work, 'wb').write(b)
    r = subprocess.run([poise, 'info', work], capture_output=True, timeout=60)
    if r.returncode >= 2 or r.returncode < 0:
        bad += 1; print('CRASH', r.returncode, r.stderr[-300:]); open(f'/tmp/rosbag_crash{bad}.bag', 'wb').write(b)
    elif r.returncode == 1: errs += 1
    else: oks += 1
print('ok', oks, 'errors', errs, 'crashes', bad)
sys.exit(1 if bad else 0)
