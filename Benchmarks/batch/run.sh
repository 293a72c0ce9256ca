#!/usr/bin/env bash
# `poise batch fuse` over many recordings: 1 job against N jobs, against `xargs -P N poise fuse`,
# and the Dask recipe (poise.batch) on a LocalCluster of 1 and N worker processes, all on the
# same files in the same run; prints the times, rows/s and the ratios the targets are about.
#
#   Benchmarks/batch/run.sh                 # 200 recordings of 60 s at 100 Hz, N = 2, 3 rounds
#   POISE_BATCH_FILES=50 POISE_BATCH_ROUNDS=1 Benchmarks/batch/run.sh   # a quicker look
#
# Needs the release `poise` (built here) and, for the Dask rows, a Python with pandas and
# dask[distributed] and the C library for the `poise` package (`make test` makes both:
# .build/python-venv and .build/c-library); without them the Dask rows say so.
# Work folder: $POISE_BATCH_WORK (default .build/batch-bench, ignored by git).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${POISE_BATCH_WORK:-$root/.build/batch-bench}
files=${POISE_BATCH_FILES:-200}
jobs=${POISE_BATCH_JOBS:-2}
rounds=${POISE_BATCH_ROUNDS:-3}
export POISE_TARGET_CPU=${POISE_TARGET_CPU-native}

(cd "$root" && swift build -c release --product poise >&2)
poise="$(cd "$root" && swift build -c release --show-bin-path)/poise"
inputs="$work/inputs-$files"
if [[ ! -f $inputs/done ]]; then
  echo "simulating $files recordings of 60 s at 100 Hz…" >&2
  rm -rf "$inputs" && mkdir -p "$inputs"
  for ((i = 0; i < files; i++)); do
    "$poise" simulate --scenario walking --duration 60 --seed "$i" --out "$inputs/r$(printf %03d "$i").csv" >/dev/null
  done
  touch "$inputs/done"
fi

declare -A times cpu
measure() {  # name command…: wall time, and CPU time (user + system) of the command and its children
  local name=$1; shift
  rm -rf "$work/out"; mkdir -p "$work/out"
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null
  read -r wall user system < "$work/time"
  times[$name]+="$wall "
  cpu[$name]+="$(echo "$user + $system" | bc) "
}
for ((round = 0; round < rounds; round++)); do
  measure "batch --jobs 1" "$poise" batch fuse "$inputs" --include '*.csv' --out "$work/out" --jobs 1
  measure "batch --jobs $jobs" "$poise" batch fuse "$inputs" --include '*.csv' --out "$work/out" --jobs "$jobs"
  measure "xargs -P $jobs poise fuse" sh -c "cd '$inputs' && ls *.csv | xargs -P $jobs -I{} '$poise' fuse {} --json --out '$work/out/{}'"
done
rows=$(( $(cat "$inputs"/*.csv | wc -l) - files ))  # data rows: lines less one header per file
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "== batch ($files recordings, $rows rows, median of $rounds rounds, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
for name in "batch --jobs 1" "batch --jobs $jobs" "xargs -P $jobs poise fuse"; do
  t=$(median "${times[$name]}"); c=$(median "${cpu[$name]}")
  printf '  %-30s %7.2f s wall %8.0f rows/s  %7.2f s CPU  (wall rounds: %s)\n' "$name" "$t" "$(echo "$rows / $t" | bc -l)" "$c" "${times[$name]}"
done
t1=$(median "${times["batch --jobs 1"]}"); tn=$(median "${times["batch --jobs $jobs"]}"); tx=$(median "${times["xargs -P $jobs poise fuse"]}")
cn=$(median "${cpu["batch --jobs $jobs"]}"); cx=$(median "${cpu["xargs -P $jobs poise fuse"]}")
printf '  speed-up batch --jobs %s / --jobs 1 (wall)          %6.2f× (target ≥ 1.8)\n' "$jobs" "$(echo "$t1 / $tn" | bc -l)"
printf '  batch --jobs %s / xargs -P %s (wall)                %6.3f  (target ≤ 1.10)\n' "$jobs" "$jobs" "$(echo "$tn / $tx" | bc -l)"
printf '  batch --jobs %s / xargs -P %s (CPU time)            %6.3f\n' "$jobs" "$jobs" "$(echo "$cn / $cx" | bc -l)"

venv=${POISE_BATCH_PYTHON:-$root/.build/python-venv/bin/python}
library=$root/.build/c-library/libpoise.so.0
if [[ -x $venv ]] && "$venv" -c "import pandas, distributed" 2>/dev/null && [[ -f $library ]]; then
  PYTHONPATH="$root/python" POISE_LIBRARY="$library" POISE_CLI="$poise" \
    "$venv" "$here/dask_speed.py" "$inputs" "$work/out" "$jobs" "$rounds"
else
  echo "  Dask: not measured (needs $venv with pandas and dask[distributed], and $library: run make test once)"
fi
