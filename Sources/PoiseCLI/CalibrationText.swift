import Foundation
import Poise
import PoiseRecording
import PoiseRun

/// What the `calibrate` subcommands share: number formatting of their summaries, reading the
/// recording into what the fit needs, and turning a `CalibrationError` into a command error.
enum CalibrationText {
    static func number(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

    static func vector(_ v: SIMD3<Double>, _ digits: Int = 3) -> String {
        "(\(number(v.x, digits)), \(number(v.y, digits)), \(number(v.z, digits)))"
    }

    static func matrix(_ m: Matrix3, indent: String) -> String {
        [m.r0, m.r1, m.r2].map { indent + vector($0, 4) }.joined(separator: "\n")
    }

    /// The value of `body`, with a calibration error as a `CommandError` starting with `context`.
    static func checked<T>(_ context: String, _ body: () throws(CalibrationError) -> T) throws -> T {
        do throws(CalibrationError) { return try body() } catch { throw CommandError("\(context): \(error.message)") }
    }

    /// Reads `file` in one `Run` (no pipeline) into `accumulator`, made from the recording's
    /// schema, and returns it with the schema: the recording is streamed, never held. The rate of
    /// the first rows is checked first and `sensors` are required.
    ///
    /// - Throws: `RecordingError` (file, line, column) for a row that cannot be read, a
    ///   `CommandError` for a missing sensor or a recording without samples.
    static func gather<Accumulator: SampleAccumulator>(
        _ file: String, reading: ReadingOptions, sensors: [Sensor], purpose: String,
        into accumulator: (RecordingSchema) -> Accumulator) throws -> (Accumulator, RecordingSchema) {
        let source = try RecordingSources.open(path: file, options: reading.applied(to: ReadOptions()))
        var first: [MotionSample] = []
        try source.read(into: &first, maximumCount: NominalRate.rowCount)
        try SampleRateCheck.check(rate: nominalSampleRate(of: first), schema: source.schema, file: file)
        try source.schema.require(sensors, file: file, for: purpose)
        guard !first.isEmpty else { throw CommandError("\(file): the recording has no samples") }
        var sink = SampleAccumulatorSink(accumulator(source.schema))
        var run = Run(source: source, first: first, pipeline: Pipeline(), clock: AsFastAsPossible())
        return (try run.run(into: &sink).summary, source.schema)
    }
}
