#!/bin/sh
# The install test of `make test`: uses dist/ (built by `make dist`) as a user would, with the
# Swift toolchain out of reach. In an empty temporary folder, under `env -i PATH=/usr/bin:/bin`
# (no toolchain on PATH, no LD_LIBRARY_PATH):
#   - the tarball extracts with `tar -x -C PREFIX --strip-components=1`; `poise --version` prints
#     the version of include/poise.h; `poise fuse` runs on a recording of data/; `man -l` renders
#     the page; the bash completion script defines its function;
#   - a C program (Examples/CGameLoop) builds against the extracted tree through pkg-config and
#     runs, and pkg-config reports the version;
#   - ldd of bin/poise and lib/libpoise.so.* lists nothing under the toolchain's folder;
#   - the wheel installs into a new virtual environment (numpy, pytest and vqf from PyPI) and the
#     Python tests (a copy of python/tests) pass there against the installed package and the
#     extracted `poise` (with the BROAD trials when ../shared is there).
# With qemu-user installed, the tool and the C program run on an emulated CPU without AVX2 and
# must stop with the CPU message (exit status 1), and on an emulated Haswell must run.
# Also runs the CPU check's own test (Tests/CPUCheck) and the ABI check (scripts/check_abi.sh).
set -eu
ROOT=$(pwd)
ARCH=$(uname -m)
TARBALL=$(ls dist/poise-*-linux-"$ARCH".tar.gz 2>/dev/null | head -1)
WHEEL=$(ls dist/poise-*.whl 2>/dev/null | head -1)
[ -n "$TARBALL" ] && [ -n "$WHEEL" ] || { echo "no tarball or wheel in dist/: run make dist" >&2; exit 1; }
VERSION=$(sed -n 's/^#define POISE_VERSION "\(.*\)".*/\1/p' include/poise.h)
TOOLCHAIN=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
TOOLCHAIN=${TOOLCHAIN%/usr}   # /opt/swift for /opt/swift/usr/bin/swiftc
CC=${CC:-cc}

sh scripts/check_abi.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$CC -std=c11 -Wall -Wextra -Werror -O2 Tests/CPUCheck/cpu_check_test.c -o "$T/cpu_check_test"
"$T/cpu_check_test"

mkdir -p "$T/prefix" "$T/empty" "$T/home"
cp data/phone-tilt-steer-100hz.csv "$T/empty/recording.csv"
cp Examples/CGameLoop/game_loop.c "$T/empty/"
mkdir -p "$T/empty/python"
cp -R python/tests "$T/empty/python/tests"
find "$T/empty/python/tests" -name __pycache__ -prune -exec rm -rf {} +
# poise.read's tests also read the committed MCAP fixtures, at their place in the tree.
mkdir -p "$T/empty/Tests/PoiseRecordingTests/Fixtures"
cp -R Tests/PoiseRecordingTests/Fixtures/mcap "$T/empty/Tests/PoiseRecordingTests/Fixtures/mcap"
# The tests look for the real recordings in ../shared beside the tree they sit in.
[ ! -d ../shared/data ] || ln -s "$(cd ../shared && pwd)" "$T/shared"
tar -x -C "$T/prefix" --strip-components=1 -f "$TARBALL"
cp "$WHEEL" "$T/empty/"

# The user's side: nothing inherited from this environment but what is named here.
cd "$T/empty"
env -i PATH=/usr/bin:/bin HOME="$T/home" LC_ALL=C.UTF-8 PIP_CACHE_DIR="$ROOT/.build/pip-cache" \
    P="$T/prefix" VERSION="$VERSION" TOOLCHAIN="$TOOLCHAIN" CC="$CC" WHEEL="$(basename "$WHEEL")" \
    POISE_DATA="$ROOT/data" sh -eu <<'USER'
echo "== poise --version"
version=$("$P/bin/poise" --version)
[ "$version" = "$VERSION" ] || { echo "poise --version says '$version', include/poise.h '$VERSION'" >&2; exit 1; }
echo "$version"
echo "== poise fuse"
"$P/bin/poise" fuse recording.csv --out fused.csv
rows=$(wc -l < fused.csv)
[ "$rows" -gt 1000 ] || { echo "poise fuse wrote $rows lines" >&2; exit 1; }
head -c 300 fused.csv; echo
echo "== man -l"
man -l "$P/share/man/man1/poise.1" 2>&1 | col -b > man.txt
grep -q "poise fuse" man.txt && grep -q -- "--version" man.txt || { head -20 man.txt >&2; echo "the man page lacks the fuse command" >&2; exit 1; }
wc -l < man.txt
echo "== completions"
bash -c ". '$P/share/bash-completion/completions/poise' && complete -p poise"
test -s "$P/share/zsh/site-functions/_poise" && test -s "$P/share/fish/vendor_completions.d/poise.fish"
echo "== ldd: nothing from the toolchain ($TOOLCHAIN)"
for file in "$P/bin/poise" "$P"/lib/libpoise.so.*; do
    if ldd "$file" | grep -F -e "$TOOLCHAIN" -e "not found"; then echo "$file needs the toolchain" >&2; exit 1; fi
done
ldd "$P/bin/poise" | awk '{ print "   ", $1 }'
echo "== C program through pkg-config"
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
$CC -std=c11 -O2 game_loop.c $(pkg-config --cflags --libs poise) -Wl,-rpath,"$P/lib" -lm -o game_loop
./game_loop recording.csv | tail -2
[ "$(pkg-config --modversion poise)" = "$VERSION" ]
if command -v qemu-x86_64 >/dev/null && [ "$(uname -m)" = x86_64 ]; then
    echo "== CPU check (qemu-x86_64 -cpu Westmere: no AVX; -cpu Haswell: x86-64-v3)"
    for program in "$P/bin/poise --version" "./game_loop recording.csv"; do
        if qemu-x86_64 -cpu Westmere $program > old-cpu.out 2> old-cpu.err; then
            echo "$program ran on a CPU without AVX2" >&2; exit 1
        fi
        grep -q "needs an x86-64-v3 CPU.*lacks: .*avx2" old-cpu.err || { cat old-cpu.err >&2; echo "$program: no CPU message" >&2; exit 1; }
        head -c 160 old-cpu.err; echo " …"
    done
    [ "$(qemu-x86_64 -cpu Haswell "$P/bin/poise" --version 2>/dev/null)" = "$VERSION" ]
else
    echo "== CPU check: skipped (no qemu-x86_64; apt-get install qemu-user)"
fi
echo "== wheel in a new virtual environment"
python3 -m venv venv
venv/bin/pip install -q --disable-pip-version-check "./$WHEEL" pytest vqf
venv/bin/python -c "import poise, sys; print('poise', poise.__version__, 'from', poise.__file__); sys.exit(poise.__version__ != '$VERSION')"
POISE_CLI="$P/bin/poise" venv/bin/python -m pytest -q -rs -p no:cacheprovider python/tests
USER
echo "install test: ok ($(basename "$TARBALL"), $(basename "$WHEEL"))"
