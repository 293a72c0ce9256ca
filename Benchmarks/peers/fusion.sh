#!/usr/bin/env bash
# Poise's 9D fusion update against x-io Fusion's C FusionAhrsUpdate, measured in the same run.
#
#   Benchmarks/peers/fusion.sh            # 200,000 samples (POISE_FUSION_SAMPLES to change)
#
# 1. Builds x-io Fusion's C sources, taken from the imufusion sdist on PyPI, into the timing
#    program fusion_bench.c (cc -O3 -march=native). Nothing of Fusion is committed; the build
#    lives in $POISE_PEERS_WORK (default .build/peers, shared with run.sh).
# 2. Runs the `fusion` benchmark suite (release build), which writes its input stream for the
#    peer, runs it, and prints both times and the ratio (target: Poise / Fusion ≤ 1).
# 3. Times VQF (pip `vqf`, C++ double) on the same stream for reference, if installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${POISE_PEERS_WORK:-$root/.build/peers}
mkdir -p "$work"
fusion="$work/fusion_bench"
if [[ ! -x $fusion || $here/fusion_bench.c -nt $fusion ]]; then
  echo "building x-io Fusion C from the imufusion sdist…" >&2
  rm -rf "$work/sdist"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary imufusion imufusion -d "$work/sdist"
  tar xzf "$work"/sdist/imufusion-*.tar.gz -C "$work/sdist"
  source_dir=$(ls -d "$work"/sdist/imufusion-*/Fusion | head -1)
  cc -O3 -march=native "$here/fusion_bench.c" "$source_dir"/*.c -I"$source_dir" -lm -o "$fusion.tmp"
  mv "$fusion.tmp" "$fusion"
fi
export POISE_FUSION_PEER="$fusion"
status=0
make -C "$root" bench SUITES=fusion || status=$?

if python3 -c "import vqf" 2>/dev/null; then
  python3 - "${POISE_FUSION_SAMPLES:-200000}" <<'PY'
import sys, time, numpy as np, vqf
n = int(sys.argv[1]); rate = 100.0
t = np.arange(n) / rate
# Same kind of stream as the suite (turning, consistent acc/mag); VQF's cost hardly depends on it.
gyr = np.stack([1.5 * np.sin(0.3 * t), np.cos(0.21 * t), 0.8 * np.sin(0.17 * t)], 1)
acc = np.tile([0.0, 0.0, 9.80665], (n, 1)); mag = np.tile([0.0, 20.0, -45.0], (n, 1))
best = []
for _ in range(3):
    start = time.perf_counter(); vqf.VQF(1 / rate).updateBatch(gyr, acc, mag); best.append(time.perf_counter() - start)
print("  vqf %s VQF.updateBatch (C++, double, via Python): %.1f ns/update (median of 3)" % (
    __import__("importlib.metadata").metadata.version("vqf"), sorted(best)[1] * 1e9 / n))
PY
fi
exit $status
