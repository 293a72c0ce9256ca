import Foundation
import ArgumentParser
import PoiseRecording

extension Scenario: ExpressibleByArgument {}

/// `poise simulate`: writes a simulated recording with known truth.
public struct SimulateCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated phone-IMU recording (acc, gyro, mag, true attitude) for a scenario.",
        discussion: "Scenarios: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")). Units in the file: s, g, rad/s, µT; gt_q* is the true attitude (device → earth ENU); movement is 1 while the device moves.")

    @Option(help: "Scenario name.")
    var scenario: Scenario

    @Option(parsing: .unconditional, help: "Nominal sample rate in Hz.")
    var rate: Double = 100

    @Option(parsing: .unconditional, help: "Length in seconds (default: the scenario's own length).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Random seed (same seed, same file).")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Magnetometer output rate in Hz (held between updates; default: every sample).")
    var magnetometerRate: Double?

    @Flag(help: "Perfect sensors on a perfect clock (no noise, bias, scale, misalignment, jitter or drops).")
    var ideal = false

    @OptionGroup var noise: SimulatedNoiseOptions

    @Option(parsing: .unconditional, help: "Significant digits per value (default: shortest exact round-trip form).")
    var digits: Int?

    @Option(help: "Output CSV file ('-': standard output; the summary then goes to standard error).")
    var out: String

    public init() {}

    /// Longest simulated recording, s (one week).
    static let maximumDuration = 604_800.0
    /// Most samples one file gets (about 20 GB of CSV; a week at 165 Hz).
    static let maximumSamples = 1e8

    public func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
        try OptionRange("--duration", 0, Self.maximumDuration, unit: "s", includesLower: false).check(duration)
        if let duration, duration * rate > Self.maximumSamples {
            throw ValidationError("--duration \(OptionRange.number(duration)) s at --rate \(OptionRange.number(rate)) Hz is \(OptionRange.number((duration * rate).rounded())) samples; a file holds at most \(OptionRange.number(Self.maximumSamples)) (about 20 GB of CSV)")
        }
        try OptionRange("--digits", 1, 17).check(digits)
        try OptionRange("--magnetometer-rate", 0, rate, unit: "Hz (the sample rate)", includesLower: false).check(magnetometerRate)
        try noise.check()
    }

    public func run() throws {
        let summary = try output()
        if OutputFile.isStandardOutput(out) { StandardError.write(summary + "\n") } else { print(summary) }
    }

    /// Writes the file; returns the one-line summary that `run()` prints.
    public func output() throws -> String {
        let configuration = SimulationConfiguration(scenario: scenario, rate: rate, duration: duration, seed: seed,
                                                    sensors: noise.applied(to: ideal ? .ideal : .phone), magnetometerRate: magnetometerRate)
        let interrupt = InterruptFlag()  // SIGINT/SIGTERM: delete the partial file, leave `out` as it was
        defer { interrupt.restore() }
        let writer = try RecordingWriter(path: out, options: WriteOptions(
            includeMagneticField: true, includeTruth: true, includeMovement: true, significantDigits: digits))
        var count = 0
        for sample in Simulator(configuration) {
            try writer.write(sample)
            count += 1
            if count & 4095 == 0, interrupt.isSet {
                writer.abandon()
                StandardError.write("poise simulate: \(interrupt.verb) after \(count) samples; \(OutputFile.isStandardOutput(out) ? "standard output is incomplete" : "\(out) was not written")\n")
                throw ExitCode(interrupt.exitCode)
            }
        }
        try writer.close()
        return "wrote \(count) samples (\(scenario.rawValue), \(configuration.effectiveDuration) s at \(rate) Hz, seed \(seed)) to \(OutputFile.isStandardOutput(out) ? "standard output" : out)"
    }
}
