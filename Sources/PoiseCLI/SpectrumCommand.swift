import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseSpectral

/// `poise spectrum FILE`: Welch power spectral density per column, peaks, band powers and noise
/// density. Parses and prints only; the analysis is `SpectrumReport` in PoiseSpectral.
public struct SpectrumCommand: RenderingCommand {
    public static let configuration = CommandConfiguration(
        commandName: "spectrum",
        abstract: "Power spectral density (Welch) of a recording's channels: peaks, band powers, noise density.",
        discussion: """
        Channels (--channels): acc_x acc_y acc_z acc_norm (g), gyr_x gyr_y gyr_z gyr_norm (rad/s), \
        mag_x mag_y mag_z mag_norm (µT). Default: the six inertial axes, those of the sensors the file has (a named channel whose sensor is absent is an error). PSD is one-sided, \
        unit²/Hz, matching scipy.signal.welch with the same settings. The sample rate comes from \
        the median timestamp period unless --rate is given; irregular timing is reported. \
        --json: frequencies_hz and per column psd, peaks, band_power, noise_density, rms. \
        --csv: frequency_hz and one PSD column per analysed column.
        """)

    @Argument(help: "Recording (CSV with Poise/BROAD column names or the x-io Fusion format, or ROS 1 bag; '-': standard input).")
    public var file: String

    @Option(help: ArgumentHelp("Comma-separated channels to analyse (see above), e.g. acc_x,acc_z.", valueName: "channels"))
    public var channels: String?

    @Option(parsing: .unconditional, help: "Samples per segment (default: 1024, or the largest power of two ≤ samples/4 for short recordings).")
    public var nperseg: Int?

    @Option(parsing: .unconditional, help: "Samples shared by consecutive segments (default: nperseg/2).")
    public var overlap: Int?

    @Option(help: "Window: hann, hamming, blackman, flattop, rectangular, tukey:ALPHA.")
    public var window: String = "hann"

    @Option(help: "Detrend per segment: none, constant, linear.")
    public var detrend: String = "constant"

    @Option(parsing: .unconditional, help: "Sample rate in Hz (default: from the timestamps).")
    public var rate: Double?

    @Option(parsing: .unconditional, help: "Analyse samples from this time on (seconds, recording clock).")
    public var start: Double?

    @Option(parsing: .unconditional, help: "Analyse samples up to this time (seconds, recording clock).")
    public var end: Double?

    @Flag(help: "Analyse only the longest still segment (rest detector: |ω| < 0.035 rad/s, accelerometer RMS over 0.5 s < 0.01 g or 1.5 × its noise floor, ≥ 1 s): the noise density is then the sensor's noise floor.")
    public var still = false

    @Flag(help: "Time-resolved: per segment (time = segment centre) the dominant peak and band powers; with --csv the full spectrogram (time_s, frequency_hz, one PSD column per column), with --json power[time][frequency].")
    public var spectrogram = false

    @Option(parsing: .unconditional, help: "Peaks to report per column.")
    public var peaks: Int = 3

    @Option(name: .customLong("min-frequency"), parsing: .unconditional, help: "Ignore peaks below this frequency (Hz).")
    public var minimumFrequency: Double = 0

    @Option(help: "Comma-separated bands LOW-HIGH in Hz (LOW- for up to Nyquist). Default: 0-1,1-5,5-20,20-.")
    public var bands: String?

    @OptionGroup public var output: OutputFormatOptions

    @OptionGroup var reading: ReadingOptions

    public init() {}

    /// Longest segment, samples (8 MB of FFT input per column).
    static let maximumSegmentLength = 1 << 20

