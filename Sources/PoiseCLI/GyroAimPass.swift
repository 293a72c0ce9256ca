import Poise
import PoiseRecording
import PoiseRun

/// The one run of `poise gyro` through its pipeline ([remap |] gyroaim): per sample, the aim
/// output summed into game frames (each frame a CSV row and a step of the aim path), its flags
/// counted, the still segments found, the raw and smoothed turn rates kept on disk for the lag
/// and jitter, and the turn speeds' envelope for the page.
///
/// A sink holding its own state, so that the per-sample work runs on its stored properties (no
/// captured variables and their dynamic exclusivity checks per sample). `finish(_:)` closes the
/// still segments and the last frame.
struct GyroAimPass: Sink {
    /// The frames as they are made: the CSV rows (t_s, aim_yaw_deg, aim_pitch_deg, aim_flags,
    /// samples), written in blocks of 64 KiB, and the aim path.
    struct FrameRows {
        /// False with `--compare-smoothing`, which writes its comparison instead of frames.
        let writesRows: Bool
        /// Where the rows go (nil: standard output).
        let destination: OutputFile?
        /// Text not yet written.
        var text: String
        var frameCount = 0
        /// The camera's summed yaw and pitch, and the length of its path, degrees.
        var yawTotal = 0.0, pitchTotal = 0.0, pathLength = 0.0
        /// The camera angles over time, for the page (nil: no page).
        var cameraEnvelope: PairEnvelope?

        mutating func emit(_ f: TimedAimFrame) {
            frameCount += 1
            yawTotal += f.frame.yaw; pitchTotal += f.frame.pitch
            pathLength += (f.frame.yaw * f.frame.yaw + f.frame.pitch * f.frame.pitch).squareRoot()
            cameraEnvelope?.add(x: f.time, y: SIMD2(yawTotal, pitchTotal))
            guard writesRows else { return }
            text += "\(f.time),\(f.frame.yaw + 0),\(f.frame.pitch + 0),\(f.frame.flags.names.joined(separator: "|")),\(f.frame.sampleCount)\n"
            flush(force: false)
        }

        /// Writes the text once it holds 64 KiB, or whatever it holds with `force`.
        mutating func flush(force: Bool) {
            guard force || text.utf8.count >= 1 << 16 else { return }
            if let destination { destination.append(text) } else { print(text, terminator: "") }
            text = ""
        }
    }

    var frames: GyroAimFrames
    var rows: FrameRows
    var tracker: StillSegmentTracker
    /// The still segments, as sample positions.
    var still: [Range<Int>] = []
    /// Every sample's time and raw and smoothed turn rates.
    let rates: AimRateSpool
    /// The turn speed before and after smoothing over time, for the page (nil: no page).
    var speedEnvelope: PairEnvelope?
    /// Samples per combination of flags (indexed by `GyroAimFlags.rawValue`).
    var samplesByFlags = [Int](repeating: 0, count: 1 << GyroAimFlags.RawValue.bitWidth)

    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        guard let o = record.aim else { return }
        samplesByFlags[Int(o.flags.rawValue)] += 1
        Self.add(o, to: &frames, &rows)
        still += tracker.add(MotionSample(time: record.time, acceleration: record.acceleration, rotationRate: record.rotationRate)).map(\.indices)
        try rates.append(time: o.time, raw: o.turnRate, smoothed: o.smoothedRate)
        speedEnvelope?.add(x: o.time, y: SIMD2(o.turnRate.lengthSquared.squareRoot(), o.smoothedRate.lengthSquared.squareRoot()))
    }

    mutating func finish(_ end: RunEnd) {
        still += tracker.finish().map(\.indices)
        Self.finish(&frames, &rows)
    }

    // The frames and their rows as two arguments, so that the closure taking each completed
    // frame changes only the rows.
    private static func add(_ o: GyroAimOutput, to frames: inout GyroAimFrames, _ rows: inout FrameRows) {
        frames.add(o) { rows.emit($0) }
    }

    private static func finish(_ frames: inout GyroAimFrames, _ rows: inout FrameRows) {
        frames.finish { rows.emit($0) }
    }

    /// Samples per flag name (`calibrating` left out: it is the calibration's normal work).
    var flagCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for (raw, n) in samplesByFlags.enumerated() where n > 0 {
            for name in GyroAimFlags(rawValue: UInt8(raw)).names where name != "calibrating" { counts[name, default: 0] += n }
        }
        return counts
    }
}
