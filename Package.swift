// swift-tools-version: 6.0
//
// Poise — motion-sensor signal processing toolkit and benchmark.
//
// Layers (arrows point to what a target may import):
//   poise (CLI) ─▶ PoiseCLI ─▶ PoiseReports ─▶ PoiseRun ─▶ PoiseRecording ─▶ Poise
//                          └─▶ PoiseSpectral (FFTW via CFFTW) ─────────────────▶ Poise
//   PoiseRecording ─▶ CZlib, CBzip2, CLz4, CZstd (system zlib, libbz2, liblz4, libzstd).
//   PoiseRecording: sources (readers, scans, resampling, simulator). PoiseRun: the pipeline's
//   drivers (batch, paced, frame clock), sinks and sweeps. PoiseReports: HTML/SVG pages built
//   from the sinks' results (it also imports PoiseSpectral for the spectra).
//   PoiseC (the C API of include/poise.h, via the CPoise module map) ─▶ Poise   (no FFTW);
//   CLanes: header-only C (a prefetch, acquire/release counters) for its two-thread fusion buffer.
//   CPoiseCPU: header-only C, the CPU check of builds for x86-64-v3 (the `poise` tool, libpoise).
//   Poise ─▶ CPoiseKernels: C kernels for AVX, chosen at run time by the portable build.
//   PoiseReadersC (the readers' C API of include/poise_readers.h, via CPoiseReaders) ─▶ PoiseRecording,
//   PoiseC: a library of its own (libpoise-readers), so that libpoise stays the core alone.
// `Poise` is the embeddable core and uses the Swift standard library only (no Foundation), plus
// CPoiseKernels, C compiled by the toolchain against libc.

import PackageDescription
import class Foundation.ProcessInfo

// Code generation for the host CPU. The default build is portable. Setting
// POISE_TARGET_CPU (for example `native` or `haswell`) compiles the core for that CPU, which
// enables fused multiply-adds and AVX (plain x86-64 splits a 4-lane Double vector, as in the
// Butterworth sections, into two SSE halves). The Makefile sets POISE_TARGET_CPU=native for local builds,
// tests and benchmarks; a package that depends on Poise gets the portable build, in which
// POISE_NO_FMA makes the hot loops use separate multiplies and adds on x86 (`addingProductFast`,
// Sources/Poise/Math/MultiplyAdd.swift): a fused step there would be a call to libm's `fma` per
// operation (docs/filters.md; the peers table in BENCHMARKS.md compares the two builds). That
// build also selects, on a CPU with AVX, the Butterworth cascade's kernel for Double vectors
// compiled for AVX in C (CPoiseKernels): the same operations, the same bits.
let targetCPU = ProcessInfo.processInfo.environment["POISE_TARGET_CPU"].flatMap { $0.isEmpty ? nil : $0 }
let coreSettings: [SwiftSetting] = targetCPU.map { [.unsafeFlags(["-target-cpu", $0])] } ?? [.define("POISE_NO_FMA")]
// `make dist` builds for the x86-64-v3 level (`haswell`: AVX2, FMA, BMI2). Such a build checks the
// CPU when `poise` starts (and libpoise when it is loaded) and says what is missing instead of
// dying on an illegal instruction (Sources/CPoiseCPU).
let checksCPU = targetCPU == "haswell"
// POISE_OPTIMIZED_CORE=1 (set by `make test`) compiles the core with -O in the debug build too, so
// the tests' numerical work (BROAD trials, the offline smoother, simulated sensors) runs at
// release speed; preconditions and overflow checks stay on, and the other targets stay -Onone.
let optimizedCore = ProcessInfo.processInfo.environment["POISE_OPTIMIZED_CORE"] == "1"
let coreTargetSettings = coreSettings + (optimizedCore ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : [])

