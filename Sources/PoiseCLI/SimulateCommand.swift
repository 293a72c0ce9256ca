import Foundation
import ArgumentParser
import Poise
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

    @Option(name: .customLong("mag-hard-iron"), parsing: .unconditional,
            help: ArgumentHelp("Hard-iron offset added to the magnetometer, µT, device frame (e.g. 25,-40,12).", valueName: "x,y,z"))
    var magneticHardIron: String?

    @Option(name: .customLong("mag-soft-iron"), parsing: .unconditional,
            help: ArgumentHelp("Soft-iron matrix applied to the field before the hard-iron offset: three values (the diagonal) or nine (row by row), dimensionless.", valueName: "a,b,c[,…]"))
    var magneticSoftIron: String?

    @OptionGroup var timing: SimulatedSensorOptions

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
        try timing.check(rate: rate)
        _ = try distortion()
    }

    /// `--mag-hard-iron` and `--mag-soft-iron` as a distortion.
    func distortion() throws -> MagnetometerDistortion {
        func numbers(_ text: String, _ option: String, counts: [Int]) throws -> [Double] {
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard counts.contains(values.count), values.allSatisfy({ $0?.isFinite == true }) else {
                throw ValidationError("\(option) '\(text)': expected \(counts.map(String.init).joined(separator: " or ")) finite numbers separated by commas")
            }
            return values.map { $0! }
        }
        var distortion = MagnetometerDistortion.none
        if let magneticHardIron {
            let v = try numbers(magneticHardIron, "--mag-hard-iron", counts: [3])
            guard v.allSatisfy({ $0.magnitude <= 4000 }) else { throw ValidationError("--mag-hard-iron: each component must lie within ±4000 µT") }
            distortion.hardIron = SIMD3(v[0], v[1], v[2])
        }
        if let magneticSoftIron {
            let v = try numbers(magneticSoftIron, "--mag-soft-iron", counts: [3, 9])
            guard v.allSatisfy({ $0.magnitude <= 10 }) else { throw ValidationError("--mag-soft-iron: each element must lie within ±10") }
            distortion.softIron = v.count == 3
                ? Matrix3(SIMD3(v[0], 0, 0), SIMD3(0, v[1], 0), SIMD3(0, 0, v[2]))
                : Matrix3(SIMD3(v[0], v[1], v[2]), SIMD3(v[3], v[4], v[5]), SIMD3(v[6], v[7], v[8]))
        }
        return distortion
    }

    public func run() throws {
        let summary = try output()
        if OutputFile.isStandardOutput(out) { StandardError.write(summary + "\n") } else { print(summary) }
    }

    /// Writes the file; returns the one-line summary that `run()` prints.
    public func output() throws -> String {
        var configuration = SimulationConfiguration(scenario: scenario, rate: rate, duration: duration, seed: seed,
                                                    sensors: noise.applied(to: ideal ? .ideal : .phone), magnetometerRate: magnetometerRate,
                                                    magnetometerDistortion: try distortion())
        try timing.apply(to: &configuration)
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
