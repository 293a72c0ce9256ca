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
/// - `--decimal-comma` / `--no-decimal-comma`: numbers use a decimal comma (`9,81`); otherwise
///   the first data row of a semicolon- or tab-separated file decides (decimal commas for
///   semicolons when it shows neither).
/// - `--topic NAME` (`TopicOption`): the ROS bag topic to read.
/// - `--columns MAPPING` (`ColumnSpec`): which columns are time and sensors, with their units,
///   for a header Poise does not recognise or a file without one; `--skip-lines N` skips a
///   preamble (`ReadOptions.skipLines`); `--comment PREFIX` (repeatable or comma-separated)
///   skips lines starting with PREFIX before the header and between rows
///   (`ReadOptions.commentPrefixes`), besides the built-in `//` and `#` header comments.
/// - `--mount MOUNT` (`SensorMount`): the sensor's axes are turned into the device axes as they
///   are read (`x=-y,y=x,z=z`, `-Y+X+Z` or `roll,pitch,yaw` degrees), for every format.
struct ReadingOptions: ParsableArguments {
    @Option(name: .customLong("time-unit"),
            help: ArgumentHelp("Unit of the time column, overriding the unit its header names.", valueName: "unit"))
    var timeUnit: TimeUnit?

    @Option(help: ArgumentHelp("Field delimiter: comma, semicolon or tab (default: detected from the header).", valueName: "delimiter"))
    var delimiter: CSVDelimiter?

    @Flag(inversion: .prefixedNo,
          help: "Numbers use a decimal comma (9,81) (default: as the first row of a semicolon- or tab-separated file shows, else no).")
    var decimalComma: Bool?

    @OptionGroup var source: TopicOption

    @Option(parsing: .unconditional, help: ArgumentHelp("Explicit column mapping, also for files without a header: t=COL:s|ms|us|ns, acc=COL,COL,COL:g|mps2, gyr=…:dps|radps, mag=…:uT|nT|T|gauss|au; COL is a header cell or a 1-based column number (e.g. t=time:ns,acc=ax,ay,az:mps2,gyr=gx,gy,gz:dps).", valueName: "mapping"))
    var columns: String?

    @Option(name: .customLong("skip-lines"), parsing: .unconditional,
            help: ArgumentHelp("Lines to skip at the start of a CSV file before its header (or first row).", valueName: "N"))
    var skipLines: Int = 0

    @Option(name: .customLong("comment"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Lines starting with PREFIX are comments, skipped before the header and between rows (repeatable or comma-separated, e.g. --comment % --comment ';'); '//' and '#' lines before the header are always skipped.", valueName: "prefix"))
    var comment: [String] = []

    /// The `--comment` prefixes, each value split at commas.
    var commentPrefixes: [String] {
        comment.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Option(parsing: .unconditional, help: ArgumentHelp("How the sensor is mounted: the device axes as signed sensor axes (x=-y,y=x,z=z, or -Y+X+Z), or roll,pitch,yaw in degrees (sensor → device, Z-Y'-X''). Applied to acceleration, rotation rate and magnetic field as they are read.", valueName: "mount"))
    var mount: String?

    /// `options` with this unit, delimiter, decimal separator, topic, column mapping, skipped
    /// lines and mount.
    func applied(to options: ReadOptions) -> ReadOptions {
        var options = source.applied(to: options)
        options.timeUnit = timeUnit
        options.delimiter = delimiter
        options.decimalComma = decimalComma
        options.columns = columns.flatMap { try? ColumnSpec($0) }
        options.skipLines = skipLines
        options.mount = mount.flatMap { try? SensorMount($0) }
        options.commentPrefixes = commentPrefixes
        return options
    }

    /// Checks `--skip-lines`, and parses `--columns` and `--mount`: a mistake is a usage error
    /// that quotes the text with a caret under the part at fault.
    func validate() throws {
        try OptionRange("--skip-lines", 0, 1e6, unit: "lines").check(skipLines)
        for prefix in commentPrefixes {
            if let problem = CSVDialect.commentPrefixProblem(prefix) { throw ValidationError("--comment: \(problem)") }
        }
        do {
            if let columns { _ = try ColumnSpec(columns) }
            if let mount { _ = try SensorMount(mount) }
        } catch {
            throw ValidationError("--\(error.subject == .mount ? "mount" : "columns"): \(error.description)")
        }
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
