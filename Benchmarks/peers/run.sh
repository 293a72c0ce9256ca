#!/usr/bin/env bash
# Poise side by side with its peers — one command regenerates the table in BENCHMARKS.md.
#
#   Benchmarks/peers/run.sh                       # 1,000,000-sample stream, writes BENCHMARKS.md
#   POISE_PEERS_SAMPLES=100000 Benchmarks/peers/run.sh --write /tmp/quick.md   # a quicker look
#
# 1. Installs the Python peers from PyPI into a virtual environment under the work folder
#    (it sees the system's numpy/scipy): pandas, polars, pyarrow, imufusion, vqf, OneEuroFilter, ahrs.
# 2. Builds x-io Fusion's C sources, taken from the imufusion sdist, into a timing program
#    (fusion_bench.c). The sources stay in the work folder; they are never committed.
# 3. Builds the release `poise` (its `evaluate` scores fusion on the BROAD trials) and runs
#    peers.py: writes the input stream, runs Poise's `peers` benchmark suite on it
#    (`make bench SUITES=peers`), runs every peer on the same file, prints one table of ratios.
# 4. Builds the same suite for plain x86-64 (Benchmarks/.build-generic) and runs it back to back
#    with the native one in each of $POISE_PEERS_ROUNDS rounds (default 3): the portable column.
# Work folder: $POISE_PEERS_WORK (default .build/peers, ignored by git).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${POISE_PEERS_WORK:-$root/.build/peers}
samples=${POISE_PEERS_SAMPLES:-1000000}
mkdir -p "$work"

venv="$work/venv"
[[ -x $venv/bin/python ]] || python3 -m venv --system-site-packages "$venv"
py="$venv/bin/python"
for package in numpy scipy pandas polars pyarrow imufusion vqf OneEuroFilter ahrs; do
  if ! "$py" -c "import $package" 2>/dev/null; then
    echo "installing $package from PyPI…" >&2
    "$py" -m pip install --quiet --disable-pip-version-check "$package" \
      || echo "warning: could not install $package; its rows will say so" >&2
  fi
done

fusion="$work/fusion_bench"
if [[ ! -x $fusion || $here/fusion_bench.c -nt $fusion ]]; then
  echo "building x-io Fusion C from the imufusion sdist…" >&2
  rm -rf "$work/sdist"
  # --no-binary for imufusion only: its build dependencies may come as wheels.
  "$py" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary imufusion imufusion -d "$work/sdist"
  tar xzf "$work"/sdist/imufusion-*.tar.gz -C "$work/sdist"
  source_dir=$(ls -d "$work"/sdist/imufusion-*/Fusion | head -1)
  cc -O3 -march=native "$here/fusion_bench.c" "$source_dir"/*.c -I"$source_dir" -lm -o "$fusion.tmp"
  mv "$fusion.tmp" "$fusion"
fi

echo "building poise (release) for poise evaluate…" >&2
make -C "$root" -s build >&2

# The portable column: the same suite built for plain x86-64, what a SwiftPM dependent gets.
echo "building the peers suite for plain x86-64 (the portable column)…" >&2
(cd "$root/Benchmarks" && POISE_TARGET_CPU= swift build -c release --scratch-path .build-generic --product PoiseBenchmarks >&2)

args=(--root "$root" --work "$work" --samples "$samples" --fusion-bench "$fusion" --poise "$root/.build/release/poise"
      --portable "$root/Benchmarks/.build-generic/release/PoiseBenchmarks" --rounds "${POISE_PEERS_ROUNDS:-3}")
[[ " $* " == *" --write "* ]] || args+=(--write "$root/BENCHMARKS.md")
exec "$py" "$here/peers.py" "${args[@]}" "$@"
