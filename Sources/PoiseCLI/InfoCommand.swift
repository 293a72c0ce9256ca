import ArgumentParser
import PoiseRecording

/// `poise info FILE`: what is in a recording and what looks wrong with it.
public struct InfoCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a recording: duration, rows, columns and units, sample rate, intervals, gaps, held values, still segments, ranges, suspicious things.")

    @Argument(help: "Recording (CSV, or ROS 1 bag with a sensor_msgs/Imu topic).")
    var file: String

    @Flag(help: "Print JSON (keys include rows, duration_s, sample_rate_hz, gaps, still_segments).")
    var json = false

    @Flag(help: "Stop at the first bad row instead of reporting and skipping it.")
    var strict = false

    @Flag(help: "The accelerometer uses Apple's raw sign (−1 g up at rest); negate it.")
    var appleAccelerometerSign = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Sample rate of a file without a time column (row n is timed n / rate s); ignored when the file has times.", valueName: "HZ"))
    var rate: Double?

    @OptionGroup var reading: ReadingOptions

    public init() {}

    public func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
    }

    /// The report as printed.
    public func output() throws -> String {
        let info = try RecordingInfo.inspect(path: file, options: reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign, strict: strict, sampleRate: rate)))
        return json ? try info.json() : info.text
    }

    public func run() throws {
        print(try output())
    }
}