    public func validate() throws {
        try OptionRange("--nperseg", 8, Double(Self.maximumSegmentLength), unit: "samples").check(nperseg)
        if let overlap {
            try OptionRange("--overlap", 0, Double((nperseg ?? 1024) - 1), unit: "samples (less than --nperseg)").check(overlap)
        }
        try OptionRange.sampleRate("--rate").check(rate)
        try OptionRange("--start", -1e15, 1e15, unit: "s").check(start)
        try OptionRange("--end", -1e15, 1e15, unit: "s").check(end)
        if let start, let end, end <= start { throw ValidationError("--end (\(OptionRange.number(end)) s) must be after --start (\(OptionRange.number(start)) s)") }
        try OptionRange("--peaks", 0, 100).check(peaks)
        try OptionRange("--min-frequency", 0, 1e6, unit: "Hz").check(minimumFrequency)
        // Names and formats of the other options are usage errors too (exit 64).
        do {
            _ = try parseColumns()
            if let bands { _ = try parseBandList(bands) }
        } catch let error as CommandError { throw ValidationError(error.message) }
        if Window(name: window) == nil {
            throw ValidationError("unknown window '\(window)' (expected one of \(Window.names.joined(separator: ", ")))")
        }
        if Detrend(rawValue: detrend.lowercased()) == nil {
            throw ValidationError("unknown detrend '\(detrend)' (expected none, constant or linear)")
        }
    }

    /// The command's whole output.
    public func render() throws -> String {
        let requested = try parseColumns()
        guard let windowValue = Window(name: window) else {
            throw CommandError("unknown window '\(window)' (expected one of \(Window.names.joined(separator: ", ")))")
        }
        guard let detrendValue = Detrend(rawValue: detrend.lowercased()) else {
            throw CommandError("unknown detrend '\(detrend)' (expected none, constant or linear)")
        }
        // --rate also times the rows of a file without a time column.
        let options = reading.applied(to: ReadOptions(sampleRate: rate))
        // The passes re-read the input; standard input is kept in a temporary file once.
        return try StandardInputSpool.withFile(file) { path in
            let schema = try RecordingSources.open(path: path, options: options).schema
            let available = try MotionChannel.available(requested, named: channels != nil, schema: schema, file: file)
            return try renderStreamed(path: path, channels: available, schema: schema, options: options, window: windowValue, detrend: detrendValue)
        }
    }

    /// Most values (segments × frequencies × columns) a spectrogram may hold: 64 MB of numbers,
    /// a few hundred MB of CSV or JSON.
    static let maximumSpectrogramValues = 1 << 23

    /// The fewest samples a spectrum is computed from (one segment of the shortest default length).
    static let minimumSamples = 8

    private func checkCount(_ count: Int) throws {
        guard count >= Self.minimumSamples else {
            throw CommandError("\(file): \(count) samples in the selected time range; a spectrum needs at least \(Self.minimumSamples)")
        }
        if let nperseg, count < nperseg {
            throw CommandError("\(file): --nperseg: \(SpectralError.signalTooShort(samples: count, needed: nperseg))")
        }
    }

