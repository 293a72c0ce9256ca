import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// `poise step`: latency to 90 % of the standard tilt and shake steps for a filter spec.
public struct StepCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "step",
        abstract: "Latency to 90 % of the tilt step (0,0,1 g → 0,1 g,0) and the shake step (0,0,1 g → 0,0,1.5 g) for a filter.",
        discussion: "Filter specs: \(FilterSpec.names.joined(separator: ", ")), e.g. lowpass:cutoff=5, factor:k=0.1, butter:lowpass,order=4,cutoff=5, accelgraph:cutoff=5,adaptive, oneeuro:mincutoff=0.1,beta=2, adaptive. See docs/filters.md."
    )

    @Option(name: .long, help: "Filter spec, e.g. factor:k=0.1")
    public var filter: String

    @Option(name: .long, parsing: .unconditional, help: "Sample rate in Hz.")
    public var rate: Double = 100

    @Option(name: .long, help: "Add the first still segment of this recording (minus its mean) as noise.")
    public var noise: String?

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
        var noiseSamples: [SIMD3<Double>] = []
        var noiseNote: String? = nil
        if let noise {
            let recording = try reading.load(noise)
            try recording.schema.require([.accelerometer], file: noise, for: "--noise (the accelerometer's noise is added to the steps)")
            var detector = RestDetector()
            detector.useGyroscope = recording.schema.hasGyroscope
            guard let segment = detector.stillSegments(in: recording.samples).first else {
                throw CommandError("\(noise): no still segment of at least \(detector.minimumDuration) s found for --noise")
            }
            let values = recording.samples[segment].map(\.acceleration)
            let mean = values.reduce(SIMD3<Double>.zero, +) / Double(values.count)
            noiseSamples = values.map { $0 - mean }
            let times = recording.samples[segment]
            noiseNote = String(format: "%@ samples %d..<%d (%.2f–%.2f s)", noise, segment.lowerBound, segment.upperBound,
                               times.first!.time, times.last!.time)
        }
        var results: [StandardStep: StepLatency] = [:]
        for step in StandardStep.allCases {
            var instance: AnyFilter<SIMD3<Double>> = try spec.makeFilter(sampleRate: rate)
            results[step] = latency90(&instance, step: step, sampleRate: rate, noise: noiseSamples)
        }
        let tilt = results[.tilt]!, shake = results[.shake]!
        if json {
            let report = StepReport(filter: spec.description, rate: rate, noise: noiseNote, tilt: tilt, shake: shake)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(report), as: UTF8.self)
        }
        func line(_ name: String, _ latency: StepLatency) -> String {
            guard let samples = latency.samples, let ms = latency.milliseconds else {
                return "\(name)  not reached (90 % never attained)"
            }
            return "\(name)  \(samples) samples  \(String(format: "%.1f", ms)) ms"
        }
        var lines = ["filter \(spec)  rate \(String(format: "%g", rate)) Hz"]
        if let noiseNote { lines.append("noise  \(noiseNote)") }
        lines.append(line("tilt step  (0,0,1 g → 0,1 g,0)  latency90:", tilt))
        lines.append(line("shake step (0,0,1 g → 0,0,1.5 g) latency90:", shake))
        return lines.joined(separator: "\n")
    }

    public func run() throws {
        // Spec and recording errors print as `Error: <what and where>` (exit code 1).
        print(try output())
    }
}

/// JSON of `poise step`: the top-level latency is the tilt step's.
struct StepReport: Encodable {
    var filter: String
    var rate: Double
    var noise: String?
    var tilt: StepLatency
    var shake: StepLatency

    enum CodingKeys: String, CodingKey {
        case filter, rate_hz, noise, latency90_samples, latency90_ms, shake_latency90_samples, shake_latency90_ms
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(filter, forKey: .filter)
        try c.encode(rate, forKey: .rate_hz)
        try c.encode(noise, forKey: .noise)
        try c.encode(tilt.samples, forKey: .latency90_samples)
        try c.encode(tilt.milliseconds, forKey: .latency90_ms)
        try c.encode(shake.samples, forKey: .shake_latency90_samples)
        try c.encode(shake.milliseconds, forKey: .shake_latency90_ms)
    }
}
