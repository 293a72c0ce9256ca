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

    @Option(help: "Nominal sample rate in Hz.")
    var rate: Double = 100

    @Option(help: "Length in seconds (default: the scenario's own length).")
    var duration: Double?

    @Option(help: "Random seed (same seed, same file).")
    var seed: UInt64 = 1

    @Option(help: "Magnetometer output rate in Hz (held between updates; default: every sample).")
    var magnetometerRate: Double?

    @Flag(help: "Perfect sensors on a perfect clock (no noise, bias, scale, misalignment, jitter or drops).")
    var ideal = false

    @Option(help: "Significant digits per value (default: shortest exact round-trip form).")
    var digits: Int?

    @Option(help: "Output CSV file ('-': standard output; the summary then goes to standard error).")
    var out: String

    public init() {}

    public func validate() throws {
        guard rate.isFinite, rate > 0, rate <= 100_000 else { throw ValidationError("--rate must be in (0, 100000] Hz") }
        if let duration, !(duration.isFinite && duration > 0 && duration <= 1_000_000) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
        if let digits, !(1...17).contains(digits) { throw ValidationError("--digits must be between 1 and 17") }
        if let magnetometerRate, !(magnetometerRate.isFinite && magnetometerRate > 0) {
            throw ValidationError("--magnetometer-rate must be positive")
        }
    }

    public func run() throws {
        let summary = try output()
        if OutputFile.isStandardOutput(out) { StandardError.write(summary + "\n") } else { print(summary) }
    }

    /// Writes the file; returns the one-line summary that `run()` prints.
    public func output() throws -> String {
        let configuration = SimulationConfiguration(scenario: scenario, rate: rate, duration: duration, seed: seed,
                                                    sensors: ideal ? .ideal : .phone, magnetometerRate: magnetometerRate)
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