    /// The Welch spectrum or the spectrogram streamed from the file (`SpectrumStream`), of the
    /// time range or of its longest still segment: memory does not grow with the recording (a
    /// spectrogram holds at most `maximumSpectrogramValues` numbers).
    private func renderStreamed(path: String, channels: [MotionChannel], schema: RecordingSchema, options: ReadOptions,
                                window: Window, detrend: Detrend) throws -> String {
        var stream = SpectrumStream(path: path, options: options, start: start, end: end, channels: channels)
        if still {
            let detector = try RestDetector.forRecording(schema, file: file, purpose: "--still (the rest detector)")
            guard let segment = try stream.longestStillSegment(detector: detector) else {
                throw CommandError("\(file): no still segment of at least 1 s in the selected time range (rest detector: |ω| < 0.035 rad/s, accelerometer RMS over 0.5 s < 0.01 g or 1.5 × its noise floor)")
            }
            stream.indices = segment
        }
        do {
            let survey = try stream.survey()
            try checkCount(survey.count)
            let sampleRate: Double
            var median: Double?
            if let rate {
                sampleRate = rate
            } else {
                guard let interval = try stream.medianInterval(survey) else {
                    throw CommandError("\(file): timestamps never increase; give the sample rate with --rate")
                }
                median = interval
                sampleRate = 1 / interval
                try SampleRateCheck.check(rate: sampleRate, schema: schema, file: file)
            }
            let segmentLength = nperseg ?? defaultSegmentLength(samples: survey.count)
            let configuration = SpectralConfiguration(sampleRate: sampleRate, segmentLength: segmentLength, overlap: overlap,
                                                      window: window, detrend: detrend)
            let bandList = try parseBands(sampleRate: sampleRate, segmentLength: segmentLength)
            if spectrogram {
                try configuration.validate()
                let values = Double(configuration.segmentCount(samples: survey.count)) * Double(configuration.resolvedFFTLength / 2 + 1)
                    * Double(channels.count)
                guard values <= Double(Self.maximumSpectrogramValues) else {
                    throw CommandError("\(file): the spectrogram would hold \(configuration.segmentCount(samples: survey.count)) segments × \(configuration.resolvedFFTLength / 2 + 1) frequencies × \(channels.count) columns, more than \(Self.maximumSpectrogramValues) values; choose a time range (--start/--end), fewer --channels, or longer segments with less overlap (--nperseg, --overlap)")
                }
                let results = try stream.spectrogram(configuration: configuration)
                let report = try SpectrogramReport(results: results, channels: channels, startTime: survey.firstTime,
                                                   configuration: configuration, minimumPeakFrequency: minimumFrequency, bands: bandList)
                if output.json { return try output.encode(SpectrogramJSON(report: report, file: file)) }
                if output.csv { return renderSpectrogramCSV(report) }
                return renderSpectrogramText(report, samples: survey.count)
            }
            let (spectra, sampling) = try stream.estimate(configuration: configuration, medianInterval: median)
            let report = try SpectrumReport(spectra: spectra, channels: channels, samples: survey.count,
                                            startTime: survey.firstTime, endTime: survey.lastTime,
                                            configuration: configuration, sampling: sampling, peakCount: peaks,
                                            minimumPeakFrequency: minimumFrequency, bands: bandList)
            if output.json { return try renderJSON(report) }
            if output.csv { return renderCSV(report) }
            return renderText(report)
        } catch let error as SpectralError {
            throw CommandError("\(file): \(error)")
        }
    }

