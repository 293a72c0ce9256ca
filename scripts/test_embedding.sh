#!/bin/sh
# The embedding checks of `make test`: installs the C library into a fresh temporary prefix,
# builds the C and C++ examples against it with the system compilers (shared and static),
# runs them (the C++ one also through CMake's find_package), then runs the Python package's tests.
# Python, pytest, numpy, vqf, CMake, pandas and dask[distributed] come from a virtual environment
# of its own (.build/python-venv, created from PyPI on first use; packages added since are
# installed into an existing one). When Dask cannot be installed, its tests show as skipped with
# the reason (pytest -rs).
set -eu
SWIFT=${SWIFT:-swift}
BUILT=${1:-.build/c-library}
PREFIX=$(mktemp -d)
trap 'rm -rf "$PREFIX"' EXIT
sh scripts/install_c_library.sh "$PREFIX" "$BUILT"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
CC=${CC:-cc}
CXX=${CXX:-c++}
RECORDING=data/phone-tilt-steer-100hz.csv

VENV=.build/python-venv
if [ ! -x "$VENV/bin/cmake" ]; then
    ${PYTHON:-python3} -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check numpy pytest vqf cmake
fi
if ! "$VENV/bin/python" -c "import pandas, distributed" 2>/dev/null; then
    "$VENV/bin/pip" install -q --disable-pip-version-check pandas "dask[distributed]" \
        || echo "note: pandas and dask[distributed] could not be installed; the Dask tests will be skipped"
fi

echo "== libpoise links the core alone; the readers link their own libraries"
# A host that embeds only libpoise gets none of the readers' dependencies (decompression,
# Foundation, FFTW); neither library needs a file of the Swift toolchain.
TOOLCHAIN_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
if readelf -d "$PREFIX/lib/libpoise.so" | grep NEEDED | grep -E -i 'libz|bz2|lz4|zstd|fftw|Foundation|swift'; then
    echo "libpoise needs a library beyond the core's" >&2; exit 1
fi
for library in libpoise.so libpoise-readers.so.0; do
    if ldd "$PREFIX/lib/$library" | grep -F "$TOOLCHAIN_DIR"; then echo "$library needs the toolchain" >&2; exit 1; fi
done
readelf -d "$PREFIX/lib/libpoise-readers.so.0" | sed -n 's/.*NEEDED.*\[\(.*\)\]/  readers need \1/p'

echo "== C game loop (shared library, via pkg-config)"
$CC -std=c11 -Wall -Wextra -Werror -O2 Examples/CGameLoop/game_loop.c $(pkg-config --cflags --libs poise) \
    -Wl,-rpath,"$PREFIX/lib" -lm -o "$PREFIX/game_loop"
"$PREFIX/game_loop" "$RECORDING" | tail -3
echo "== C game loop (static library)"
$CC -std=c11 -Wall -Wextra -Werror -O2 Examples/CGameLoop/game_loop.c $(pkg-config --cflags poise) \
    "$PREFIX/lib/libpoise.a" $(pkg-config --static --libs-only-l poise | sed 's/-lpoise//') -o "$PREFIX/game_loop_static"
"$PREFIX/game_loop_static" "$RECORDING" | tail -1
echo "== C++ robot loop (shared library, via pkg-config)"
$CXX -std=c++17 -Wall -Wextra -Werror -O2 Examples/CppRobotLoop/robot_loop.cpp $(pkg-config --cflags --libs poise) \
    -Wl,-rpath,"$PREFIX/lib" -o "$PREFIX/robot_loop"
"$PREFIX/robot_loop" | tail -3

echo "== C++ robot loop (CMake find_package(Poise), shared and static)"
"$VENV/bin/cmake" -S Examples/CppRobotLoop -B "$PREFIX/cmake-build" -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
"$VENV/bin/cmake" --build "$PREFIX/cmake-build" >/dev/null
"$PREFIX/cmake-build/robot_loop" | tail -1
"$PREFIX/cmake-build/robot_loop_static" | tail -1

echo "== CMake version file: this version and its API accepted, others refused"
VERSION=$(sed -n 's/^#define POISE_VERSION "\(.*\)".*/\1/p' include/poise.h)
MAJOR=$(echo "$VERSION" | cut -d. -f1); MINOR=$(echo "$VERSION" | cut -d. -f2)
if [ "$MAJOR" = 0 ]; then OTHER_API="0.$((MINOR + 1))"; OLDER_API="0.$((MINOR - 1))"; else OTHER_API="$((MAJOR + 1)).0"; OLDER_API="$((MAJOR - 1)).0"; fi
for request in "$VERSION:accepted" "$MAJOR.$MINOR:accepted" "$OTHER_API:refused" "$OLDER_API:refused" "$VERSION.1:refused"; do
    mkdir -p "$PREFIX/version-check"
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(v NONE)\nfind_package(Poise %s REQUIRED)\n' "${request%:*}" \
        > "$PREFIX/version-check/CMakeLists.txt"
    if "$VENV/bin/cmake" -S "$PREFIX/version-check" -B "$PREFIX/version-check/build-${request%:*}" \
        -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null 2>&1; then outcome=accepted; else outcome=refused; fi
    [ "$outcome" = "${request#*:}" ] || { echo "find_package(Poise ${request%:*}) against $VERSION: $outcome" >&2; exit 1; }
    echo "find_package(Poise ${request%:*}): $outcome"
done

echo "== Python package"
"$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall ./python 2>&1 | grep -v -i warning || true
BIN=$($SWIFT build --show-bin-path)
[ -x "$BIN/poise" ] || $SWIFT build --product poise >&2
POISE_LIBRARY="$PREFIX/lib/libpoise.so" POISE_READERS_LIBRARY="$PREFIX/lib/libpoise-readers.so.0" \
    POISE_CLI="$BIN/poise" POISE_DATA="$(pwd)/data" \
    "$VENV/bin/python" -m pytest -q -rs python/tests
