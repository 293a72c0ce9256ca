import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

extension ResponseCurve: ExpressibleByArgument {
    /// `linear`, `quadratic`, or `exponent:P` / a bare number P.
    public init?(argument: String) {
        switch argument {
        case "linear": self = .linear
        case "quadratic": self = .quadratic
        default:
            let number = argument.hasPrefix("exponent:") ? String(argument.dropFirst("exponent:".count)) : argument
            guard let p = Double(number) else { return nil }
            self = .exponent(p)
        }
    }
}

/// `poise tilt FILE [--dead-zone DEG] [--saturation DEG] [--curve C] [--frame-rate HZ] [--out FILE]`
struct TiltCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilt",
        abstract: "Turn a recording's tilt into thumbstick axes in [−1, 1] (game controller mapping).",
        discussion: """
        Attitude comes from 6D device-motion fusion (default with a gyroscope), gravity (a \
        low-pass of the accelerometer) or the recording's ground truth (--source truth). The first sample is home; stick x follows roll (right edge \
        dips away), stick y follows −pitch (top edge dips away). The pipeline is \
        [truth |] [remap |] [fusion:6d |] tilt, and the output is what `poise replay --pipeline` \
        writes for it (docs/conventions.md): the sensor columns, the fusion's, then axis_x, axis_y, \
        tilt_roll_deg, tilt_pitch_deg, home_event. With --frame-rate: t_s, axis_x, axis_y, \
        tilt_roll_deg, tilt_pitch_deg, home_event, samples per frame. See docs/orientation.md.
        """)

    enum Source: String, ExpressibleByArgument, CaseIterable { case fusion, gravity, truth }

    @Argument(help: "Recording (CSV with Poise/BROAD or x-io headers).")
    var file: String

    @OptionGroup var frame: FrameOptions

    @Option(help: "Attitude source: fusion (6D device-motion fusion of gyroscope and accelerometer; the default when the recording has a gyroscope), gravity (low-passed accelerometer; the default otherwise) or truth (gt_q* columns; rows without truth hold the last attitude, leading ones are left out).")
    var source: Source?

    @Option(parsing: .unconditional, help: "Dead zone, degrees.") var deadZone: Double = 3
    @Option(parsing: .unconditional, help: "Saturation angle, degrees.") var saturation: Double = 30
    @Option(parsing: .unconditional, help: "Response curve: linear, quadratic, or exponent:P.") var curve: ResponseCurve = .linear
    @Option(parsing: .unconditional, help: "Gravity low-pass time constant, seconds (0 = raw accelerometer).") var gravityTimeConstant: Double = 0.1

    @Flag(help: "Re-home when held far from home and still (player changed posture).") var dynamicHome = false
    @Option(parsing: .unconditional, help: "Dynamic re-homing: angle from home, degrees.") var homeAngle: Double = 30
    @Option(parsing: .unconditional, help: "Dynamic re-homing: hold time, seconds.") var holdTime: Double = 2
    @Option(parsing: .unconditional, help: "Dynamic re-homing: stillness rate, degrees/s.") var stillRate: Double = 10

    @Option(parsing: .unconditional, help: "Resample onto a game frame clock, Hz (e.g. 30 or 60).") var frameRate: Double?
    @Option(parsing: .unconditional, help: "Smoothing time constant at frame time, seconds (with --frame-rate).") var smoothing: Double = 0

    @Flag(help: "The file's accelerometer uses Apple's raw sign (−1 g on the up axis).")
    var appleAccelerometerSign = false

    @Option(help: "Write the CSV here instead of standard output ('-': standard output).") var out: String?

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var gaps: GapOptions

    func validate() throws {
        try OptionRange("--dead-zone", 0, 90, unit: "degrees").check(deadZone)
        try OptionRange("--saturation", deadZone, 180, unit: "degrees (above the dead zone)", includesLower: false).check(saturation)
        if case .exponent(let p) = curve { try OptionRange("--curve exponent", 0, 100, includesLower: false).check(p) }
        try OptionRange("--gravity-time-constant", 0, 3600, unit: "s").check(gravityTimeConstant)
        try OptionRange("--home-angle", 0, 180, unit: "degrees", includesLower: false).check(homeAngle)
        try OptionRange("--hold-time", 0, 3600, unit: "s").check(holdTime)
        try OptionRange("--still-rate", 0, 3600, unit: "degrees/s").check(stillRate)
        try OptionRange.frameRate("--frame-rate").check(frameRate)
        try OptionRange("--smoothing", 0, 3600, unit: "s").check(smoothing)
    }

    /// Most frames `--frame-rate` may produce per recorded sample beyond the first
    /// `minimumFrameAllowance` (a game loop faster than the sensor repeats values; many more
    /// frames than samples means the recording's times are not in seconds).
    static let framesPerSample = 20
    static let minimumFrameAllowance = 1_000_000

    /// `FILE` may be `-` (standard input). With `--out FILE` a summary is printed; with standard
    /// output as the destination only the CSV is (notes go to standard error). One row per sample
    /// is the output CSV of the pipeline (`RecordCSVWriter`, as `replay --pipeline` writes it).
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file])
        try StandardInputSpool.withFile(file) { path in try tilt(path) }
    }

    /// Streams the recording twice: the scan (`RecordingScan`: every row checked, the recording's rate
    /// for the fusion and the gap limit, the time span that bounds the frame count) and the pass
    /// that writes each row (or frame) as it is made.
    func tilt(_ path: String) throws {
        let settings = TiltSettings(
            gravityTimeConstant: gravityTimeConstant,
            home: HomeCalibrationSettings(dynamicRecalibration: dynamicHome, recalibrationAngle: homeAngle,
                                          stillnessRate: stillRate, holdTime: holdTime),
            stick: StickResponse(deadZone: deadZone, saturation: saturation, curve: curve))
        let options = reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign))
        let scan = try RecordingScan(path: path, options: options)
        let schema = scan.schema
        try SampleRateCheck.check(rate: scan.nominalRate, schema: schema, file: file)
        let source = self.source ?? (schema.hasGyroscope ? .fusion : .gravity)
        // The pipeline: [truth |] [remap |] [fusion:6d |] tilt.
        var stages: [any PipelineStage] = []
        switch source {
        case .gravity:
            try schema.require([.accelerometer], file: file, for: "--source gravity (tilt from the accelerometer)")
        case .fusion:
            guard schema.hasGyroscope else { throw CommandError("\(file): --source fusion needs gyroscope columns (gyr_x_radps… or Gyroscope X (deg/s)…)") }
            try schema.require([.accelerometer], file: file, for: "--source fusion (6D fusion of gyroscope and accelerometer)")
        case .truth:
            guard schema.hasTruth else { throw CommandError("\(file): --source truth needs gt_qw, gt_qx, gt_qy, gt_qz columns") }
            stages.append(TruthAttitudeStage())
        }
        switch try frame.choice() {
        case .rotation(let remap, let name): stages.append(RemapStage(remap: remap, description: name))
        case .reflection: throw ValidationError("tilt needs a proper rotation; reflections have no attitude")
        case nil: break
        }
        if source == .fusion {
            // 6D fusion (no magnetometer: tilt needs no heading) in the remapped frame, which
            // equals the remapped attitude of the device-frame fusion (docs/orientation.md).
            stages.append(DeviceMotionStage(nineAxis: false, sampleRate: scan.nominalRate ?? 100))
        }
        do {
            stages.append(try TiltStage(settings: settings, rotationRateAvailable: schema.hasGyroscope))
        } catch let e as OrientationSettingsError {
            throw ValidationError(e.message)
        }
        let pipeline = Pipeline(stages)
        if let frameRate, let firstTime = scan.firstTime, let lastTime = scan.lastTime {
            // Bounded output: the frame count follows from the time span, checked before any frame is made.
            let frameCount = ((lastTime - firstTime) * frameRate).rounded(.down) + 1
            let allowed = max(Self.minimumFrameAllowance, Self.framesPerSample * scan.sampleCount)
            guard frameCount.isFinite, frameCount <= Double(allowed) else {
                throw CommandError("\(file): --frame-rate \(OptionRange.number(frameRate)) Hz over \(String(format: "%.4g", lastTime - firstTime)) s of recording makes \(String(format: "%.4g", frameCount)) frames, more than the \(allowed) allowed for \(scan.sampleCount) samples; are the times in seconds?")
            }
        }
        // Gaps longer than the limit get no frames (a 2-hour pause is not 432,000 held frames).
        let limit = gaps.limit(rate: scan.nominalRate ?? frameRate ?? 1)
        let resampler = try frameRate.map { frameRate in
            do {
                return try TiltFrames(settings: FrameSamplerSettings(frameRate: frameRate, smoothingTimeConstant: smoothing,
                                                                      maximumGap: limit.isFinite ? limit : nil),
                                      stick: settings.stick)
            } catch let e as OrientationSettingsError { throw ValidationError(e.message) }
        }
        let toFile = out.map { !OutputFile.isStandardOutput($0) } ?? false
        var columns = RecordColumns(outputs: pipeline.outputs, magnetometer: schema.hasMagnetometer, gyroscope: schema.hasGyroscope)
        columns.magneticFieldIsArbitrary = schema.magneticFieldIsArbitrary
        // Per sample: the pipeline's output CSV. Per frame: the tilt stage's columns.
        let writer = resampler == nil ? try RecordCSVWriter(path: out ?? "-", columns: columns) : nil
        let rows = TiltPass.Rows(destination: resampler != nil && toFile ? try OutputFile(path: out!) : nil,
                                 text: resampler == nil ? "" : (["t_s"] + RecordColumns.tiltColumns + ["samples"]).joined(separator: ",") + "\n")
        // Rows before the first valid truth are left out; later rows without truth (tracking
        // lost) hold the last attitude. Both are counted in the summary.
        let reader = try RecordingSources.open(path: path, options: options)
        let truthStart = source == .truth ? TruthStartSource(reader) : nil
        var pass = TiltPass(writer: writer, resampler: resampler, rows: rows, countsMissingTruth: truthStart != nil, gapLimit: limit)
        var run = Run(source: truthStart ?? reader, pipeline: pipeline, clock: AsFastAsPossible())
        _ = try run.run(into: &pass)
        let truthLeading = truthStart?.skipped ?? 0
        if source == .truth && pass.outputs == 0 {
            throw CommandError("\(file): no row has a finite ground-truth quaternion")
        }
        pass.rows.flush(force: true)
        do { try pass.writer.take()?.finish() } catch let error as RecordingError { throw CommandError(error.description) }
        let (gapCount, gapsListed, truthHeld) = (pass.gapCount, pass.gapsListed, pass.truthHeld)
        let gapNote = gapCount == 0 ? nil
            : "gaps: \(gapCount) longer than \(String(format: "%.3g", limit)) s, no frames written for them (--keep-gaps to fill them): \(gapsListed.joined(separator: ", "))\(gapCount > 5 ? ", …" : "")"
        let truthNote = truthHeld + truthLeading == 0 ? nil
            : "truth: missing on \(truthHeld + truthLeading) rows: \(truthLeading) leading rows left out, \(truthHeld) rows held the last attitude"
        if toFile, let out {
            try pass.rows.destination?.finish()
            print("tilt: \(scan.sampleCount) samples, source \(source.rawValue) → \(pass.rows.rowCount) rows → \(out)")
            if let truthNote { print(truthNote) }
            if let gapNote { print(gapNote) }
            print("home: \(pass.rows.events.joined(separator: "; "))")
            print("stick: \(percent(pass.centred, pass.outputs)) of samples centred (in the dead zone), \(percent(pass.full, pass.outputs)) at full deflection")
        } else {
            if let truthNote { StandardError.write(truthNote + "\n") }
            if let gapNote { StandardError.write(gapNote + "\n") }
        }
    }

    func percent(_ n: Int, _ total: Int) -> String {
        total == 0 ? "0 %" : String(format: "%.1f %%", 100 * Double(n) / Double(total))
    }
}
