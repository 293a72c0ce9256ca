#!/usr/bin/env bash
# Exact instructions per 9D fusion update, Poise against x-io Fusion C, by single-stepping
# (ptrace) 1,000 calls of each after the first 1,000 (the stream turning, with a magnetometer).
#
#   Benchmarks/instructions/fusion.sh            # ≈ 3 minutes (single-stepping is slow in a VM)
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
echo "Poise DeviceMotionEstimator.update (9D, default configuration):"
(cd "$work" && POISE_FUSION_ROUNDS=0 POISE_FUSION_SAMPLES=4000 POISE_FUSION_CORRECTION_RATES= \
  ./icount "$update" 1000 1000 -- "$poise" fusion > /dev/null && python3 "$here/summary.py" "$poise" icount.hist 1000)
peer=$root/.build/peers/fusion_bench
input=$(ls "$root"/.build/peers/stream-*.f32 2>/dev/null | head -1 || true)
if [[ -x $peer && -n $input ]]; then
  echo "x-io Fusion C FusionAhrsUpdate:"
  ahrs=$(nm "$peer" | awk '$3 == "FusionAhrsUpdate" { print $1 }')
  (cd "$work" && ./icount "$ahrs" 1000 1000 -- "$peer" "$input" 100 1 > /dev/null && python3 "$here/summary.py" "$peer" icount.hist 1000)
else
  echo "x-io Fusion C: run Benchmarks/peers/run.sh first (it builds the peer and writes its input)"
fi
