#!/bin/sh
# `make dist`: what a release publishes, built into dist/ (ignored by git):
#   poise-VERSION-linux-ARCH.tar.gz   bin/poise (Swift standard library and Foundation linked in),
#       share/man/man1/poise.1, bash/zsh/fish completions, include/poise.h, lib/libpoise.so.API,
#       lib/libpoise.a, lib/libpoise-readers.so.0 and include/poise_readers.h (the recording
#       readers' C library), lib/pkgconfig/poise.pc, lib/cmake/Poise/, share/doc/poise/ (LICENSE,
#       THIRD_PARTY.md, README.md); one top folder, so `tar -x -C PREFIX --strip-components=1`
#       installs it;
#   poise-VERSION-py3-none-manylinux_2_X_ARCH.whl   the Python package carrying libpoise and
#       libpoise-readers.
# Code generation: x86_64 builds target x86-64-v3 (POISE_TARGET_CPU=haswell: AVX2, FMA, BMI2),
# never the build machine's CPU; the tool and the library check the CPU when they start. Other
# architectures build for the architecture's baseline. Build products go to .build-dist.
set -eu
SWIFT=${SWIFT:-swift}
ARCH=$(uname -m)
case $ARCH in
    x86_64) POISE_TARGET_CPU=haswell ;;
    *) POISE_TARGET_CPU= ;;
esac
export POISE_TARGET_CPU
FLAGS="--scratch-path .build-dist --static-swift-stdlib"
VERSION=$(sed -n 's/^#define POISE_VERSION "\(.*\)".*/\1/p' include/poise.h)
NAME=poise-$VERSION-linux-$ARCH
TOOLCHAIN=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
TOOLCHAIN=${TOOLCHAIN%/usr}   # /opt/swift for /opt/swift/usr/bin/swiftc

$SWIFT build -c release $FLAGS --product poise >&2
BIN=$($SWIFT build -c release $FLAGS --show-bin-path)
SWIFT="$SWIFT" SWIFT_BUILD_FLAGS="$FLAGS" sh scripts/build_c_library.sh .build-dist/c-library >&2
SWIFT="$SWIFT" SWIFT_BUILD_FLAGS="$FLAGS" sh scripts/build_readers_library.sh .build-dist/c-library >&2

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TREE=$WORK/$NAME
install -d "$TREE/bin" "$TREE/share/man/man1" "$TREE/share/doc/poise" \
    "$TREE/share/bash-completion/completions" "$TREE/share/zsh/site-functions" "$TREE/share/fish/vendor_completions.d"
install -m 755 "$BIN/poise" "$TREE/bin/poise"
strip "$TREE/bin/poise"
# Self-contained: nothing from the toolchain, only system libraries.
if ldd "$TREE/bin/poise" | grep -F "$TOOLCHAIN"; then
    echo "bin/poise links libraries of the toolchain ($TOOLCHAIN)" >&2; exit 1
fi
unexpected=$(ldd "$TREE/bin/poise" | awk '{ print $1 }' | grep -v -E '^(linux-vdso|/lib64/ld-linux|/lib/ld-linux|ld-linux|lib(c|m|dl|pthread|rt|util|stdc\+\+|gcc_s|fftw3|z|bz2|lz4|zstd)\.so)' || true)
[ -z "$unexpected" ] || { echo "bin/poise links libraries a user may not have: $unexpected" >&2; exit 1; }
python3 scripts/make_man_page.py "$TREE/bin/poise" "$TREE/share/man/man1/poise.1"
"$TREE/bin/poise" --generate-completion-script bash > "$TREE/share/bash-completion/completions/poise"
"$TREE/bin/poise" --generate-completion-script zsh > "$TREE/share/zsh/site-functions/_poise"
"$TREE/bin/poise" --generate-completion-script fish > "$TREE/share/fish/vendor_completions.d/poise.fish"
sh scripts/install_c_library.sh "$TREE" .build-dist/c-library >&2
install -m 644 LICENSE THIRD_PARTY.md README.md "$TREE/share/doc/poise/"

mkdir -p dist
rm -f dist/poise-*-linux-*.tar.gz
tar -C "$WORK" --sort=name --owner=0 --group=0 --numeric-owner -czf "dist/$NAME.tar.gz.tmp" "$NAME"
mv "dist/$NAME.tar.gz.tmp" "dist/$NAME.tar.gz"
echo "dist/$NAME.tar.gz ($(wc -c < "dist/$NAME.tar.gz") bytes, code for ${POISE_TARGET_CPU:-$ARCH})"
sh scripts/build_wheel.sh dist .build-dist/c-library
