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
        dips away), stick y follows −pitch (top edge dips away). Output columns: t_s, stick_x, \
        stick_y, roll_deg, pitch_deg, home_event (and samples with --frame-rate). \
        See docs/orientation.md.
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
    /// output as the destination only the CSV is (notes go to standard error).
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file])
        let settings = TiltSettings(
            gravityTimeConstant: gravityTimeConstant,
            home: HomeCalibrationSettings(dynamicRecalibration: dynamicHome, recalibrationAngle: homeAngle,
                                          stillnessRate: stillRate, holdTime: holdTime),
            stick: StickResponse(deadZone: deadZone, saturation: saturation, curve: curve))
        let recording = try reading.load(file, options: ReadOptions(appleAccelerometerSign: appleAccelerometerSign))
        let source = self.source ?? (recording.schema.hasGyroscope ? .fusion : .gravity)
        // The pipeline: [truth |] [remap |] [fusion:6d |] tilt.
        var stages: [any PipelineStage] = []
        var samples = recording.samples[...]
        var truthHeld = 0, truthLeading = 0
        switch source {
        case .gravity:
            try recording.schema.require([.accelerometer], file: file, for: "--source gravity (tilt from the accelerometer)")
        case .fusion:
            guard recording.schema.hasGyroscope else { throw InputError("\(file): --source fusion needs gyroscope columns (gyr_x_radps… or Gyroscope X (deg/s)…)") }
            try recording.schema.require([.accelerometer], file: file, for: "--source fusion (6D fusion of gyroscope and accelerometer)")
        case .truth:
            guard recording.schema.hasTruth else { throw InputError("\(file): --source truth needs gt_qw, gt_qx, gt_qy, gt_qz columns") }
            // Rows before the first valid truth are left out; later rows without truth (tracking
            // lost) hold the last attitude. Both are counted in the summary.
            truthLeading = samples.prefix { $0.truth == nil }.count
            samples = samples.dropFirst(truthLeading)
            truthHeld = samples.filter { $0.truth == nil }.count
            guard !samples.isEmpty else { throw InputError("\(file): no row has a finite ground-truth quaternion") }
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
            let rate = DeviceMotionConfiguration.estimatedSampleRate(of: Array(samples)) ?? 100
            stages.append(DeviceMotionStage(nineAxis: false, sampleRate: rate))
        }
        do {
            stages.append(try TiltStage(settings: settings, rotationRateAvailable: recording.schema.hasGyroscope))
        } catch let e as OrientationSettingsError {
            throw ValidationError(e.message)
        }
        var pipeline = Pipeline(stages)
        var outputs: [TiltOutput] = []
        outputs.reserveCapacity(samples.count)
        BatchDriver.run(samples, through: &pipeline) { record in
            if let reading = record.tilt { outputs.append(reading) }
        }
        let controller = try TiltController(settings: settings)
        let degrees = 1 / Units.radiansPerDegree
        var text: String
        var rowCount = 0
        var events: [String] = []
        func row(_ t: Double, _ stick: SIMD2<Double>, _ a: TiltAngles, _ e: HomeEvent?) -> String {
            if let e { events.append("\(e.rawValue) at \(t) s") }
            rowCount += 1
            // `+ 0` turns −0 into 0 for readability.
            return [t, stick.x + 0, stick.y + 0, a.roll * degrees + 0, a.pitch * degrees + 0].map { "\($0)" }.joined(separator: ",")  // shortest exact form
                + "," + (e?.rawValue ?? "")
        }
        if let frameRate, let firstTime = outputs.first?.time, let lastTime = outputs.last?.time {
            // Bounded output: the frame count follows from the time span, checked before any frame is made.
            let frameCount = ((lastTime - firstTime) * frameRate).rounded(.down) + 1
            let allowed = max(Self.minimumFrameAllowance, Self.framesPerSample * outputs.count)
            guard frameCount.isFinite, frameCount <= Double(allowed) else {
                throw InputError("\(file): --frame-rate \(OptionRange.number(frameRate)) Hz over \(String(format: "%.4g", lastTime - firstTime)) s of recording makes \(String(format: "%.4g", frameCount)) frames, more than the \(allowed) allowed for \(outputs.count) samples; are the times in seconds?")
            }
        }
        var gapNote: String?
        if let frameRate {
            // Gaps longer than the limit get no frames (a 2-hour pause is not 432,000 held frames).
            let limit = gaps.limit(rate: nominalSampleRate(of: recording.samples) ?? frameRate)
            let gapTimes = zip(outputs, outputs.dropFirst()).filter { $1.time - $0.time > limit }
            if !gapTimes.isEmpty {
                let listed = gapTimes.prefix(5).map { String(format: "%.3f–%.3f s", $0.0.time, $0.1.time) }.joined(separator: ", ")
                gapNote = "gaps: \(gapTimes.count) longer than \(String(format: "%.3g", limit)) s, no frames written for them (--keep-gaps to fill them): \(listed)\(gapTimes.count > 5 ? ", …" : "")"
            }
            let frames: [TiltFrame]
            do {
                frames = try controller.frames(outputs, settings: FrameSamplerSettings(
                    frameRate: frameRate, smoothingTimeConstant: smoothing, maximumGap: limit.isFinite ? limit : nil))
            }
            catch let e as OrientationSettingsError { throw ValidationError(e.message) }
            text = "t_s,stick_x,stick_y,roll_deg,pitch_deg,home_event,samples\n"
            for f in frames { text += row(f.time, f.stick, f.angles, f.event) + ",\(f.sampleCount)\n" }
        } else {
            text = "t_s,stick_x,stick_y,roll_deg,pitch_deg,home_event\n"
            for o in outputs { text += row(o.time, o.stick, o.angles, o.event) + "\n" }
        }
        let truthNote = truthHeld + truthLeading == 0 ? nil
            : "truth: missing on \(truthHeld + truthLeading) rows: \(truthLeading) leading rows left out, \(truthHeld) rows held the last attitude"
        if let out, !OutputFile.isStandardOutput(out) {
            let file = try OutputFile(path: out)
            file.append(text)
            try file.finish()
            let full = outputs.filter { max(abs($0.stick.x), abs($0.stick.y)) >= 1 }.count
            let centred = outputs.filter { $0.stick == .zero }.count
            print("tilt: \(recording.samples.count) samples, source \(source.rawValue) → \(rowCount) rows → \(out)")
            if let truthNote { print(truthNote) }
            if let gapNote { print(gapNote) }
            print("home: \(events.joined(separator: "; "))")
            print("stick: \(percent(centred, outputs.count)) of samples centred (in the dead zone), \(percent(full, outputs.count)) at full deflection")
        } else {
            print(text, terminator: "")
            if let truthNote { StandardError.write(truthNote + "\n") }
            if let gapNote { StandardError.write(gapNote + "\n") }
        }
    }

    func percent(_ n: Int, _ total: Int) -> String {
        total == 0 ? "0 %" : String(format: "%.1f %%", 100 * Double(n) / Double(total))
    }
}
