import Foundation
import Poise
import PoiseRun
import PoiseRecording
import PoiseSpectral

/// What `RecordingReport` builds and how.
public struct ReportOptions: Sendable {
    /// The pipeline shown as "filtered" (spec grammar of `StageCatalog`); `nil`: the sweep's
    /// overall recommendation, or `lowpass:cutoff=5` when the sweep has none.
    public var pipeline: String?
    /// Filter kinds swept for the latency–jitter plane (each on its default grid).
    public var kinds: [SweepKind] = SweepKind.allCases
    /// What the recommendation aims at (default: latency ≤ 100 ms, lowest jitter).
    public var target: SweepTarget = .default
    /// Sweep worker threads.
    public var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Most zoomed signal panels (one per movement onset, plus the longest still segment).
    public var maximumZoomPanels = 6
    /// Page title; default "Poise report: FILE NAME".
    public var title: String?
    /// A real-time replay of the same recording (`poise replay FILE --json`), whose delivery
    /// timing the page shows as histograms; `nil`: the page says how to get one. Without
    /// `pipeline`, the replay's pipeline is the page's.
    public var replay: ReplayReport?
    /// Where the recording comes from and under which licence, shown on the page under "The
    /// recording" (e.g. "BROAD trial 27 (Laidig et al., Data 2021), CC BY 4.0"); `nil`: no note.
    public var dataSource: String?
    /// Largest share of the raw acceleration power in the noise band (above 10 Hz, or 40 % of
    /// the sample rate when lower) that a recommended setting may keep over the whole recording.
    public var maximumNoiseShare = 0.5
    /// Called as the report is built, with the stage's name and the fraction of the whole
    /// report done (0…1), from the calling thread or, during the sweep, from worker threads.
    public var progress: (@Sendable (_ stage: String, _ fraction: Double) -> Void)?

    public init(pipeline: String? = nil) { self.pipeline = pipeline }
}

/// Why a report cannot be built.
public struct ReportError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A recording's report: every figure and the narrative, built from the numbers.
///
/// Sections: the recording (summary table), signals (overview and zoomed panels, raw vs
/// filtered), step responses of the chosen filters (tilt and shake, conventions.md), the
/// latency–jitter plane with the Pareto front of the sweep engine, spectra (Welch PSD and a
/// spectrogram heat map), attitude from device-motion fusion (roll, pitch, yaw in degrees, and
/// the error against `gt_q*` when present), and the delivery timing of a real-time replay
/// (lateness and processing-cost histograms) when `ReportOptions.replay` is given.
///
/// The recording is streamed, never held: memory does not grow with its length (envelopes of
/// the plotted series, short full-rate excerpts for the zoomed panels, accumulators for every
/// number). Because the page shows a pipeline that is chosen from the whole recording, the file
/// is read in several passes, each streaming:
/// 1. a scan (`RecordingScan`): sample count, time span and the recording's rate (`nominalSampleRate`), which every filter
///    and every plot's buckets need before the first sample;
/// 2. the raw recording: still segments, raw envelopes, Welch PSDs and spectrogram, attitude;
/// 3. the sweep, which measures jitter on the still segments found in pass 2, and the movement
///    onsets after those segments;
/// 4. the noise-band check of the sweep's best-ranked settings (a few per kind; rarely more
///    than one pass);
/// 5. the chosen pipeline: its metrics, filtered envelopes, excerpts and PSDs.
/// Every number equals what the same computation gives on the recording held in memory.
public struct RecordingReport {
    /// The pipeline spec shown as "filtered".
    public var pipeline: String
    /// Where the pipeline choice came from (user, sweep recommendation, fallback).
    public var pipelineOrigin: String
    /// Measurements of the pipeline on the recording (latency, jitter, lag).
    public var metrics: StageMetricsSummary
    /// The sweep of `options.kinds`; `nil` when the recording cannot be swept (the reason is in
    /// `sweepProblem`). Lag is measured only for the settings the page shows (each kind's
    /// chosen setting); the other points have none.
    public var sweep: SweepComparison?
    public var sweepProblem: String?
    /// Fusion error against ground truth (BROAD metric); `nil` without `gt_q*` or gyroscope.
    public var attitudeError: OrientationError?
    /// Share of the raw acceleration power at or above 2 Hz that the pipeline keeps over the
    /// whole recording (above 1: it adds high-frequency power); `nil` without a spectrum.
    public var highFrequencyShare: Double?
    /// The same in the noise band (at or above 10 Hz, or 40 % of the sample rate when lower).
    public var noiseBandShare: Double?
    /// Passes over the recording after the scan.
    public var passes: Int
    /// The page.
    public var document: HTMLReport

