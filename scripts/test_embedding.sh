#!/bin/sh
# The embedding checks of `make test`: installs the C library into a fresh temporary prefix,
# builds the C and C++ examples against it with the system compilers (shared and static),
# runs them, then runs the Python package's tests in their own virtual environment
# (.build/python-venv, created on first use from PyPI: numpy, pytest, vqf).
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

echo "== Python package"
VENV=.build/python-venv
if [ ! -x "$VENV/bin/python" ]; then
    ${PYTHON:-python3} -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q numpy pytest vqf
fi
"$VENV/bin/pip" install -q --no-deps --force-reinstall ./python
BIN=$($SWIFT build --show-bin-path)
[ -x "$BIN/poise" ] || $SWIFT build --product poise >&2
POISE_LIBRARY="$PREFIX/lib/libpoise.so.0" POISE_CLI="$BIN/poise" POISE_DATA="$(pwd)/data" \
    "$VENV/bin/python" -m pytest -q python/tests