    private func parseColumns() throws -> [MotionChannel] {
        guard let channels else { return MotionChannel.defaults }
        return try channels.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let channel = MotionChannel(rawValue: trimmed) else {
                throw CommandError("unknown channel '\(trimmed)' (expected \(MotionChannel.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return channel
        }
    }

    /// The bands asked for; by default those of `FrequencyBand.defaults` that hold at least one
    /// frequency bin (a short segment has bins far apart).
    private func parseBands(sampleRate: Double, segmentLength: Int) throws -> [FrequencyBand] {
        guard let bands else {
            let resolution = sampleRate / Double(segmentLength)
            return FrequencyBand.defaults(sampleRate: sampleRate).filter { band in
                let firstBin = (band.low / resolution).rounded(.up) * resolution
                return firstBin < band.high && firstBin <= sampleRate / 2
            }
        }
        return try parseBandList(bands)
    }

    /// `--bands` as given: LOW-HIGH or LOW- (to Nyquist) in Hz, comma-separated.
    private func parseBandList(_ bands: String) throws -> [FrequencyBand] {
        try bands.split(separator: ",").map { text in
            guard let band = FrequencyBand(parsing: String(text).trimmingCharacters(in: .whitespaces)) else {
                throw CommandError("bad band '\(text)' (expected LOW-HIGH or LOW- in Hz, LOW < HIGH)")
            }
            return band
        }
    }

    /// 1024, or for recordings shorter than 4096 samples the largest power of two ≤ samples/4
    /// (at least 8, at most the recording), so there are several segments to average.
    private func defaultSegmentLength(samples: Int) -> Int {
        var length = 1024
        while length > 8 && length * 4 > samples { length /= 2 }
        return min(length, samples)
    }

    // MARK: - Output

    private func renderText(_ r: SpectrumReport) -> String {
        var out = ""
        let c = r.configuration
        let timing: String
        if let s = r.sampling {
            timing = s.isRegular ? "from timestamps, regular"
                : "from timestamps; IRREGULAR: \(s.gaps) gaps, \(s.nonIncreasing) repeated/backward, worst period off by \(percent(s.largestPeriodDeviation)) — the PSD assumes uniform sampling"
        } else {
            timing = "given"
        }
        out += "\(file): \(r.samples) samples\(still ? " (longest still segment)" : ""), \(fixed(r.startTime, 3))–\(fixed(r.endTime, 3)) s, \(fixed(r.sampleRate, 3)) Hz (\(timing))\n"
        out += "Welch: \(c.window.name) window, \(c.segmentLength)-sample segments, overlap \(c.resolvedOverlap), \(c.detrend.rawValue) detrend, \(r.segmentCount) segments"
        out += r.unusedSamples > 0 ? " (last \(r.unusedSamples) samples unused)" : ""
        out += "; bins \(fixed(c.frequencyResolution, 4)) Hz apart\n"
        for ch in r.channels {
            // rad/s → (rad/s)²/Hz, so the square applies to the whole unit.
            let unit = ch.unit.contains("/") ? "(\(ch.unit))" : ch.unit
            out += "\n\(ch.name) (\(ch.unit)): rms \(sci(ch.rms)) \(ch.unit), noise density \(sci(ch.noiseDensity)) \(unit)/√Hz\n"
            let peakText = ch.peaks.map { "\(fixed($0.frequency, 2)) Hz (\(sci($0.value)) \(unit)²/Hz)" }
            out += "  peaks: \(peakText.isEmpty ? "none" : peakText.joined(separator: ", "))\n"
            let bandText = zip(r.bands, ch.bandPowers).map { "\($0.label) \(sci($1))" }
            out += "  band power (\(unit)²): \(bandText.joined(separator: ", "))\n"
        }
        return out
    }

    private func renderSpectrogramText(_ r: SpectrogramReport, samples: Int) -> String {
        let c = r.configuration
        var out = "\(file): \(samples) samples, \(fixed(r.sampleRate, 3)) Hz; spectrogram: \(c.window.name) window, "
        out += "\(c.segmentLength)-sample segments, overlap \(c.resolvedOverlap), \(r.times.count) segments; bins \(fixed(c.frequencyResolution, 4)) Hz apart\n"
        for ch in r.channels {
            let unit = ch.unit.contains("/") ? "(\(ch.unit))" : ch.unit
            out += "\n\(ch.name): dominant peak and band power (\(unit)²) per segment\n"
            out += "  time s    peak Hz" + r.bands.map { " " + $0.label.padding(toLength: 16, withPad: " ", startingAt: 0) }.joined() + "\n"
            for (t, time) in r.times.enumerated() {
                let peak = ch.peaks[t].map { fixed($0.frequency, 2, width: 9) } ?? "        –"
                out += "  \(fixed(time, 2, width: 7))  \(peak)"
                out += ch.bandPowers[t].map { " " + String(format: "%-16.3g", $0) }.joined() + "\n"
            }
        }
        return out
    }

    private func renderSpectrogramCSV(_ r: SpectrogramReport) -> String {
        var out = "time_s,frequency_hz," + r.channels.map(\.name).joined(separator: ",") + "\n"
        for (t, time) in r.times.enumerated() {
            for (k, f) in r.frequencies.enumerated() {
                out += "\(time),\(f)," + r.channels.map { "\($0.power[t][k])" }.joined(separator: ",") + "\n"
            }
        }
        return out
    }

    private func renderCSV(_ r: SpectrumReport) -> String {
        var out = "frequency_hz," + r.channels.map(\.name).joined(separator: ",") + "\n"
        for (k, f) in r.frequencies.enumerated() {
            out += "\(f)," + r.channels.map { "\($0.psd[k])" }.joined(separator: ",") + "\n"
        }
        return out
    }

    private func renderJSON(_ r: SpectrumReport) throws -> String {
        try output.encode(SpectrumJSON(report: r, file: file))
    }

    private func sci(_ x: Double) -> String { String(format: "%.3g", x) }
    private func percent(_ x: Double) -> String { String(format: "%.0f %%", 100 * x) }
}

/// The JSON layout of `poise spectrum --json` (units in the key names).
private struct SpectrumJSON: Encodable {
    struct Band: Encodable { var low_hz: Double; var high_hz: Double?; var power: Double }
    struct Peak: Encodable { var frequency_hz: Double; var psd: Double }
    struct Column: Encodable {
        var name: String, unit: String
        var psd: [Double]
        var peaks: [Peak]
        var band_power: [Band]
        var noise_density: Double
        var rms: Double
    }
    struct Sampling: Encodable { var gaps: Int; var non_increasing: Int; var largest_period_deviation: Double; var regular: Bool }
    var file: String
    var samples: Int
    var start_s: Double, end_s: Double
    var sample_rate_hz: Double
    var sampling: Sampling?
    var window: String, detrend: String, scaling: String
    var segment_length: Int, overlap: Int, segments: Int, unused_samples: Int
    var frequency_resolution_hz: Double
    var frequencies_hz: [Double]
    var columns: [Column]

