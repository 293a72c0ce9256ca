#!/usr/bin/env bash
# Exact instructions per 9D fusion update, Poise (the defaults, the fast preset, correcting every
# sample) against x-io Fusion C, by single-stepping (ptrace) 1,000 calls of each after the first
# 1,000 (the stream turning, with a magnetometer).
#
#   Benchmarks/instructions/fusion.sh            # ≈ 10 minutes (single-stepping is slow in a VM)
#
# Deterministic, unlike the timings of this shared VM, so it is the measure to compare two
# builds by. The x-io side needs the peer and its input from Benchmarks/peers/run.sh
# (.build/peers/fusion_bench and .build/peers/stream-*.f32); without them it is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$root/.build/instructions
mkdir -p "$work"
cc -O2 -o "$work/icount" "$here/icount.c"
(cd "$root/Benchmarks" && POISE_TARGET_CPU=${POISE_TARGET_CPU:-native} swift build -c release --product PoiseBenchmarks >&2)
poise=$root/Benchmarks/.build/release/PoiseBenchmarks
update=$(nm "$poise" | grep 'DeviceMotionEstimatorV6update4time12acceleration12rotationRate13magneticFieldySd_s5SIMD3' | cut -d' ' -f1)
# The fusion suite runs each 9D configuration 8 times (a warm-up and 7 timed runs) over its
# 4,000 samples, in order: the defaults (calls 1–32,000), the fast preset (32,001–64,000) and,
# with POISE_FUSION_CORRECTION_RATES=0, the defaults correcting every sample (64,001–96,000);
# each is measured over 1,000 calls after the first 1,000 of its own.
for part in "default configuration:1000" "fast preset:33000" "correctionRate 0, every sample:65000"; do
  echo "Poise DeviceMotionEstimator.update (9D, ${part%%:*}):"
  (cd "$work" && POISE_FUSION_ROUNDS=0 POISE_FUSION_SAMPLES=4000 POISE_FUSION_CORRECTION_RATES=0 \
    ./icount "$update" 1000 "${part##*:}" -- "$poise" fusion > /dev/null && python3 "$here/summary.py" "$poise" icount.hist 1000)
done
peer=$root/.build/peers/fusion_bench
input=$(ls "$root"/.build/peers/stream-*.f32 2>/dev/null | head -1 || true)
if [[ -x $peer && -n $input ]]; then
  echo "x-io Fusion C FusionAhrsUpdate:"
  ahrs=$(nm "$peer" | awk '$3 == "FusionAhrsUpdate" { print $1 }')
  (cd "$work" && ./icount "$ahrs" 1000 1000 -- "$peer" "$input" 100 1 > /dev/null && python3 "$here/summary.py" "$peer" icount.hist 1000)
else
  echo "x-io Fusion C: run Benchmarks/peers/run.sh first (it builds the peer and writes its input)"
fi
