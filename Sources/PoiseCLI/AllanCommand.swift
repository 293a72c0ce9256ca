import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseReports

extension AllanClusterSizes: ExpressibleByArgument {}

/// `poise allan FILE`: overlapping Allan deviation per gyroscope and accelerometer axis of a
/// still recording, and the noise parameters read off it (docs/noise.md). Parses, checks and
/// prints; the statistics are `AllanDeviationAccumulator` and `AllanNoiseParameters` in Poise.
public struct AllanCommand: RenderingCommand {
    public static let configuration = CommandConfiguration(
        commandName: "allan",
        abstract: "Overlapping Allan deviation of a still recording's gyroscope and accelerometer axes, with the noise parameters read off it.",
        discussion: """
        One streaming pass (standard input works; memory does not grow with the recording). \
        Cluster times m·τ0 with m = 1, 2, 4, 8, … (--sizes octave) or 1, 2, 4, 10, 20, 40, … \
        (--sizes decade), as allantools; deviations equal allantools.oadev(data_type="freq"). \
        Parameters (IEEE Std 952): white noise N (gyro: angle random walk, °/√h and rad/s/√Hz; \
        accel: velocity random walk, m/s/√h and m/s²/√Hz) on the slope −1/2 line at τ = 1 s; \
        bias instability B (°/h and rad/s; mg and m/s²) from the flat floor / 0.664, with its \
        cluster time; rate random walk K (°/h/√h and rad/s²/√Hz; m/s²/√h and m/s³/√Hz) on the \
        slope +1/2 line at τ = 3 s. A parameter the curve does not show is reported as not \
        determined, with the reason. The recording must be still (rest detector) throughout: \
        choose a still stretch with --start/--end.
        """)

    @Argument(help: "Recording ('-': standard input), any format Poise reads.")
    public var file: String

    @Option(help: "Cluster sizes: octave (1, 2, 4, 8, …) or decade (1, 2, 4, 10, 20, 40, …).")
    public var sizes: AllanClusterSizes = .octave

    @Option(name: .customLong("max-cluster-time"), parsing: .unconditional,
            help: "Longest cluster time computed, seconds (default: 524288 samples, 1311 s at 400 Hz; memory ≈ 6 axes × 16 bytes per sample of it).")
    public var maximumClusterTime: Double?

    @Option(parsing: .unconditional, help: "Sample rate in Hz (default: from the timestamps: the span over the sample steps, a missing sample counted as a step; the median interval of the first 2048 samples for recordings shorter than that).")
    public var rate: Double?

    @Option(parsing: .unconditional, help: "Use samples from this time on (seconds, recording clock).")
    public var start: Double?

    @Option(parsing: .unconditional, help: "Use samples up to this time (seconds, recording clock).")
    public var end: Double?

    @Flag(help: "Print JSON (SI units named in the keys' unit fields).")
    public var json = false

    @Option(help: ArgumentHelp("Also write the noise figures as a Kalibr imu.yaml (noise densities and random walks, SI units).", valueName: "imu.yaml"))
    public var kalibr: String?

    @Option(help: ArgumentHelp("rostopic written into the Kalibr file.", valueName: "topic"))
    public var rostopic: String = "/imu0"

    @Option(help: ArgumentHelp("Also write an HTML page with the log-log Allan deviation plots and the fitted lines.", valueName: "page.html"))
    public var report: String?

    @OptionGroup var reading: ReadingOptions

    public init() {}

    /// Fewest samples analysed.
    static let minimumSamples = 100
    /// Largest fraction of samples outside still segments.
    static let maximumMovingFraction = 0.10
    /// An axis is saturated when at least this fraction of its samples sit on its extreme value
    /// and that value is at least `saturationFloor` (a real rail, not a quantisation step).
    static let saturatedFraction = 0.01
    static func saturationFloor(_ axis: AllanStream.Axis) -> Double { axis.isGyroscope ? 4.3 : 2 }  // rad/s (245 °/s), g

