import CReference
import Foundation
import PoiseSpectral

/// Welch PSD of 1M samples × 3 axes (nperseg 1024, Hann, half overlap, constant detrend,
/// density) — Poise against scipy.signal.welch (timed by Benchmarks/scripts/bench_welch.py on the same
/// data, in the same run) and against a plain-C loop on FFTW. Also one real FFT of 2^20 samples
/// against numpy.fft.rfft.
func spectralSuite(_ r: Report) {
    let samples = 1 << 20, rate = 100.0, segment = 1024
    // Three axes: sines at different frequencies plus deterministic pseudo-random noise.
    var state: UInt64 = 0x5EED
    func noise() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53) - 0.5
    }
    let channels: [[Double]] = (0..<3).map { axis in
        (0..<samples).map { n in
            sin(2 * Double.pi * Double(7 + 5 * axis) * Double(n) / rate) + 0.3 * noise() + Double(axis)
        }
    }
    let configuration = SpectralConfiguration(sampleRate: rate, segmentLength: segment)
    guard let estimator = try? WelchEstimator(configuration: configuration),
          let measured = try? WelchEstimator(configuration: configuration, planning: .measure),
          var fft = try? RealFFT(count: samples) else {
        r.notes.append("could not set up the estimators"); return
    }
    let items = samples * 3
    var poise: [PowerSpectrum] = []
    let poiseTime = measure("welch 1M×3 L=1024: Poise (estimate plan)", items: items) {
        poise = try! estimator.estimate(channels: channels)
    }
    r.add(poiseTime)
    r.add(measure("welch 1M×3 L=1024: Poise (measure plan)", items: items) {
        blackHole(try! measured.estimate(channels: channels))
    })
    var cPSD = [Double](repeating: 0, count: segment / 2 + 1)
    let cTime = measure("welch 1M×3 L=1024: plain C on FFTW", items: items) {
        for channel in channels {
            channel.withUnsafeBufferPointer { x in
                cPSD.withUnsafeMutableBufferPointer { p in
                    _ = cref_welch_hann(x.baseAddress!, samples, segment, rate, p.baseAddress!)
                }
            }
        }
    }
    r.add(cTime)
    r.check("welch: Poise / plain C on FFTW", poiseTime.medianNanoseconds / cTime.medianNanoseconds, atMost: 1.25)
    var spectrum: [Complex] = []
    let rfftTime = measure("rfft 2^20: Poise RealFFT (estimate plan)", items: samples) {
        try! fft.forward(channels[0], into: &spectrum)
    }
    r.add(rfftTime)

    // scipy on the same data, in the same run.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poise-bench-welch-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let dataURL = directory.appendingPathComponent("signal.f64"), psdURL = directory.appendingPathComponent("psd.f64")
    let bytes = channels.flatMap { $0 }.withUnsafeBytes { Data($0) }
    guard (try? bytes.write(to: dataURL)) != nil else { r.notes.append("could not write \(dataURL.path)"); return }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Benchmarks/scripts/bench_welch.py").standardized
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--data", dataURL.path, "--rate", "\(rate)",
                         "--nperseg", "\(segment)", "--psd-out", psdURL.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { r.notes.append("python3 not found: scipy ratio not measured"); return }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let json = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
          let welchMilliseconds = json["welch_ms"] as? Double, let rfftMilliseconds = json["rfft_ms"] as? Double else {
        r.notes.append("Benchmarks/scripts/bench_welch.py failed (scipy missing?): scipy ratio not measured"); return
    }
    r.notes.append(String(format: "scipy %@ welch on the same data: %.2f ms; numpy rfft 2^20: %.2f ms",
                          "\(json["scipy"] ?? "?")", welchMilliseconds, rfftMilliseconds))
    r.check("welch: Poise / scipy.signal.welch", poiseTime.medianNanoseconds / 1e6 / welchMilliseconds, atMost: 0.5)
    // Informational, not a target: FFTW_ESTIMATE plans for 2^20 are ~2× slower than measured
    // ones, and measuring that size takes many seconds (see docs/spectral.md).
    r.notes.append(String(format: "rfft 2^20: Poise / numpy.fft.rfft = %.2f", rfftTime.medianNanoseconds / 1e6 / rfftMilliseconds))
    // Same answer as scipy (max relative difference over bins above 1e-12 of the peak).
    if let data = try? Data(contentsOf: psdURL) {
        let scipyPSD = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        let poisePSD = poise.flatMap(\.values)
        if scipyPSD.count == poisePSD.count, let peak = scipyPSD.max() {
            var worst = 0.0
            for (mine, theirs) in zip(poisePSD, scipyPSD) where theirs > 1e-12 * peak {
                worst = max(worst, abs(mine - theirs) / theirs)
            }
            r.notes.append(String(format: "welch: max relative difference to scipy %.2e", worst))
            r.check("welch: max relative difference to scipy / 1e-9", worst / 1e-9, atMost: 1)
        } else {
            r.notes.append("scipy PSD has \(scipyPSD.count) values, Poise \(poisePSD.count)")
        }
    }
}
