#!/bin/sh
# Portable builds (x86-64-v3 as `make dist` ships, plain x86-64 as a SwiftPM dependency gets)
# against the native build on the peers table's hot paths, in one run; writes the "Portable
# builds" section of BENCHMARKS.md. See portable.py. Work folder: $POISE_PEERS_WORK (default
# .build/peers); POISE_PORTABLE_ROUNDS (default 5), POISE_PEERS_SAMPLES (default 1,000,000).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${POISE_PEERS_WORK:-$root/.build/peers}
mkdir -p "$work"
venv="$work/portable-venv"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check numpy; }
exec "$venv/bin/python" "$here/portable.py" --root "$root" --work "$work" \
    --samples "${POISE_PEERS_SAMPLES:-1000000}" --rounds "${POISE_PORTABLE_ROUNDS:-5}" --write "$root/BENCHMARKS.md" "$@"
