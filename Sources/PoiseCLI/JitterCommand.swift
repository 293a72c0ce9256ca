import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// `poise jitter`: a filter's jitter on the still segments of a recording.
public struct JitterCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "jitter",
        abstract: "Jitter (RMS of |y − centred 1 s mean|, g) of a filter on a recording's still segments, with the raw jitter, the attenuation, and the lag on the moving segments.",
        discussion: "Still segments come from the rest detector (gyro |ω| < 0.035 rad/s and accelerometer RMS over 0.5 s < 0.01 g or 1.5 × its noise floor, at least 1 s). The filter runs on the acceleration with the real per-sample periods."
    )

    @Argument(help: "Recording CSV (Poise/BROAD names or the x-io export).")
    public var file: String

    @Option(name: .long, help: "Filter spec, e.g. accelgraph:cutoff=5,adaptive")
    public var filter: String

    @Option(name: .long, parsing: .unconditional, help: "Nominal sample rate in Hz (default: the recording's rate, the median interval of its first 2048 rows, as every command finds it).")
    public var rate: Double?

    @Flag(name: .long, help: "Print one JSON object.")
    public var json = false

    @OptionGroup var reading: ReadingOptions

    public init() {}

    public mutating func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
        do { _ = try FilterSpec(parsing: filter) } catch { throw ValidationError("--filter: \(error)") }
    }

    /// What `run()` prints.
    public func output() throws -> String {
        let spec = try FilterSpec(parsing: filter)
        let recording = try reading.load(file)
        try recording.schema.require([.accelerometer], file: file, for: "jitter (the filter runs on the acceleration)")
        guard let sampleRate = rate ?? nominalSampleRate(of: recording.samples) else {
            throw CommandError("\(file): fewer than two distinct timestamps; give --rate")
        }
        var detector = RestDetector()
        detector.useGyroscope = recording.schema.hasGyroscope
        var instance: AnyFilter<SIMD3<Double>> = try spec.makeFilter(sampleRate: sampleRate)
        let metrics = accelerationMetrics(&instance, samples: recording.samples, sampleRate: sampleRate, detector: detector)
        let result = metrics.jitter
        guard result.evaluatedSamples > 0 else {
            throw CommandError("\(file): no still segment of at least \(detector.minimumDuration) s found")
        }
        if json {
            let report = JitterReport(filter: spec.description, file: file, rate: sampleRate, result: result, lag: metrics.lag)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(report), as: UTF8.self)
        }
        let attenuation = result.attenuation.map { String(format: "%.1f×", $0) } ?? "∞ (output constant)"
        return [
            "filter \(spec)  rate \(String(format: "%.2f", sampleRate)) Hz  file \(file)",
            String(format: "still: %d segments, %.2f s, %d samples evaluated", result.segmentCount, result.stillSeconds, result.evaluatedSamples),
            String(format: "jitter %.3e g   raw %.3e g   attenuation %@", result.jitter, result.rawJitter, attenuation),
            metrics.lag.map { String(format: "lag on moving segments %.1f ms (%.2f samples, %d segments)", $0.milliseconds, $0.samples, $0.segmentCount) }
                ?? "lag: no moving segment longer than 0.5 s",
        ].joined(separator: "\n")
    }

    public func run() throws {
        // Spec and recording errors print as `Error: <what and where>` (exit code 1).
        print(try output())
    }
}

/// JSON of `poise jitter`.
struct JitterReport: Encodable {
    var filter: String
    var file: String
    var rate: Double
    var result: JitterResult
    var lag: LagResult?

    enum CodingKeys: String, CodingKey {
        case filter, file, rate_hz, jitter, raw_jitter, attenuation, still_seconds, segments, evaluated_samples, lag_ms
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(filter, forKey: .filter)
        try c.encode(file, forKey: .file)
        try c.encode(rate, forKey: .rate_hz)
        try c.encode(result.jitter, forKey: .jitter)
        try c.encode(result.rawJitter, forKey: .raw_jitter)
        try c.encode(result.attenuation, forKey: .attenuation)
        try c.encode(result.stillSeconds, forKey: .still_seconds)
        try c.encode(result.segmentCount, forKey: .segments)
        try c.encode(result.evaluatedSamples, forKey: .evaluated_samples)
        try c.encode(lag?.milliseconds, forKey: .lag_ms)
    }
}
