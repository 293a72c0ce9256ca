// swift-tools-version: 6.0
//
// Poise's benchmark suite: its own package, so library users never build it.
// Run with `make bench` from the project root (release build, medians, ratios against
// references measured in the same run).

import PackageDescription
import class Foundation.ProcessInfo

let targetCPU = ProcessInfo.processInfo.environment["POISE_TARGET_CPU"].flatMap { $0.isEmpty ? nil : $0 }
let swiftSettings: [SwiftSetting] = targetCPU.map { [.unsafeFlags(["-target-cpu", $0])] } ?? []

let package = Package(
    name: "PoiseBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Poise", path: ".."),
    ],
    targets: [
        // Plain-C reference kernels, compiled like hand-written C (-O3 -march=native).
        .target(
            name: "CReference",
            cSettings: [.unsafeFlags(["-O3", "-march=native"])],
            linkerSettings: [.linkedLibrary("fftw3")]   // the plain-C Welch reference (welch.c)
        ),
        .executableTarget(
            name: "PoiseBenchmarks",
            dependencies: [
                "CReference",
                .product(name: "Poise", package: "Poise"),
                .product(name: "PoiseRecording", package: "Poise"),
                .product(name: "PoiseSpectral", package: "Poise"),
                .product(name: "PoiseRun", package: "Poise"),
                .product(name: "PoiseReports", package: "Poise"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
