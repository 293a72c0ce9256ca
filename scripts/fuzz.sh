#!/bin/sh
# Builds and runs one libFuzzer target for a set time.
#
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags…]
#   TARGET: recording | filterspec | pipelinespec | timing | datagram | rosbag | mcap | columns | zip | capi | all   (all: each target for SECONDS)
#
# The library modules are compiled straight from Sources/ with swiftc, with coverage
# instrumentation and AddressSanitizer (-sanitize=fuzzer,address), into .build/fuzz/. Targets
# live in Fuzz/Sources/, seed corpora in Fuzz/corpus/TARGET/ (read-only: new inputs found
# while fuzzing go to .build/fuzz/corpus/TARGET/), crashes to .build/fuzz/crashes/TARGET/.
# Each run is limited to 2 GB RSS and 10 s per input, so a hang or unbounded growth is a failure.
set -eu
cd "$(dirname "$0")/.."
TARGET=${1:?usage: scripts/fuzz.sh recording|filterspec|pipelinespec|timing|datagram|rosbag|mcap|columns|zip|capi|all SECONDS}
SECONDS_TO_RUN=${2:-60}
shift; if [ $# -gt 0 ]; then shift; fi
B=.build/fuzz
OPT=${POISE_FUZZ_OPT:--O}
SAN="-sanitize=fuzzer,address"
# PoiseRecording's decompressors: the system zlib, libbz2, liblz4 and libzstd (module maps in Sources/).
CODECS="-I Sources/CZlib -I Sources/CBzip2 -I Sources/CLz4 -I Sources/CZstd"
CODEC_LIBS="-lz -lbz2 -llz4 -lzstd"
# Poise's C kernels (Sources/CPoiseKernels): its module map for the compiler, its object in libPoise.
KERNELS="-I Sources/CPoiseKernels/include"
mkdir -p "$B"

quiet() { "$@" 2>&1 | grep -v "Cannot export local symbol" || true; }

module() {  # module NAME SOURCE_DIR — static library + swiftmodule, rebuilt when a source is newer
    name=$1; dir=$2
    if [ -f "$B/lib$name.a" ] && [ -z "$(find "$dir" -name '*.swift' -newer "$B/lib$name.a")" ]; then return; fi
    echo "fuzz: compiling $name ($OPT)…"
    # shellcheck disable=SC2046
    swiftc $SAN $OPT -parse-as-library -package-name Poise -module-name "$name" -I "$B" -I include $CODECS \
        $KERNELS -emit-module -emit-module-path "$B/$name.swiftmodule" \
        -emit-library -static -o "$B/lib$name.a" $(find "$dir" -name '*.swift' | sort)
    if [ "$name" = Poise ]; then
        clang -c -O2 -fPIC -I Sources/CPoiseKernels/include -o "$B/biquad_avx.o" Sources/CPoiseKernels/biquad_avx.c
        ar rs "$B/libPoise.a" "$B/biquad_avx.o" 2>/dev/null
    fi
}

build() {  # build TARGET → $B/TARGET
    module Poise Sources/Poise
    module PoiseRecording Sources/PoiseRecording
    case $1 in
        recording) src=Fuzz/Sources/RecordingReaderFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        filterspec) src=Fuzz/Sources/FilterSpecFuzz.swift; libs="-lPoise" ;;
        pipelinespec) src=Fuzz/Sources/PipelineSpecFuzz.swift; libs="-lPoise" ;;
        timing) src=Fuzz/Sources/TimingFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        datagram) src=Fuzz/Sources/DatagramFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        rosbag) src=Fuzz/Sources/RosBagFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        mcap) src=Fuzz/Sources/McapFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        columns) src=Fuzz/Sources/ColumnMappingFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        zip) src=Fuzz/Sources/ZipSessionFuzz.swift; libs="-lPoiseRecording -lPoise" ;;
        capi) module PoiseC Sources/PoiseC; src=Fuzz/Sources/CAPIFuzz.swift; libs="-lPoiseC -lPoise" ;;
        *) echo "unknown target $1 (recording, filterspec, pipelinespec, timing, datagram, rosbag, mcap, columns, zip, capi)" >&2; exit 2 ;;
    esac
    echo "fuzz: linking $1…"
    # shellcheck disable=SC2086
    case $libs in *PoiseRecording*) libs="$libs $CODEC_LIBS" ;; esac
    quiet swiftc $SAN $OPT -parse-as-library -package-name Poise -I "$B" -I include $CODECS $KERNELS -L "$B" $src $libs -o "$B/$1"
    [ -x "$B/$1" ] || { echo "fuzz: build of $1 failed" >&2; exit 1; }
}

run() {  # run TARGET SECONDS [libFuzzer flags…]
    t=$1; s=$2; shift 2
    build "$t"
    mkdir -p "$B/corpus/$t" "$B/crashes/$t"
    echo "fuzz: running $t for $s s"
    # MCAP seeds carry ROS 2 message definitions of 1–2 KB each: longer inputs for that target.
    len=4096; if [ "$t" = mcap ]; then len=16384; fi
    SWIFT_BACKTRACE=enable=no POISE_FUZZ_TMP=${TMPDIR:-/tmp} "$B/$t" -max_total_time="$s" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$len" -print_final_stats=1 -artifact_prefix="$B/crashes/$t/" "$@" \
        "$B/corpus/$t" "Fuzz/corpus/$t"
}

if [ "$TARGET" = all ]; then
    for t in recording filterspec pipelinespec timing datagram rosbag mcap columns zip capi; do run $t "$SECONDS_TO_RUN" "$@"; done
else
    run "$TARGET" "$SECONDS_TO_RUN" "$@"
fi
