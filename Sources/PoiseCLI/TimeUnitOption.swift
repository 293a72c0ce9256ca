import ArgumentParser
import Poise
import PoiseRecording

extension TimeUnit: ExpressibleByArgument {}

/// `--time-unit s|ms|us|ns`: the unit of the recording's time column, overriding the header's
/// (for a `t_s` column holding milliseconds or epoch nanoseconds). On every command that reads a
/// recording. Those commands also refuse a median sample rate outside 1 Hz – 100 kHz
/// (`SampleRateCheck`), with the unit that would fix it. It carries `--topic` (`TopicOption`) to
/// the same commands.
struct TimeUnitOption: ParsableArguments {
    @Option(name: .customLong("time-unit"),
            help: ArgumentHelp("Unit of the time column, overriding the unit its header names.", valueName: "unit"))
    var timeUnit: TimeUnit?

    @OptionGroup var source: TopicOption

    /// `options` with this unit and topic.
    func applied(to options: ReadOptions) -> ReadOptions {
        var options = source.applied(to: options)
        options.timeUnit = timeUnit
        return options
    }

    /// Loads a whole recording with this unit and checks the median sample rate of its timestamps.
    ///
    /// - Throws: `RecordingError` for an unreadable file or an implausible rate.
    func load(_ path: String, options: ReadOptions = ReadOptions()) throws -> Recording {
        let recording = try Recording.load(path: path, options: applied(to: options))
        try SampleRateCheck.check(rate: nominalSampleRate(of: recording.samples), schema: recording.schema, file: path)
        return recording
    }
}
