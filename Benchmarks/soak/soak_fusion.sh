#!/bin/sh
# Soak: 10^8 fusion updates (or COUNT) keep |q| within 1e-6 of 1 and the bias bounded.
#   Benchmarks/soak/soak_fusion.sh [COUNT]
# Builds the core with swiftc -O into .build/soak/ (not part of `make test`).
set -eu
cd "$(dirname "$0")/../.."
B=.build/soak
mkdir -p "$B"
if [ ! -f "$B/libPoise.a" ] || [ -n "$(find Sources/Poise -name '*.swift' -newer "$B/libPoise.a")" ]; then
    echo "soak: compiling Poise (-O)…"
    # shellcheck disable=SC2046
    swiftc -O ${POISE_TARGET_CPU:+-target-cpu "$POISE_TARGET_CPU"} -parse-as-library -module-name Poise \
        -emit-module -emit-module-path "$B/Poise.swiftmodule" -emit-library -static -o "$B/libPoise.a" \
        $(find Sources/Poise -name '*.swift' | sort)
fi
swiftc -O -parse-as-library -I "$B" -L "$B" Benchmarks/soak/FusionSoak.swift -lPoise -o "$B/fusion-soak"
/usr/bin/time -f "wall %e s, max RSS %M KB" "$B/fusion-soak" "${1:-100000000}"
