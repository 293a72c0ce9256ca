#!/bin/sh
# Builds the readers' C library of Poise into OUTDIR (default .build/c-library), next to libpoise:
#   libpoise-readers.so.0 (+ libpoise-readers.so link) — shared, only poise_read* functions
#   exported (include/poise_readers.h), the Swift runtime and Foundation linked in statically.
# It is a library of its own so that libpoise (scripts/build_c_library.sh) stays the core that
# links nothing beyond libc and libm. The link line takes what the objects ask for: the Swift
# and Foundation libraries of their autolink entries from the toolchain's static folder, every
# other -l entry (zlib, libbz2, liblz4, libzstd, …, as the readers' system-library modules
# declare them) from the system.
# Uses the release objects of the Poise, CPoiseKernels, PoiseC, PoiseRecording and PoiseReadersC
# targets.
set -eu
OUT=${1:-.build/c-library}
SWIFT=${SWIFT:-swift}
SWIFT_BUILD_FLAGS=${SWIFT_BUILD_FLAGS:-}   # `make dist` passes its own scratch path
# The target only (its objects): linking the product as a shared library would fail under
# --static-swift-stdlib, and the library is linked below.
$SWIFT build -c release $SWIFT_BUILD_FLAGS --target PoiseReadersC >&2
BIN=$($SWIFT build -c release $SWIFT_BUILD_FLAGS --show-bin-path)
TOOLCHAIN=$(dirname "$(dirname "$(command -v swiftc)")")
STATIC="$TOOLCHAIN/lib/swift_static/linux"
[ -d "$STATIC" ] || STATIC=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/swift_static/linux
CC=${CC:-clang}
ARCH=$(uname -m)
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

. "$(dirname "$0")/library_objects.sh"
OBJECTS="$(objects Poise) $(c_objects CPoiseKernels) $(objects PoiseC) $(objects PoiseRecording) $(objects PoiseReadersC)"
export_map poise_read PoiseReadersC
# Every library the objects ask for, and (to a fixed point) every library those the toolchain has
# as static archives ask for (Foundation needs ICU, dispatch, …): the static archives are linked
# in, the others are the system's.
# (Foundation's archive does not name CoreFoundation, which it is built on.)
"$TOOLCHAIN/bin/swift-autolink-extract" $OBJECTS -o - | tr ' ' '\n' | grep '^-l' | sort -u > "$WORK/autolink.txt"
grep -qx -- -lFoundation "$WORK/autolink.txt" && echo -lCoreFoundation >> "$WORK/autolink.txt"
while :; do
    ARCHIVES=$(for flag in $(cat "$WORK/autolink.txt"); do
        if [ -f "$STATIC/lib${flag#-l}.a" ]; then echo "$STATIC/lib${flag#-l}.a"; fi; done)
    { cat "$WORK/autolink.txt"; "$TOOLCHAIN/bin/swift-autolink-extract" $ARCHIVES -o - | tr ' ' '\n' | grep '^-l'; } \
        | sort -u > "$WORK/closure.txt"
    cmp -s "$WORK/closure.txt" "$WORK/autolink.txt" && break
    mv "$WORK/closure.txt" "$WORK/autolink.txt"
done
STATIC_LIBS="" SYSTEM_LIBS=""
for flag in $(cat "$WORK/autolink.txt"); do
    if [ -f "$STATIC/lib${flag#-l}.a" ]; then STATIC_LIBS="$STATIC_LIBS $flag"; else SYSTEM_LIBS="$SYSTEM_LIBS $flag"; fi
done
SYSTEM_LIBS="$SYSTEM_LIBS -lstdc++ -lm -ldl -lpthread"

$CC -shared -fPIC -o "$OUT/libpoise-readers.so.0" "$STATIC/$ARCH/swiftrt.o" $OBJECTS \
    -L"$STATIC" -Wl,--start-group $STATIC_LIBS -Wl,--end-group $SYSTEM_LIBS \
    -Wl,--exclude-libs,ALL -Wl,--version-script="$WORK/exports.map" -Wl,-soname,libpoise-readers.so.0 \
    -Wl,--gc-sections -Wl,-z,defs -Wl,--build-id
strip --strip-unneeded "$OUT/libpoise-readers.so.0"
ln -sf libpoise-readers.so.0 "$OUT/libpoise-readers.so"
cp "$WORK/symbols.txt" "$OUT/readers-symbols.txt"
echo "$OUT/libpoise-readers.so.0 $(wc -c < "$OUT/libpoise-readers.so.0") bytes; $(wc -l < "$WORK/symbols.txt") functions; system libraries:$SYSTEM_LIBS"