    init(report r: SpectrumReport, file: String) {
        self.file = file
        samples = r.samples
        start_s = r.startTime; end_s = r.endTime
        sample_rate_hz = r.sampleRate
        sampling = r.sampling.map { Sampling(gaps: $0.gaps, non_increasing: $0.nonIncreasing,
                                             largest_period_deviation: $0.largestPeriodDeviation, regular: $0.isRegular) }
        window = r.configuration.window.name
        detrend = r.configuration.detrend.rawValue
        scaling = r.configuration.scaling.rawValue
        segment_length = r.configuration.segmentLength
        overlap = r.configuration.resolvedOverlap
        segments = r.segmentCount
        unused_samples = r.unusedSamples
        frequency_resolution_hz = r.configuration.frequencyResolution
        frequencies_hz = r.frequencies
        columns = r.channels.map { ch in
            Column(name: ch.name, unit: ch.unit, psd: ch.psd,
                   peaks: ch.peaks.map { Peak(frequency_hz: $0.frequency, psd: $0.value) },
                   band_power: zip(r.bands, ch.bandPowers).map { Band(low_hz: $0.low, high_hz: $0.high.isFinite ? $0.high : nil, power: $1) },
                   noise_density: ch.noiseDensity, rms: ch.rms)
        }
    }
}

/// The JSON layout of `poise spectrum --spectrogram --json`.
private struct SpectrogramJSON: Encodable {
    struct Band: Encodable { var low_hz: Double; var high_hz: Double? }
    struct Column: Encodable {
        var name: String, unit: String
        var power: [[Double]]
        var peak_hz: [Double?]
        var peak_psd: [Double?]
        var band_power: [[Double]]
    }
    var file: String
    var sample_rate_hz: Double
    var window: String, detrend: String, scaling: String
    var segment_length: Int, overlap: Int
    var times_s: [Double]
    var frequencies_hz: [Double]
    var bands: [Band]
    var columns: [Column]

    init(report r: SpectrogramReport, file: String) {
        self.file = file
        sample_rate_hz = r.sampleRate
        window = r.configuration.window.name
        detrend = r.configuration.detrend.rawValue
        scaling = r.configuration.scaling.rawValue
        segment_length = r.configuration.segmentLength
        overlap = r.configuration.resolvedOverlap
        times_s = r.times
        frequencies_hz = r.frequencies
        bands = r.bands.map { Band(low_hz: $0.low, high_hz: $0.high.isFinite ? $0.high : nil) }
        columns = r.channels.map { ch in
            Column(name: ch.name, unit: ch.unit, power: ch.power, peak_hz: ch.peaks.map { $0?.frequency },
                   peak_psd: ch.peaks.map { $0?.value }, band_power: ch.bandPowers)
        }
    }
}