    /// Builds the report of samples held in memory (as ``init(input:options:)``).
    public init(recording: Recording, options: ReportOptions = ReportOptions()) throws {
        try self.init(input: ReportInput(recording: recording), options: options)
    }

    /// Builds the report of the recording `input` reads, streaming it (see the type).
    ///
    /// - Throws: ``ReportError`` for a recording with fewer than 16 samples or fewer than two
    ///   distinct timestamps, the pipeline's `SpecError` (naming stage and column) for a bad
    ///   `--pipeline`, or the reader's `RecordingError`.
    public init(input: ReportInput, options: ReportOptions = ReportOptions()) throws {
        let name = (input.path as NSString).lastPathComponent
        let progress = options.progress
        let scan = try input.scanRecording()
        guard scan.count >= 16, let rate = scan.rate else {
            throw ReportError("\(input.path): needs at least 16 samples with increasing timestamps to report on, got \(scan.count)")
        }
        if let replay = options.replay, (replay.file as NSString).lastPathComponent != name {
            throw ReportError("the replay timing is of \(replay.file), not of \(input.path): replay this recording (poise replay \(input.path) --json > replay.json) or report on \(replay.file)")
        }
        let schema = scan.schema
        let count = scan.count
        let t0 = scan.firstTime
        let duration = scan.lastTime - scan.firstTime
        var detector = RestDetector()
        detector.useGyroscope = schema.hasGyroscope
        var passes = 0
        func share(_ pass: Double, _ done: Int) -> Double { (pass + Double(done) / Double(max(1, count))) / 5 }

        // Pass: the raw recording.
        progress?("reading the recording", 0)
        let rawPass = try RawPass(count: count, rate: rate, t0: t0, duration: duration, hasGyroscope: schema.hasGyroscope,
                                  hasMagnetometer: schema.hasMagnetometer, hasTruth: schema.hasTruth, detector: detector)
        func pass(_ label: String, _ share: @escaping (Int) -> Double) -> PassProgress {
            PassProgress(progress.map { progress in { done in progress(label, share(done)) } })
        }
        let raw: RawPass = try input.run(rawPass.pipeline, into: SinkPair(rawPass, pass("reading the recording") { share(0, $0) })).0
        passes += 1
        let stillRanges = raw.still.map(\.indices)

        // Pass: the sweep (latency–jitter plane) and the movement onsets.
        var sweep: SweepComparison?
        var problem: String?
        var onsets = MovementOnsets(still: stillRanges, count: count, rate: rate)
        onsets.origin = t0
        do {
            // Without a still segment there is no jitter to measure: no sweep, and no onsets.
            guard !stillRanges.isEmpty else { throw StreamingSweep.noStillSegment(name: name, detector: detector) }
            let kinds = options.kinds.filter { $0 != .butter || rate > 31 }
            let sweeps = try kinds.map { try FilterSweep(filter: $0.rawValue) }
            // Lag is measured later, for the settings the page shows (the pass of the pipeline).
            let running = try StreamingSweep(settings: sweeps.flatMap(\.settings), name: name, sampleRate: rate, count: count,
                                             stillSegments: stillRanges, detector: detector, threads: max(1, options.threads),
                                             measuresLag: false)
            let swept = try input.run(into: SinkPair(ChunkSink(size: ReportInput.chunkSize, running),
                                                     SinkPair(onsets, pass("sweep") { share(1, $0) })))
            passes += 1
            onsets = swept.1.0
            sweep = try swept.0.comparison(of: sweeps, target: options.target)
        } catch let error as RecordingError {
            throw error
        } catch {
            problem = String(describing: error)
        }
        if passes == 1 && !stillRanges.isEmpty {
            // The sweep could not start (a filter kind that does not suit the rate): the onsets
            // still need their pass.
            onsets = try input.run(into: onsets)
            passes += 1
        }

        // Passes: the noise-band check of the best-ranked settings.
        progress?("checking the recommendation in the noise band", 0.6)
        let meter = raw.welch.flatMap { try? $0.finish() }.map { HighFrequencyMeter(raw: $0, rate: rate) }
        var recommendation = try sweep.map { sweep in
            try ReportRecommendation(sweep: sweep, meter: meter, maximumShare: options.maximumNoiseShare) { settings in
                passes += 1
                return try Self.spectra(of: settings, input: input, rate: rate, segment: raw.welchSegment, threads: options.threads)
            }
        }
        let recommended = recommendation?.point?.setting.spec.description
        if let given = options.pipeline {
            pipeline = given; pipelineOrigin = "given with --pipeline"
        } else if let replay = options.replay {
            pipeline = replay.pipeline; pipelineOrigin = "the pipeline of the replay given with --replay"
        } else if let recommended {
            pipeline = recommended; pipelineOrigin = "the recommendation for \(options.target): the lowest jitter that passes the check above 2 and 10 Hz"
        } else {
            pipeline = "lowpass:cutoff=5"; pipelineOrigin = "the default; the sweep made no recommendation"
        }
        sweepProblem = problem
        let built = try StageCatalog.standard.pipeline(pipeline, context: StageContext(sampleRate: rate, hasMagnetometer: schema.hasMagnetometer,
                                                                                           hasGyroscope: schema.hasGyroscope))

        // Pass: the pipeline shown.
        let figures = try FigurePass(pipeline: built, rate: rate, t0: t0, duration: duration, hasGyroscope: schema.hasGyroscope,
                                   detector: detector, welchSegment: raw.welch == nil ? nil : raw.welchSegment,
                                   windows: ReportFigures.windows(onsets: onsets.onsets, still: stillRanges, count: count, rate: rate,
                                                                  maximum: options.maximumZoomPanels))
        // The lag of each kind's chosen setting (the sweep table's column), in the same pass.
        let shownSettings = recommendation?.choices.compactMap { $0.point?.setting } ?? []
        let lagSweep = shownSettings.isEmpty ? nil
            : try StreamingSweep(settings: shownSettings, name: name, sampleRate: rate, count: count, stillSegments: stillRanges,
                                 detector: detector, threads: max(1, options.threads))
        let lagSink: ChunkSink<StreamingSweep>? = lagSweep.map { ChunkSink(size: ReportInput.chunkSize, $0) }
        let figureProgress = pass("pipeline metrics and figures") { (done: Int) -> Double in 0.8 + 0.15 * Double(done) / Double(max(1, count)) }
        let figured = try input.run(built, into: SinkPair(figures, SinkPair(lagSink, figureProgress)))
        passes += 1
        var shown = figured.0
        let lags = figured.1.0
        metrics = shown.metrics.finish()
        if let measured = try lags?.finish() {
            let bySetting = Dictionary(measured.map { ($0.setting.spec.description, $0) }, uniquingKeysWith: { a, _ in a })
            func withLag(_ point: SweepPoint) -> SweepPoint { bySetting[point.setting.spec.description] ?? point }
            sweep = sweep.map { sweep in
                var sweep = sweep
                for e in sweep.entries.indices { sweep.entries[e].result.points = sweep.entries[e].result.points.map(withLag) }
                return sweep
            }
            for k in recommendation!.choices.indices { recommendation!.choices[k].point = recommendation!.choices[k].point.map(withLag) }
        }
        self.sweep = sweep
        self.passes = passes

        progress?("writing the figures", 0.96)
        var page = HTMLReport(title: options.title ?? "Poise report: \(name)")
        let still = raw.still.map { StillSegment(indices: $0.indices, startTime: $0.startTime - t0, endTime: $0.endTime - t0) }
        let builder = ReportFigures(rate: rate, count: count, pipeline: pipeline, pipelineStages: built, still: still,
                                    raw: raw.acceleration, filtered: shown.envelopes, gyroscope: raw.gyroscope, windows: shown.windows)
        let stillSeconds = raw.still.reduce(0.0) { $0 + $1.endTime - $1.startTime }

        // 1. The recording.
        page.heading("The recording")
        let channels = ["accelerometer"] + (schema.hasGyroscope ? ["gyroscope"] : []) + (schema.hasMagnetometer ? ["magnetometer"] : [])
            + (schema.hasTruth ? ["ground-truth attitude (gt_q*)"] : []) + (schema.hasMovement ? ["movement mask"] : [])
        page.paragraph("\(name) holds \(count) samples over \(fixed(duration, 1)) s at a nominal \(fixed(rate, 1)) Hz (1 / median timestamp step) with \(channels.joined(separator: ", ")). The rest detector (gyroscope below \(detector.gyroscopeThreshold) rad/s\(schema.hasGyroscope ? "" : ", not used: no gyroscope"), accelerometer RMS over 0.5 s below \(detector.accelerationThreshold) g or \(detector.noiseFloorMultiple) × its noise floor, at least \(fixed(detector.minimumDuration, 1)) s) finds \(raw.still.count) still segment\(raw.still.count == 1 ? "" : "s") totalling \(fixed(stillSeconds, 1)) s (\(fixed(100 * stillSeconds / max(duration, 1e-9), 0)) % of the recording); jitter is measured there, latency on the standard steps of conventions.md.")
        if let source = options.dataSource {
            page.paragraph("Data source and licence: \(source)")
        }
        page.paragraph("The filtered signal in every figure is the pipeline \u{201C}\(pipeline)\u{201D}, \(pipelineOrigin).")
        page.table(header: ["", "value"], rows: builder.summaryRows(metrics: metrics))

        // 2. Signals.
        page.heading("Signals: raw and filtered")
        let panels = builder.zoomPanels()
        let onsetCount = panels.filter { $0.onset != nil }.count
        var signalsText = "The overview shows the three accelerometer axes (g, specific force: +1 g on the up axis at rest) as recorded (light) and after the pipeline (dark); shaded spans are the still segments. "
        if onsetCount > 0 { signalsText += "\(onsetCount == 1 ? "The first zoomed panel shows a movement onset" : "The first \(onsetCount) zoomed panels show movement onsets") (where the device starts moving after a still segment: rotation above \(fixed(MovementOnsets.onsetRotationRate, 1)) rad/s or a change of the 50-ms mean acceleration above \(fixed(MovementOnsets.onsetAcceleration, 2)) g), where latency shows as a delay of the dark curve. " }
        if !raw.still.isEmpty { signalsText += "The last zoomed panel shows the longest still segment, where jitter shows as the spread of the light curve around the dark one." }
        page.paragraph(signalsText)
        page.figure(builder.overview(), caption: "Acceleration over the whole recording; shaded: still segments (jitter is measured there).")
        if schema.hasGyroscope {
            page.figure(builder.gyroscopeOverview(), caption: "Rotation rate (rad/s, device frame), as recorded.")
        }
        for panel in panels {
            page.figure(panel.svg, caption: panel.caption)
        }

        // 3. Step responses.
        page.heading("Step responses")
        let stepFilters = builder.stepCandidates(sweep: sweep)
        page.paragraph("Each curve is the progress of a filter's output from the value before a standard step to the value after it, in % (conventions.md): tilt turns gravity by 90° (0, 0, 1 g → 0, 1 g, 0), shake raises its magnitude (0, 0, 1 g → 0, 0, 1.5 g), fed at \(fixed(rate, 1)) Hz. Latency to 90 % is where a curve crosses the dashed line. Curves: the pipeline and each swept kind's best setting for \(options.target).")
        for step in StandardStep.allCases {
            page.figure(builder.stepPlot(step, candidates: stepFilters), caption: "\(step.rawValue.capitalized) step response; time from the step sample.")
        }

        // 4. Latency–jitter plane.
        page.heading("Latency and jitter: the trade-off")
        if let sweep, let recommendation {
            page.paragraph(builder.sweepNarrative(sweep, recommendation: recommendation, metrics: metrics))
            page.figure(builder.tradeoffPlot(sweep, recommendation: recommendation, metrics: metrics), caption: "Every swept setting (latency = worse of the tilt and shake steps, ms; jitter on the still segments, g, log scale). The line joins the Pareto front; the large red dot is the recommendation, the black dot the pipeline, the dashed line the raw input’s jitter; a small black dot inside a marker: a setting passed over because it adds power above 2 Hz or keeps too much of the noise band (above \(fixed(HighFrequencyMeter.noiseEdge(rate: rate), 0)) Hz).")
            page.table(header: ["kind", "best setting", "latency ms", "jitter g", "attenuation ×", "lag ms", "power kept > 2 Hz %", "> \(fixed(HighFrequencyMeter.noiseEdge(rate: rate), 0)) Hz %", "recommended / on front"],
                       rows: builder.sweepRows(sweep, recommendation: recommendation))
        } else {
            page.paragraph("No sweep: \(problem ?? "unknown reason"). Without a still segment there is no jitter to trade latency against.")
        }

        // 5. Spectra.
        page.heading("Spectra")
        if let rawSpectra = raw.welch.flatMap({ try? $0.finish() }), let filteredSpectra = shown.welch.flatMap({ try? $0.finish() }),
           let spectrogram = raw.spectrogram() {
            let spectra = builder.spectra(raw: rawSpectra, filtered: filteredSpectra, spectrogram: spectrogram,
                                          segment: raw.welchSegment, spectrogramSegment: raw.spectrogramSegment)
            highFrequencyShare = spectra.highFrequencyShare
            noiseBandShare = spectra.noiseBandShare
            page.paragraph(spectra.narrative)
            page.figure(spectra.psd, caption: "Welch power spectral density (Hann, \(spectra.segment)-sample segments, half overlap, g²/Hz, log scale), raw and filtered, from 0 Hz to the Nyquist frequency (\(fixed(rate / 2, 1)) Hz).")
            page.figure(spectra.spectrogram, caption: "Spectrogram of the acceleration magnitude |a| − mean (\(spectra.spectrogramSegment)-sample Hann segments, 75 % overlap\(raw.spectrogramGroup > 1 ? ", every \(raw.spectrogramGroup) consecutive segments averaged" : "")), dB re 1 g²/Hz.")
        } else {
            page.paragraph("Too few regularly spaced samples for a spectrum.")
        }

        // 6. Attitude.
        page.heading("Attitude from device-motion fusion")
        if let trace = raw.attitude {
            let score = raw.score?.result
            if let failure = raw.score?.failure { throw failure }
            let attitude = builder.attitude(trace, score: score)
            attitudeError = attitude.error
            page.paragraph(attitude.narrative)
            for panel in attitude.angles { page.figure(panel.svg, caption: panel.caption) }
            if let errorPlot = attitude.errorPlot {
                page.figure(errorPlot, caption: attitude.errorCaption)
            }
        } else {
            attitudeError = nil
            page.paragraph("The recording has no gyroscope, so there is no attitude estimate.")
        }

        // 7. Replay timing.
        page.heading("Replay timing")
        if let replay = options.replay {
            let timing = ReplayTimingFigures(replay: replay).build(recordingName: name, pipeline: pipeline)
            page.paragraph(timing.narrative)
            for (svg, caption) in timing.figures { page.figure(svg, caption: caption) }
            page.table(header: ["delivery timing", "value"], rows: timing.rows)
        } else {
            page.paragraph("This page was made without a real-time replay, so it shows no delivery timing (the figures above do not depend on it: filter outputs are the same at any speed). To add the lateness and processing-cost histograms: poise replay \(input.path) --pipeline \"\(pipeline)\" --json > replay.json, then poise report \(input.path) --replay replay.json --out REPORT.html.")
        }

        page.heading("How to reproduce")
        page.paragraph("poise report \(input.path) --pipeline \"\(pipeline)\" --out REPORT.html; the numbers: poise replay \(input.path) --speed max --pipeline \"\(pipeline)\" and poise bench \(input.path) --compare.")
        document = page
    }

    /// Welch PSDs (three axes) of each setting's output on the recording, in one pass, the
    /// settings in parallel; `nil` for a setting whose PSD cannot be computed.
    static func spectra(of settings: [SweepSetting], input: ReportInput, rate: Double, segment: Int, threads: Int) throws -> [[PowerSpectrum]?] {
        let spectra = try SpectrumPass(settings: settings, rate: rate, segment: segment, threads: threads)
        return try input.run(into: ChunkSink(size: ReportInput.chunkSize, spectra)).spectra()
    }

    /// The page as HTML.
    public func html() -> String { document.render() }
}

/// Formats a number with `digits` decimals ("–" when not finite).
func fixed(_ value: Double, _ digits: Int) -> String {
    value.isFinite ? String(format: "%.\(digits)f", value) : "–"
}

/// Formats a number with 3 significant digits.
func significant(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    if value == 0 { return "0" }
    let a = abs(value)
    if a >= 1000 { return String(format: "%.0f", value) }
    if a < 1e-3 { return String(format: "%.2e", value) }
    let decimals = max(0, 2 - Int(saturating: floor(log10(a))))
    return String(format: "%.\(decimals)f", value)
}