    public func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
        try OptionRange("--max-cluster-time", 0, 1e9, unit: "s", includesLower: false).check(maximumClusterTime)
        try OptionRange("--start", -1e15, 1e15, unit: "s").check(start)
        try OptionRange("--end", -1e15, 1e15, unit: "s").check(end)
        if let start, let end, end <= start { throw ValidationError("--end (\(OptionRange.number(end)) s) must be after --start (\(OptionRange.number(start)) s)") }
        for (name, path) in [("--kalibr", kalibr), ("--report", report)] {
            if let path, path == file, path != "-" { throw ValidationError("\(name) \(path) is the input recording; choose another file") }
        }
    }

    /// The analysis with the recording checked: refuses what the Allan deviation cannot use.
    func analyse() throws -> (AllanStream.Result, [AllanNoiseParameters]) {
        let stream = AllanStream(path: file, options: reading.applied(to: ReadOptions(sampleRate: rate)), start: start,
                                 end: end, rate: rate, sizes: sizes, maximumClusterTime: maximumClusterTime)
        let r = try stream.run()
        let count = r.adev.sampleCount
        if let bad = r.firstNonFinite {
            throw CommandError("\(file): \(bad.axis.rawValue) is not finite at sample \(bad.index + 1) (t = \(bad.time) s); the Allan deviation needs every value: choose a stretch without it with --start/--end")
        }
        guard count >= Self.minimumSamples else {
            throw CommandError("\(file): \(count) samples\(start != nil || end != nil ? " in the selected time range" : ""); the Allan deviation needs at least \(Self.minimumSamples) (and hours for the bias terms)")
        }
        for (c, axis) in r.axes.enumerated() where r.extremes[c].value >= Self.saturationFloor(axis)
            && Double(r.extremes[c].count) >= Self.saturatedFraction * Double(count) {
            let unit = axis.isGyroscope ? "rad/s" : "g"
            throw CommandError("\(file): \(axis.rawValue) is saturated: \(r.extremes[c].count) samples (\(percent(Double(r.extremes[c].count) / Double(count)))) sit at ±\(r.extremes[c].value) \(unit); the Allan deviation of a clipped signal says nothing about its noise")
        }
        let moving = Double(r.movingSamples) / Double(count)
        if moving > Self.maximumMovingFraction {
            throw CommandError("\(file): ADEV needs a still recording; \(percent(moving)) of this one moves (rest detector: |ω| < 0.035 rad/s, accelerometer RMS over 0.5 s < 0.01 g or 1.5 × its noise floor, segments ≥ 1 s); choose a still stretch with --start/--end")
        }
        return (r, r.axes.indices.map { AllanNoiseParameters(r.adev, channel: $0) })
    }

    public func render() throws -> String {
        let (r, parameters) = try analyse()
        let figures = zip(r.axes, parameters).map { AxisFigures(axis: $0, parameters: $1) }
        if let kalibr { try writeKalibr(kalibr, figures: figures, result: r) }
        if let report { try writeReport(report, result: r, figures: figures) }
        return json ? try renderJSON(r, figures: figures) : renderText(r, figures: figures)
    }

    // MARK: - Units

    /// One axis's parameters in SI units (rad, m, s) and in the units datasheets use.
    struct AxisFigures {
        var axis: AllanStream.Axis
        var parameters: AllanNoiseParameters
        /// Factor from the recording's unit (rad/s or g) to SI (rad/s or m/s²).
        var si: Double { axis.isGyroscope ? 1 : Units.standardGravity }
        var noiseDensity: Double? { parameters.whiteNoise.map { $0 * si } }
        var biasInstability: Double? { parameters.biasInstability.map { $0 * si } }
        var randomWalk: Double? { parameters.rateRandomWalk.map { $0 * si } }
        static let degree = 180 / Double.pi
        /// Why B is not determined, with its upper bound in both units when there is one.
        var biasInstabilityReason: String? {
            guard let reason = parameters.biasInstabilityReason else { return nil }
            guard let bound = parameters.biasInstabilityUpperBound.map({ $0 * si }) else { return reason }
            let shown = axis.isGyroscope ? String(format: "%.3g rad/s = %.3g °/h", bound, bound * Self.degree * 3600)
                : String(format: "%.3g m/s² = %.3g mg", bound, bound / Units.standardGravity * 1000)
            return reason + " (B < \(shown))"
        }
        /// (label, SI unit, SI value, display unit, display value, reason when not determined)
        var rows: [(String, String, Double?, String, Double?, String?)] {
            if axis.isGyroscope {
                return [("angle random walk N", "rad/s/√Hz", noiseDensity, "°/√h", noiseDensity.map { $0 * Self.degree * 60 }, parameters.whiteNoiseReason),
                        ("bias instability B", "rad/s", biasInstability, "°/h", biasInstability.map { $0 * Self.degree * 3600 }, biasInstabilityReason),
                        ("rate random walk K", "rad/s²/√Hz", randomWalk, "°/h/√h", randomWalk.map { $0 * Self.degree * 216_000 }, parameters.rateRandomWalkReason)]
            }
            return [("velocity random walk N", "m/s²/√Hz", noiseDensity, "m/s/√h", noiseDensity.map { $0 * 60 }, parameters.whiteNoiseReason),
                    ("bias instability B", "m/s²", biasInstability, "mg", biasInstability.map { $0 / Units.standardGravity * 1000 }, biasInstabilityReason),
                    ("acceleration random walk K", "m/s³/√Hz", randomWalk, "m/s²/√h", randomWalk.map { $0 * 60 }, parameters.rateRandomWalkReason)]
        }
    }

    // MARK: - Output

    private func heading(_ r: AllanStream.Result) -> String {
        let adev = r.adev
        var out = "\(file): \(adev.sampleCount) samples at \(fixed(r.sampleRate, 3)) Hz (\(r.rateFromTimestamps ? "from timestamps" : "--rate")), \(fixed(r.lastTime - r.firstTime, 1)) s, still; overlapping Allan deviation at \(adev.clusterSizes.count) \(sizes.rawValue) cluster times\n"
        if r.gaps > 0 {
            out += "note: \(r.gaps) gaps longer than 1.5 sample intervals (longest \(fixed(r.longestGap, 3)) s); the Allan deviation treats the samples as evenly spaced\n"
        }
        if r.movingSamples > 0 {
            out += "note: \(percent(Double(r.movingSamples) / Double(adev.sampleCount))) of the samples are outside still segments\n"
        }
        if let first = adev.omittedClusterSizes.first {
            out += "note: cluster times from \(sci(Double(first) / r.sampleRate)) s on not computed (--max-cluster-time, memory)\n"
        }
        return out
    }

    private func renderText(_ r: AllanStream.Result, figures: [AxisFigures]) -> String {
        var out = heading(r)
        let adev = r.adev
        for gyroscope in [true, false] {
            let channels = r.axes.indices.filter { r.axes[$0].isGyroscope == gyroscope }
            guard !channels.isEmpty else { continue }
            let (unit, factor) = gyroscope ? ("°/s", AxisFigures.degree) : ("m/s²", Units.standardGravity)
            out += "\n\(gyroscope ? "gyroscope" : "accelerometer") Allan deviation (\(unit))\n"
            out += "  τ (s)        clusters" + channels.map { "  " + r.axes[$0].rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) }.joined() + "\n"
            for i in adev.clusterSizes.indices {
                out += "  " + sci(adev.clusterTimes[i]).padding(toLength: 11, withPad: " ", startingAt: 0)
                out += String(format: "%9d", adev.sampleCount / adev.clusterSizes[i])
                out += channels.map { "  " + sci(adev.deviations[$0][i] * factor).padding(toLength: 10, withPad: " ", startingAt: 0) }.joined() + "\n"
            }
        }
        var undetermined: [String] = []
        for gyroscope in [true, false] {
            let axes = figures.filter { $0.axis.isGyroscope == gyroscope }
            guard let first = axes.first else { continue }
            out += "\n\(gyroscope ? "gyroscope" : "accelerometer") noise" + String(repeating: " ", count: gyroscope ? 25 : 21)
            out += axes.map { $0.axis.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined() + "\n"
            for (row, label) in first.rows.enumerated().map({ ($0.offset, $0.element.0) }) {
                for useSI in [false, true] {
                    let unit = useSI ? first.rows[row].1 : first.rows[row].3
                    let title = (useSI ? "" : label) + " (\(unit))"
                    out += "  " + title.padding(toLength: 38, withPad: " ", startingAt: 0)
                    out += axes.map { a in
                        let value = useSI ? a.rows[row].2 : a.rows[row].4
                        return (value.map(sci) ?? "–").padding(toLength: 12, withPad: " ", startingAt: 0)
                    }.joined() + "\n"
                }
                if row == 1 {
                    out += "  " + "  at τ (s)".padding(toLength: 38, withPad: " ", startingAt: 0)
                    out += axes.map { ($0.parameters.biasInstabilityClusterTime.map(sci) ?? "–").padding(toLength: 12, withPad: " ", startingAt: 0) }.joined() + "\n"
                }
            }
            for a in axes {
                for row in a.rows { if let reason = row.5 { undetermined.append("\(a.axis.rawValue) \(row.0.split(separator: " ").last!): \(reason)") } }
            }
        }
        if !undetermined.isEmpty {
            out += "\nnot determined (–):\n" + undetermined.map { "  \($0)\n" }.joined()
        }
        return out
    }

    private func renderJSON(_ r: AllanStream.Result, figures: [AxisFigures]) throws -> String {
        let adev = r.adev
        let axes = figures.enumerated().map { c, f in
            AllanJSON.Axis(name: f.axis.rawValue, unit: f.axis.isGyroscope ? "rad/s" : "m/s^2",
                           adev: adev.deviations[c].map { $0 * f.si },
                           noise_density: f.noiseDensity, noise_density_unit: f.rows[0].1,
                           bias_instability: f.biasInstability, bias_instability_unit: f.rows[1].1,
                           bias_instability_tau_s: f.parameters.biasInstabilityClusterTime,
                           random_walk: f.randomWalk, random_walk_unit: f.rows[2].1,
                           display: f.rows.map { AllanJSON.Display(name: $0.0, unit: $0.3, value: $0.4) },
                           not_determined: Dictionary(uniqueKeysWithValues: f.rows.compactMap { row in row.5.map { (row.0, $0) } }))
        }
        return try OutputFormatOptions().encode(AllanJSON(
            file: file, samples: adev.sampleCount, sample_rate_hz: r.sampleRate, duration_s: r.lastTime - r.firstTime,
            sizes: sizes.rawValue, cluster_sizes: adev.clusterSizes, cluster_times_s: adev.clusterTimes,
            clusters: adev.clusterSizes.map { adev.sampleCount / $0 }, terms: adev.termCounts,
            omitted_cluster_times_s: adev.omittedClusterSizes.map { Double($0) * adev.sampleInterval },
            gaps: r.gaps, moving_fraction: Double(r.movingSamples) / Double(adev.sampleCount), axes: axes))
    }

    /// The Kalibr `imu.yaml`: per sensor the largest of its axes' values (the noisiest axis);
    /// a value no axis determines is left out, with the reason as a comment.
    private func writeKalibr(_ path: String, figures: [AxisFigures], result r: AllanStream.Result) throws {
        var text = "# IMU noise of \(file) from `poise allan`: overlapping Allan deviation of \(r.adev.sampleCount) samples at \(fixed(r.sampleRate, 3)) Hz (\(fixed(r.lastTime - r.firstTime, 1)) s).\n"
        text += "# Each value is the largest of the sensor's three axes (SI units). These are measured values;\n"
        text += "# Kalibr users commonly inflate them (often by 2 to 10 times) to cover temperature, vibration\n"
        text += "# and effects the model leaves out.\n"
        for (sensor, gyroscope) in [("accelerometer", false), ("gyroscope", true)] {
            let axes = figures.filter { $0.axis.isGyroscope == gyroscope }
            for (key, row, unit) in [("noise_density", 0, gyroscope ? "rad/s/sqrt(Hz)" : "m/s^2/sqrt(Hz)"),
                                     ("random_walk", 2, gyroscope ? "rad/s^2/sqrt(Hz)" : "m/s^3/sqrt(Hz)")] {
                let values = axes.compactMap { $0.rows[row].2 }
                if axes.isEmpty {
                    text += "# \(sensor)_\(key): the recording has no \(sensor)\n"
                } else if let largest = values.max(), values.count == axes.count {
                    text += "\(sensor)_\(key): \(String(format: "%.6e", largest))  # \(unit)\n"
                } else {
                    let reason = axes.compactMap { $0.rows[row].5 }.first ?? ""
                    text += "# \(sensor)_\(key): not determined on every axis: \(reason)\n"
                }
            }
        }
        text += "rostopic: \(rostopic)\n"
        text += "update_rate: \(fixed(r.sampleRate, 3))  # Hz\n"
        let output = try OutputFile(path: path)
        output.append(text)
        try output.finish()
    }

    private func writeReport(_ path: String, result r: AllanStream.Result, figures: [AxisFigures]) throws {
        let page = AllanReportPage(title: "Allan deviation of \(file)", summary: heading(r).split(separator: "\n").map(String.init),
                                   clusterTimes: r.adev.clusterTimes,
                                   axes: figures.enumerated().map { c, f in
                                       AllanReportPage.Axis(name: f.axis.rawValue, isGyroscope: f.axis.isGyroscope,
                                                            deviations: r.adev.deviations[c].map { $0 * f.si },
                                                            noiseDensity: f.noiseDensity, biasInstability: f.biasInstability,
                                                            biasInstabilityClusterTime: f.parameters.biasInstabilityClusterTime,
                                                            randomWalk: f.randomWalk,
                                                            rows: f.rows.map { ($0.0, $0.3, $0.4, $0.1, $0.2, $0.5) })
                                   })
        let output = try OutputFile(path: path)
        output.append(page.html())
        try output.finish()
    }

    private func sci(_ x: Double) -> String { String(format: "%.3g", x) }
    private func percent(_ x: Double) -> String { String(format: "%.0f %%", 100 * x) }
}

/// The JSON layout of `poise allan --json` (SI units: rad/s and m/s², as named in the unit fields).
private struct AllanJSON: Encodable {
    struct Display: Encodable { var name: String, unit: String, value: Double? }
    struct Axis: Encodable {
        var name: String, unit: String
        var adev: [Double]
        var noise_density: Double?, noise_density_unit: String
        var bias_instability: Double?, bias_instability_unit: String, bias_instability_tau_s: Double?
        var random_walk: Double?, random_walk_unit: String
        var display: [Display]
        var not_determined: [String: String]
    }
    var file: String
    var samples: Int
    var sample_rate_hz: Double, duration_s: Double
    var sizes: String
    var cluster_sizes: [Int], cluster_times_s: [Double], clusters: [Int], terms: [Int]
    var omitted_cluster_times_s: [Double]
    var gaps: Int, moving_fraction: Double
    var axes: [Axis]
}
