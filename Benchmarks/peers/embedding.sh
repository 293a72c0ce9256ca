#!/bin/sh
# Embedding benchmarks: the C API's per-sample cost against the Swift loop behind it
# (capi_bench.c), and the Python package against vqf, imufusion and scipy (embedding.py), on
# the same samples in the same run. Prints the rows for BENCHMARKS.md.
#   Benchmarks/peers/embedding.sh             # 1,000,000 samples
#   POISE_EMBED_SAMPLES=100000 Benchmarks/peers/embedding.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
n=${POISE_EMBED_SAMPLES:-1000000}
work=${POISE_PEERS_WORK:-$root/.build/peers-embedding}
mkdir -p "$work"
make -s c-library >&2
prefix="$work/prefix"
sh scripts/install_c_library.sh "$prefix" >&2
venv="$work/venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
for package in numpy scipy vqf imufusion; do
    "$venv/bin/python" -c "import $package" 2>/dev/null || "$venv/bin/pip" install -q --disable-pip-version-check "$package" >&2 || true
done
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall ./python >/dev/null 2>&1
cc -O2 -std=c11 Benchmarks/peers/capi_bench.c -I"$prefix/include" -L"$prefix/lib" -lpoise -Wl,-rpath,"$prefix/lib" -o "$work/capi_bench"
echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores, $n samples"
echo "## C API (ns per sample)"
POISE_LIBRARY="$prefix/lib/libpoise.so" "$venv/bin/python" Benchmarks/peers/embedding.py --samples "$n" --raw "$work/samples.f64" > "$work/python.tsv"
"$work/capi_bench" "$work/samples.f64"
echo "## Python (seconds, ns per sample, peer ÷ Poise)"
cat "$work/python.tsv"
