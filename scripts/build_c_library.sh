#!/bin/sh
# Builds the distributable C libraries of Poise into OUTDIR (default .build/c-library):
#   libpoise.so.API (+ libpoise.so link) — shared, Swift runtime linked in, only poise_* exported;
#                SONAME libpoise.so.API where API is POISE_API_VERSION of include/poise.h;
#   libpoise.a — static, one relocatable object with the Swift runtime inside and only poise_*
#                global (a host links it with -lstdc++ -lm -ldl -lpthread);
#   poise.pc, PoiseConfig.cmake, PoiseConfigVersion.cmake are written by `make install`.
# Uses the release objects of the Poise, CPoiseKernels and PoiseC targets (`swift build -c release`,
# with SWIFT_BUILD_FLAGS added: `make dist` passes its own scratch path). Linux only (ELF linker
# flags); the architecture is the toolchain's (x86_64, aarch64).
# When POISE_TARGET_CPU=haswell (x86-64-v3), Sources/CPoiseCPU/cpu_check.c is linked in: the
# library checks the CPU when it is loaded.
set -eu
OUT=${1:-.build/c-library}
SWIFT=${SWIFT:-swift}
SWIFT_BUILD_FLAGS=${SWIFT_BUILD_FLAGS:-}
$SWIFT build -c release $SWIFT_BUILD_FLAGS --product PoiseCAPI >&2
BIN=$($SWIFT build -c release $SWIFT_BUILD_FLAGS --show-bin-path)
TOOLCHAIN=$(dirname "$(dirname "$(command -v swiftc)")")
STATIC="$TOOLCHAIN/lib/swift_static/linux"
[ -d "$STATIC" ] || STATIC=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/swift_static/linux
ARCH=$(uname -m)
[ -f "$STATIC/$ARCH/swiftrt.o" ] || { echo "no $STATIC/$ARCH/swiftrt.o: is the toolchain for $ARCH?" >&2; exit 1; }
API=$(sed -n 's/^#define POISE_API_VERSION \([0-9][0-9]*\).*/\1/p' include/poise.h)
[ -n "$API" ] || { echo "no POISE_API_VERSION in include/poise.h" >&2; exit 1; }
SONAME=libpoise.so.$API
CC=${CC:-clang}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CPU_CHECK=
if [ "${POISE_TARGET_CPU:-}" = haswell ]; then
    $CC -c -O2 -fPIC -o "$WORK/cpu_check.o" Sources/CPoiseCPU/cpu_check.c
    CPU_CHECK="$WORK/cpu_check.o"
fi

. "$(dirname "$0")/library_objects.sh"
OBJECTS="$(objects Poise) $(c_objects CPoiseKernels) $(objects PoiseC)"
export_map poise_ PoiseC
# Swift libraries the objects ask for (normally only swiftCore).
AUTOLINK=$("$TOOLCHAIN/bin/swift-autolink-extract" $OBJECTS -o - | grep '^-lswift' | sort -u | tr '\n' ' ')
SYSTEM_LIBS="-lstdc++ -lm -ldl -lpthread"

# Shared library.
rm -f "$OUT"/libpoise.so.*
$CC -shared -fPIC -o "$OUT/$SONAME" "$STATIC/$ARCH/swiftrt.o" $OBJECTS $CPU_CHECK \
    -L"$STATIC" -Wl,--start-group $AUTOLINK -Wl,--end-group $SYSTEM_LIBS \
    -Wl,--exclude-libs,ALL -Wl,--version-script="$WORK/exports.map" -Wl,-soname,$SONAME \
    -Wl,--gc-sections -Wl,-z,defs -Wl,--build-id
strip --strip-unneeded "$OUT/$SONAME"
ln -sf $SONAME "$OUT/libpoise.so"

# Static library: one object, runtime members pulled in, every strong global but poise_* made
# local. Weak symbols (C++ inline functions and templates in COMDAT groups) stay global: a C++
# host has its own copies, the linker keeps one group, and references must still resolve to it.
ld -r -o "$WORK/poise.o" "$STATIC/$ARCH/swiftrt.o" $OBJECTS $CPU_CHECK -L"$STATIC" --start-group $AUTOLINK --end-group
nm -g --defined-only "$WORK/poise.o" | awk '$2 ~ /^[TDBRCG]$/ && $3 !~ /^poise_/ { print $3 }' > "$WORK/local.txt"
objcopy --localize-symbols="$WORK/local.txt" --strip-debug "$WORK/poise.o"
rm -f "$OUT/libpoise.a"
ar rcs "$OUT/libpoise.a" "$WORK/poise.o"
cp "$WORK/symbols.txt" "$OUT/symbols.txt"
echo "$OUT/$SONAME $(wc -c < "$OUT/$SONAME") bytes; $OUT/libpoise.a $(wc -c < "$OUT/libpoise.a") bytes; $(wc -l < "$WORK/symbols.txt") functions"
