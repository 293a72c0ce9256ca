import ArgumentParser
import Foundation
import Poise
import PoiseSpectral

/// `poise response --filter SPEC --rate HZ`: a filter's gain, phase and group delay, its −3 dB
/// point and delay, measured from its impulse response (FrequencyResponse in PoiseSpectral).
public struct ResponseCommand: RenderingCommand {
    public static let configuration = CommandConfiguration(
        commandName: "response",
        abstract: "Frequency response of a filter: −3 dB point, delay, gain/phase/group delay per frequency.",
        discussion: """
        Measured from the filter's impulse response (exact for linear filters: lowpass, highpass, \
        factor, butter, accelgraph without adaptive). For adaptive/nonlinear filters (accelgraph \
        …,adaptive, oneeuro, adaptive) the response depends on the input size: it is measured with \
        an impulse of --amplitude around --baseline and the linearity error is reported. \
        --json: frequencies_hz, magnitude_db, phase_rad, group_delay_s and the summary \
        (minus_3db_hz, low_frequency_delay_s, linear, linearity_error). --csv: one row per bin.
        """)

    @Option(help: "Filter spec, e.g. lowpass:cutoff=5, butter:lowpass,order=4,cutoff=10, accelgraph:cutoff=5,adaptive.")
    public var filter: String

    @Option(parsing: .unconditional, help: "Sample rate in Hz.")
    public var rate: Double

    @Option(parsing: .unconditional, help: "Impulse response length in samples (frequency resolution = rate/length).")
    public var length: Int = 4096

    @Option(parsing: .unconditional, help: "Impulse size in input units (matters only for nonlinear filters).")
    public var amplitude: Double = 0.01

    @Option(parsing: .unconditional, help: "Constant input the filter settles on first, in input units.")
    public var baseline: Double = 0

    @Option(parsing: .unconditional, help: "Rows in the text table (log-spaced frequencies).")
    public var rows: Int = 12

    @OptionGroup public var output: OutputFormatOptions

    public init() {}

    public func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
        try OptionRange("--length", 16, Double(1 << 22), unit: "samples").check(length)
        try OptionRange("--amplitude", 0, 1e6, unit: "input units", includesLower: false).check(abs(amplitude))
        try OptionRange("--baseline", -1e6, 1e6, unit: "input units").check(baseline)
        try OptionRange("--rows", 2, 1000).check(rows)
        do { _ = try FilterSpec(parsing: filter) } catch { throw ValidationError("--filter: \(error)") }
    }

    /// The command's whole output.
    public func render() throws -> String {
        let spec: FilterSpec
        do { spec = try FilterSpec(parsing: filter) } catch { throw CommandError("\(error)") }
        let response: FrequencyResponse
        do {
            response = try FrequencyResponse.measure(spec: spec, sampleRate: rate, length: length,
                                                     amplitude: amplitude, baseline: baseline)
        } catch {
            throw CommandError("\(error)")
        }
        let decibels = response.magnitudeDecibels, phase = response.phase
        let cutoff = response.frequency()
        let linear = spec.isLinearTimeInvariant && (response.linearityError ?? 0) < 1e-9
        if output.json {
            let document = ResponseJSON(filter: spec.description, sample_rate_hz: rate, length: length,
                                        amplitude: amplitude, baseline: baseline,
                                        minus_3db_hz: cutoff, dc_gain_db: decibels.first ?? 0,
                                        low_frequency_delay_s: response.lowFrequencyDelay,
                                        linearity_error: response.linearityError ?? 0, linear: linear,
                                        tail_energy_fraction: response.tailEnergyFraction ?? 0,
                                        frequencies_hz: response.frequencies, magnitude_db: decibels,
                                        phase_rad: phase, group_delay_s: response.groupDelay)
            return try output.encode(document)
        }
        if output.csv {
            var out = "frequency_hz,magnitude_db,phase_rad,group_delay_s\n"
            for k in response.frequencies.indices {
                out += "\(response.frequencies[k]),\(decibels[k]),\(phase[k]),\(response.groupDelay[k])\n"
            }
            return out
        }
        var out = "\(spec) at \(fixed(rate, 3)) Hz (impulse response of \(length) samples, bins \(fixed(rate / Double(length), 4)) Hz apart)\n"
        out += "gain at 0 Hz: \(fixed(decibels.first ?? 0, 2)) dB\n"
        out += "−3 dB point (half power): \(cutoff.map { fixed($0, 3) + " Hz" } ?? "none (the gain never falls 3 dB below its 0 Hz value)")\n"
        out += "delay at low frequency: \(fixed(response.lowFrequencyDelay * 1000, 2)) ms (\(fixed(response.lowFrequencyDelay * rate, 2)) samples)\n"
        let error = String(format: "%.3g", response.linearityError ?? 0)
        if linear {
            out += "linear time-invariant: yes (response exact)\n"
        } else {
            out += "linear time-invariant: NO — approximate: response to an impulse of \(amplitude) on a baseline of \(baseline) (doubling the impulse changes it by \(error) relative)\n"
        }
        if let tail = response.tailEnergyFraction, tail > 1e-6 {
            out += "warning: \(String(format: "%.2g", tail * 100)) % of the impulse response energy is in its last 10 %; use a larger --length\n"
        }
        out += "\n  frequency Hz     gain dB   phase °   group delay ms\n"
        for k in tableRows(response.frequencies) {
            out += "  \(fixed(response.frequencies[k], 3, width: 12))  \(fixed(decibels[k], 2, width: 10))  "
                + "\(fixed(phase[k] * 180 / Double.pi, 1, width: 8))  \(fixed(response.groupDelay[k] * 1000, 2, width: 14))\n"
        }
        return out
    }

    /// Bin indices for the table: 0 Hz, then about `rows` log-spaced frequencies up to Nyquist.
    private func tableRows(_ frequencies: [Double]) -> [Int] {
        guard frequencies.count > 2, rows > 1 else { return Array(frequencies.indices) }
        let lowest = frequencies[1], highest = frequencies[frequencies.count - 1]
        var picked: [Int] = [0]
        for i in 0..<rows {
            let target = lowest * pow(highest / lowest, Double(i) / Double(rows - 1))
            let k = min(frequencies.count - 1, max(1, Int((target / lowest).rounded())))
            if picked.last != k { picked.append(k) }
        }
        return picked
    }

}

/// The JSON layout of `poise response --json` (units in the key names).
private struct ResponseJSON: Encodable {
    var filter: String
    var sample_rate_hz: Double
    var length: Int
    var amplitude: Double, baseline: Double
    var minus_3db_hz: Double?
    var dc_gain_db: Double
    var low_frequency_delay_s: Double
    var linearity_error: Double
    var linear: Bool
    var tail_energy_fraction: Double
    var frequencies_hz: [Double]
    var magnitude_db: [Double]
    var phase_rad: [Double]
    var group_delay_s: [Double]
}