let package = Package(
    name: "Poise",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Poise", targets: ["Poise"]),
        .library(name: "PoiseSpectral", targets: ["PoiseSpectral"]),
        .library(name: "PoiseRecording", targets: ["PoiseRecording"]),
        .library(name: "PoiseRun", targets: ["PoiseRun"]),
        .library(name: "PoiseReports", targets: ["PoiseReports"]),
        // The C API as a shared library (scripts/build_c_library.sh makes the distributable
        // libpoise.so / libpoise.a with the Swift runtime linked in).
        .library(name: "PoiseCAPI", type: .dynamic, targets: ["PoiseC"]),
        // The readers' C API (scripts/build_c_library.sh makes libpoise-readers.so from it).
        .library(name: "PoiseReadersCAPI", type: .dynamic, targets: ["PoiseReadersC"]),
        .executable(name: "poise", targets: ["poise"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "Poise", dependencies: ["CPoiseKernels"], swiftSettings: coreTargetSettings),
        // C kernels compiled with a per-function target (AVX) that the portable build of `Poise`
        // selects at run time on a CPU that has it (Sources/Poise/Filters/BiquadAVXKernel.swift).
        .target(name: "CPoiseKernels"),
        .systemLibrary(
            name: "CFFTW",
            pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]
        ),
        .target(name: "PoiseSpectral", dependencies: ["Poise", "CFFTW"], swiftSettings: coreSettings),
        // The decompressors of the recording formats (zip: zlib; ROS bags: libbz2, liblz4; MCAP:
        // liblz4, libzstd), as FFTW: Debian's -dev packages, linked by PoiseRecording only.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]),
        .systemLibrary(name: "CLz4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        .target(name: "PoiseRecording", dependencies: ["Poise", "CZlib", "CBzip2", "CLz4", "CZstd"], swiftSettings: coreSettings),
        .systemLibrary(name: "CPoise", path: "include"),
        .systemLibrary(name: "CLanes", path: "Sources/CLanes"),
        .target(name: "PoiseC", dependencies: ["Poise", "CPoise", "CLanes"], swiftSettings: coreSettings),
        .systemLibrary(name: "CPoiseReaders", path: "Sources/CPoiseReaders"),
        .target(name: "PoiseReadersC", dependencies: ["Poise", "PoiseC", "PoiseRecording", "CPoise", "CPoiseReaders"]),
        .target(name: "PoiseRun", dependencies: ["Poise", "PoiseRecording"], swiftSettings: coreSettings),
        .target(name: "PoiseReports", dependencies: ["Poise", "PoiseRecording", "PoiseSpectral", "PoiseRun"], swiftSettings: coreSettings),
        .target(
            name: "PoiseCLI",
            dependencies: [
                "Poise", "PoiseSpectral", "PoiseRecording", "PoiseRun", "PoiseReports", "CPoise",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .systemLibrary(name: "CPoiseCPU", path: "Sources/CPoiseCPU"),
        .executableTarget(name: "poise", dependencies: ["PoiseCLI", "CPoiseCPU"],
                          swiftSettings: checksCPU ? [.define("POISE_CHECK_CPU")] : []),
        // Small example programs (docs/reports.md); built with the package so they compile in CI.
        .executableTarget(name: "ExampleGameTilt", dependencies: ["Poise", "PoiseRecording"], path: "Examples/GameTilt"),
        .executableTarget(name: "ExampleGyroAim", dependencies: ["Poise", "PoiseRecording"], path: "Examples/GyroAim"),
        .executableTarget(name: "ExampleRobotIMU", dependencies: ["Poise", "PoiseRecording"], path: "Examples/RobotIMU"),
        .executableTarget(name: "ExampleUDPReceiver", path: "Examples/UDPReceiver"),
        .testTarget(name: "PoiseTests", dependencies: ["Poise"], exclude: ["Fixtures"], swiftSettings: coreSettings),
        .testTarget(name: "PoiseSpectralTests", dependencies: ["PoiseSpectral", "Poise"], exclude: ["Fixtures"]),
        .testTarget(name: "PoiseRecordingTests", dependencies: ["PoiseRecording"], exclude: ["Fixtures"]),
        .testTarget(name: "PoiseCLITests", dependencies: ["PoiseCLI", "Poise", "PoiseSpectral", "PoiseRecording"], exclude: ["Fixtures"]),
        .testTarget(name: "PoiseRunTests", dependencies: ["PoiseRun", "PoiseRecording"]),
        .testTarget(name: "PoiseReportsTests", dependencies: ["PoiseReports", "PoiseRun", "PoiseRecording"]),
        .testTarget(name: "PoiseCTests", dependencies: ["PoiseC", "CPoise", "CLanes", "Poise"]),
        .testTarget(name: "PoiseReadersCTests", dependencies: ["PoiseReadersC", "CPoiseReaders", "CPoise", "PoiseRecording", "Poise"]),
    ]
)
