import Poise
import PoiseRecording
import PoiseRun

/// The one run of `poise tilt` through its pipeline ([truth |] [remap |] [fusion:6d |] tilt): per
/// sample, the stick counted (centred, at full deflection), then either the pipeline's output
/// row written or, with `--frame-rate`, the tilt output resampled onto the frame clock (each
/// frame a CSV row) and the gaps longer than the limit listed.
///
/// A sink holding its own state, so that the per-sample work runs on its stored properties (no
/// captured variables and their dynamic exclusivity checks per sample). `finish(_:)` emits the
/// last frames.
struct TiltPass: Sink {
    /// The rows as they are made, and the home changes among them. Per frame: t_s, axis_x, axis_y,
    /// tilt_roll_deg, tilt_pitch_deg, home_event, samples, written in blocks of 64 KiB.
    struct Rows {
        /// Where the frame rows go (nil: standard output).
        let destination: OutputFile?
        /// Frame text not yet written.
        var text: String
        var rowCount = 0
        /// Each home change: "EVENT at T s".
        var events: [String] = []

        mutating func emit(_ f: TiltFrame) {
            if let e = f.event { events.append("\(e.rawValue) at \(f.time) s") }
            rowCount += 1
            // `+ 0` turns −0 into 0 for readability; the shortest exact form of each number.
            let degrees = 1 / Units.radiansPerDegree
            text += [f.time, f.stick.x + 0, f.stick.y + 0, f.angles.roll * degrees + 0, f.angles.pitch * degrees + 0].map { "\($0)" }.joined(separator: ",")
                + "," + (f.event?.rawValue ?? "") + ",\(f.sampleCount)\n"
            flush(force: false)
        }

        /// Writes the text once it holds 64 KiB, or whatever it holds with `force`.
        mutating func flush(force: Bool) {
            guard force || text.utf8.count >= 1 << 16 else { return }
            if let destination { destination.append(text) } else { print(text, terminator: "") }
            text = ""
        }
    }

    /// Per sample: the pipeline's output CSV (nil with `--frame-rate`).
    var writer: RecordCSVWriter?
    /// With `--frame-rate`: the frame clock (nil: one row per sample).
    var resampler: TiltFrames?
    var rows: Rows
    /// True when the attitude is the recording's truth: rows without it are counted.
    let countsMissingTruth: Bool
    /// Intervals between tilt outputs longer than this get no frames, s.
    let gapLimit: Double
    /// Rows without truth that held the last attitude.
    var truthHeld = 0
    /// Tilt outputs; of those, with the stick centred (in the dead zone) and at full deflection.
    var outputs = 0, centred = 0, full = 0
    var previousTime: Double?
    /// Gaps longer than `gapLimit` (frame clock only), and the first five as "T0–T1 s".
    var gapCount = 0
    var gapsListed: [String] = []

    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        if countsMissingTruth && record.input.truth == nil { truthHeld += 1 }
        guard let o = record.tilt else { return }
        outputs += 1
        if max(abs(o.stick.x), abs(o.stick.y)) >= 1 { full += 1 }
        if o.stick == .zero { centred += 1 }
        if resampler != nil {
            if let p = previousTime, o.time - p > gapLimit {
                gapCount += 1
                if gapsListed.count < 5 { gapsListed.append(String(format: "%.3f–%.3f s", p, o.time)) }
            }
            Self.add(o, to: &resampler!, &rows)
        } else {
            if let e = o.event { rows.events.append("\(e.rawValue) at \(o.time) s") }
            rows.rowCount += 1
            writer?.write(record)
        }
        previousTime = o.time
    }

    mutating func finish(_ end: RunEnd) {
        if resampler != nil { Self.finish(&resampler!, &rows) }
    }

    // The frame clock and the rows as two arguments, so that the closure taking each completed
    // frame changes only the rows.
    private static func add(_ o: TiltOutput, to resampler: inout TiltFrames, _ rows: inout Rows) {
        resampler.add(o) { rows.emit($0) }
    }

    private static func finish(_ resampler: inout TiltFrames, _ rows: inout Rows) {
        resampler.finish { rows.emit($0) }
    }
}
