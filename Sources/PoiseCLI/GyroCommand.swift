import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseReports
import PoiseRun

extension GyroSpace: ExpressibleByArgument {}
extension GyroHold: ExpressibleByArgument {}

/// `poise gyro FILE [--space local|player|world] [--sensitivity S] [--frame-rate HZ] [--out FILE]`
struct GyroCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gyro",
        abstract: "Aim a game camera with a recording's gyroscope: per-frame camera yaw and pitch turns (gyro aiming).",
        discussion: """
        Each sample's calibrated rotation rate is mapped to a camera turn rate in the chosen space \
        (player space by default: yaw about gravity, pitch about the device's x axis), smoothed \
        by soft tiered smoothing, scaled by the sensitivity and integrated over the sample's own \
        time step; the frames of a game clock sum their samples' turns. Yaw positive = turn \
        right, pitch positive = look up, degrees. The pipeline is [remap |] gyroaim (the stage \
        of `poise replay --pipeline gyroaim`); output columns per frame: t_s, then the stage's \
        aim_yaw_deg, aim_pitch_deg, aim_flags (the sums of the frame's samples and their flags), \
        and samples. The summary gives the aim path and the smoothing's lag and jitter; \
        --compare-smoothing prints tiered smoothing, one-pole and One Euro side by side. \
        See docs/games.md.
        """)

    @Argument(help: "Recording (CSV with Poise/BROAD or x-io headers, or any format poise reads).")
    var file: String

    @OptionGroup var frame: FrameOptions

    @Option(help: "Aiming space: local (a fixed device yaw axis, --hold), player (yaw about gravity however the device is held; default) or world.")
    var space: GyroSpace = .player
    @Option(help: "Local space's yaw axis: flat (gamepad or phone screen up: the screen normal) or upright (phone held up: its top edge).")
    var hold: GyroHold = .flat

    @Option(parsing: .unconditional, help: "Camera degrees per device degree (1 = 1:1).") var sensitivity: Double = 1
    @Option(name: .customLong("camera-per-360"), parsing: .unconditional,
            help: "Real-world calibration: camera degrees for a full 360° device turn (instead of --sensitivity).")
    var cameraPer360: Double?
    @Option(parsing: .unconditional, help: "Acceleration: the sensitivity at or above --high-speed (the low one is --sensitivity).")
    var highSensitivity: Double?
    @Option(parsing: .unconditional, help: "Acceleration: device speed where the curve starts, degrees/s.") var lowSpeed: Double = 0
    @Option(parsing: .unconditional, help: "Acceleration: device speed where it reaches --high-sensitivity, degrees/s.") var highSpeed: Double = 100

    @Option(parsing: .unconditional, help: "Tiered smoothing threshold, degrees/s of device turn (slower turns smoothed, twice faster not at all; 0 = off).")
    var smoothing: Double = 5
    @Option(parsing: .unconditional, help: "Tiered smoothing time constant, seconds.") var smoothingTime: Double = 0.0625
    @Flag(help: "Do not learn the gyroscope bias while the device is still.") var noCalibration = false

    @Option(parsing: .unconditional, help: "Game frame rate, Hz.") var frameRate: Double = 60
    @Flag(help: "Print lag and jitter of tiered smoothing, one-pole low-pass and One Euro over a grid of settings (the Pareto front marked).")
    var compareSmoothing = false

    @Flag(help: "The file's accelerometer uses Apple's raw sign (−1 g on the up axis).")
    var appleAccelerometerSign = false

    @Option(help: "Write the per-frame CSV here instead of standard output ('-': standard output).") var out: String?
    @Option(help: "Also write an HTML page: the aim path, the camera angles over time, the turn speed before and after smoothing (and the comparison with --compare-smoothing).")
    var report: String?

    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        try OptionRange("--sensitivity", -1000, 1000).check(sensitivity)
        if let cameraPer360 { try OptionRange("--camera-per-360", -360_000, 360_000, unit: "degrees").check(cameraPer360) }
        if let highSensitivity { try OptionRange("--high-sensitivity", -1000, 1000).check(highSensitivity) }
        try OptionRange("--low-speed", 0, 10_000, unit: "degrees/s").check(lowSpeed)
        try OptionRange("--high-speed", lowSpeed, 10_000, unit: "degrees/s (above --low-speed)", includesLower: false).check(highSpeed)
        try OptionRange("--smoothing", 0, 10_000, unit: "degrees/s").check(smoothing)
        try OptionRange("--smoothing-time", 0, 10, unit: "s").check(smoothingTime)
        try OptionRange.frameRate("--frame-rate").check(frameRate)
    }

    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, report, "-"], inputs: [file])
        if let report, OutputFile.isStandardOutput(report), out.map({ OutputFile.isStandardOutput($0) }) ?? true {
            throw ValidationError("--report - and the CSV cannot both go to standard output; give --out FILE")
        }
        try StandardInputSpool.withFile(file) { path in try aim(path) }
    }

    /// Buckets of the page's lines over time: a few per pixel, so that a zoom shows detail; a
    /// recording of at most twice as many samples (or frames) is plotted whole.
    static let plotBuckets = 4000

    func settings(sampleRate: Double) -> GyroAimSettings {
        var s = GyroAimSettings()
        s.space = space
        s.hold = hold
        let low = cameraPer360.map { $0 / 360 } ?? sensitivity
        s.sensitivity = highSensitivity.map { GyroSensitivity(low: low, high: $0, lowSpeed: lowSpeed, highSpeed: highSpeed) } ?? GyroSensitivity(low)
        s.smoothingThreshold = smoothing
        s.smoothingTimeConstant = smoothingTime
        s.calibration.continuous = !noCalibration
        s.sampleRate = sampleRate
        return s
    }

    func aim(_ path: String) throws {
        let options = reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign))
        let scan = try RecordingScan(path: path, options: options)
        let schema = scan.schema
        try SampleRateCheck.check(rate: scan.nominalRate, schema: schema, file: file)
        guard schema.hasGyroscope else {
            throw CommandError("\(file): gyro aiming needs gyroscope columns (gyr_x_radps… or Gyroscope X (deg/s)…)")
        }
        if space != .local {
            try schema.require([.accelerometer], file: file, for: "--space \(space.rawValue) (gravity from the accelerometer; --space local needs none)")
        }
        // The pipeline: [remap |] gyroaim.
        var stages: [any PipelineStage] = []
        switch try frame.choice() {
        case .rotation(let remap, let name): stages.append(RemapStage(remap: remap, description: name))
        case .reflection: throw ValidationError("gyro aiming needs a proper rotation, not a reflection")
        case nil: break
        }
        let sampleRate = scan.nominalRate ?? 100
        do {
            stages.append(try GyroAimStage(settings: settings(sampleRate: sampleRate), accelerationAvailable: schema.hasAccelerometer))
        } catch let e as OrientationSettingsError {
            throw ValidationError(e.message)
        }
        let frames = try GyroAimFrames(frameRate: frameRate, maximumGap: GapPolicy.defaultLimit(rate: sampleRate))
        let toFile = out.map { !OutputFile.isStandardOutput($0) } ?? false
        let destination = toFile ? try OutputFile(path: out!) : nil
        let page = try report.map { try OutputFile(path: $0) }   // a bad destination is reported before the work
        var aimReport = AimReport()
        // The page's lines over time, reduced as they stream (each line's envelope per bucket).
        let span = (scan.firstTime ?? 0)...max(scan.firstTime ?? 0, scan.lastTime ?? 0)
        let envelope = page == nil ? nil : PairEnvelope(range: span, buckets: Self.plotBuckets)
        // One run of the pipeline; the pass keeps each sample's time and turn rates on disk (for
        // the lag and jitter, measured once the still segments are known) and finds the still
        // segments as it goes.
        var detector = RestDetector()
        detector.useAccelerometer = schema.hasAccelerometer
        let rows = GyroAimPass.FrameRows(
            writesRows: !compareSmoothing, destination: destination,
            text: compareSmoothing ? "" : (["t_s"] + RecordColumns.aimColumns + ["samples"]).joined(separator: ",") + "\n",
            cameraEnvelope: envelope)
        var pass = GyroAimPass(frames: frames, rows: rows, tracker: StillSegmentTracker(detector: detector),
                               rates: try AimRateSpool(), speedEnvelope: envelope)
        var run = Run(source: try RecordingSources.open(path: path, options: options), pipeline: Pipeline(stages), clock: AsFastAsPossible())
        _ = try run.run(into: &pass)
        let rates = pass.rates, still = pass.still
        let sampleCount = rates.count
        if compareSmoothing {
            // The comparison filters the raw rates with many settings, each reading them back from the spool.
            let comparison = try AimSmoothingComparison(spool: rates, still: still, sampleRate: sampleRate)
            aimReport.comparison = comparison
            pass.rows.text += "kind,settings,lag_ms,jitter_degps,slow_step_ms,fast_step_ms,pareto\n"
            func ms(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "" }
            for row in comparison.rows {
                pass.rows.text += "\(row.kind),\"\(row.settings)\",\(ms(row.lagMilliseconds)),\(String(format: "%.4f", row.jitter)),"
                    + "\(ms(row.slowStepMilliseconds)),\(ms(row.fastStepMilliseconds)),\(row.onFront ? "front" : "")\n"
            }
        }
        pass.rows.flush(force: true)
        let moving = movingSegments(complementing: still, count: sampleCount, minimumLength: Int(sampleRate))
        let lag = try rates.lag(segments: moving, sampleRate: sampleRate, maximumShift: max(1, Int(0.25 * sampleRate)))
        let jitter = try rates.jitter(segments: still)
        let flagCounts = pass.flagCounts
        let aim = (run.pipeline.stages.last as? GyroAimStage)!.aim
        let bias = aim.calibration.bias / Units.radiansPerDegree
        let summary = [
            "gyro: \(sampleCount) samples, space \(space.rawValue) → \(pass.rows.frameCount) frames at \(OptionRange.number(frameRate)) Hz" + (out.map { " → \($0)" } ?? ""),
            String(format: "aim path: yaw %+.2f°, pitch %+.2f°, path length %.2f°", pass.rows.yawTotal, pass.rows.pitchTotal, pass.rows.pathLength),
            String(format: "smoothing (tiered, %@ °/s, τ %@ s): lag %@ on %d moving segments, jitter %.4f °/s on %.1f s still (raw %.4f °/s)",
                   OptionRange.number(smoothing), OptionRange.number(smoothingTime),
                   lag.map { String(format: "%.1f ms", $0.milliseconds) } ?? "not measured", moving.count,
                   jitter.jitter, jitter.stillSeconds, jitter.rawJitter),
            String(format: "calibration: bias (%.3f, %.3f, %.3f) °/s, %d still blocks accepted, %d refused",
                   bias.x, bias.y, bias.z, aim.calibration.acceptedPeriods, aim.calibration.rejectedPeriods),
            "flags: " + (flagCounts.isEmpty ? "none" : flagCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
        ]
        if let page, let report {
            aimReport.summary = summary
            let camera = pass.rows.cameraEnvelope!.values()
            aimReport.frameTimes = camera.x
            aimReport.cameraYaw = camera.y.map(\.x)
            aimReport.cameraPitch = camera.y.map(\.y)
            let speed = pass.speedEnvelope!.values()
            aimReport.sampleTimes = speed.x
            aimReport.rawSpeed = speed.y.map(\.x)
            aimReport.smoothedSpeed = speed.y.map(\.y)
            aimReport.still = try still.map { try rates.sample($0.lowerBound).time...rates.sample($0.upperBound - 1).time }
            page.append(aimReport.html(title: "poise gyro \((file as NSString).lastPathComponent)"))
            try page.finish()
            if destination == nil && !OutputFile.isStandardOutput(report) { StandardError.write("report → \(report)\n") }
        }
        if let destination {
            try destination.finish()
            for line in summary { print(line) }
            if let report { print("report → \(report)") }
        } else {
            for line in summary { StandardError.write(line + "\n") }
        }
    }
}
