import ArgumentParser
import Poise
import PoiseRecording

extension TimeUnit: ExpressibleByArgument {}

extension CSVDelimiter: ExpressibleByArgument {}

/// How to read a recording's text, on every command that reads one (one spelling everywhere):
///
/// - `--time-unit s|ms|us|ns`: the unit of the time column, overriding the header's (for a `t_s`
///   column holding milliseconds or epoch nanoseconds). Those commands also refuse a median
///   sample rate outside 1 Hz – 100 kHz (`SampleRateCheck`), with the unit that would fix it.
/// - `--delimiter comma|semicolon|tab`: the field delimiter (detected from the header otherwise).
/// - `--decimal-comma` / `--no-decimal-comma`: numbers use a decimal comma (`9,81`); assumed for
///   semicolon-separated files otherwise.
/// - `--topic NAME` (`TopicOption`): the ROS bag topic to read.
struct ReadingOptions: ParsableArguments {
    @Option(name: .customLong("time-unit"),
            help: ArgumentHelp("Unit of the time column, overriding the unit its header names.", valueName: "unit"))
    var timeUnit: TimeUnit?

    @Option(help: ArgumentHelp("Field delimiter: comma, semicolon or tab (default: detected from the header).", valueName: "delimiter"))
    var delimiter: CSVDelimiter?

    @Flag(inversion: .prefixedNo,
          help: "Numbers use a decimal comma (9,81) (default: yes for semicolon-separated files, else no).")
    var decimalComma: Bool?

    @OptionGroup var source: TopicOption

    /// `options` with this unit, delimiter, decimal separator and topic.
    func applied(to options: ReadOptions) -> ReadOptions {
        var options = source.applied(to: options)
        options.timeUnit = timeUnit
        options.delimiter = delimiter
        options.decimalComma = decimalComma
        return options
    }

    /// Loads a whole recording with these options and checks the median sample rate of its timestamps.
    ///
    /// - Throws: `RecordingError` for an unreadable file or an implausible rate.
    func load(_ path: String, options: ReadOptions = ReadOptions()) throws -> Recording {
        let recording = try Recording.load(path: path, options: applied(to: options))
        try SampleRateCheck.check(rate: nominalSampleRate(of: recording.samples), schema: recording.schema, file: path)
        return recording
    }
}
