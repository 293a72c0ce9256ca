import ArgumentParser
import Poise
import PoiseRecording
import PoiseRun

/// `poise convert FILE --out FILE`: any recording Poise reads, written as Poise's canonical CSV.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write any recording Poise reads (CSV dialects, Xsens, CoreMotion, ROS 1 bags…) as Poise's canonical CSV.",
        discussion: """
        The output has Poise's column names and core units (t_s; acc_*_g specific force, +1 g up \
        at rest; gyr_*_radps; mag_*_uT; gt_q* and movement when the input has them), only the \
        sensors the input has, every number in its shortest exact form, so other tools read it \
        directly and Poise reads it back to the same values. Streams in constant memory; the \
        output is written atomically.
        """)

    @Argument(help: "Recording (any format poise info recognises; '-' for CSV on standard input).")
    var file: String

    @Option(help: ArgumentHelp("Output CSV ('-': standard output).", valueName: "file"))
    var out: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Sample rate of a file without a time column (row n is timed n / rate s).", valueName: "HZ"))
    var rate: Double?

    @Flag(name: .customLong("apple-accelerometer-sign"), help: "The file's accelerometer uses Apple's raw sign (−1 g up at rest); negate it.")
    var appleAccelerometerSign = false

    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        try OptionRange.sampleRate("--rate").check(rate)
    }

    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out], inputs: [file])
        let source = try RecordingSources.open(path: file, options: reading.applied(
            to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign, sampleRate: rate)))
        let schema = source.schema
        let interrupt = InterruptFlag()  // before the output exists: a signal never leaves a partial file
        defer { interrupt.restore() }
        var sink = try RecordingSink(path: out, schema: schema)
        var run = Run(source: source, pipeline: Pipeline(), clock: AsFastAsPossible())
        let end = try run.run(into: &sink, shouldStop: { interrupt.isSet }).end
        if end.stopped {
            StandardError.write("poise convert: \(interrupt.verb) after \(end.samples) samples; \(out) was not written\n")
            throw ExitCode(interrupt.exitCode)
        }
        if !OutputFile.isStandardOutput(out) {
            print("\(out): \(end.samples) samples from \(schema.format.name), \(source.summary.rowsDropped) rows left out")
        }
    }
}

extension ConvertCommand: BatchableCommand {
    static var batchWritesOut: Bool { true }
    static func batchOutputExtension(options: [String]) -> String { "csv" }
}
