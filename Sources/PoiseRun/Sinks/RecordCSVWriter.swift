import Poise
import PoiseRecording

/// The output sink every command writes samples with: one CSV dialect for `fuse`, `replay` and
/// any pipeline, streamed while the run goes on.
///
/// Rows go through an `OutputFile`: for a regular file, a temporary file next to the destination
/// (`NAME.partial-PID`), which `finish()` renames onto the destination in one step, so an
/// interrupted or failed run never leaves a half-written file under the destination's name;
/// devices and pipes are written straight through, `-` is standard output. Writes are buffered
/// (64 KiB).
///
/// The columns are those of ``RecordColumns`` (docs/conventions.md "Output CSV"), chosen from
/// what the pipeline produces. In frame mode there is one row per game-loop frame: `frame,t_s,
/// stacked`, the sensor-callback pipeline's columns, then the frame-time pipeline's acceleration
/// (and gravity) as `frame_acc_x_g…`, `frame_grav_x_g…`.
///
/// As a run's `Sink` it writes every record (or frame) it is given, and `finish(_:)` renames the
/// file into place, or abandons it when the run was stopped. Copies share one output file: finish
/// or abandon one of them.
public struct RecordCSVWriter: Sink {
    /// Destination path.
    public let path: String
    private let file: OutputFile
    private var lines: RecordLines

    /// Opens the destination (or its temporary file) and writes the header.
    ///
    /// - Parameters:
    ///   - columns: the per-sample columns.
    ///   - frameOutputs: in frame mode, what the frame-time pipeline produces; `nil` for one row
    ///     per sample.
    /// - Throws: `RecordingError` when the file cannot be created.
    ///   - inPlace: write a regular file in place as the run goes (`OutputFile.Mode.inPlace`: a
    ///     live stream's output), not through a temporary file.
    public init(path: String, columns: RecordColumns, frameOutputs: StageOutputs? = nil, inPlace: Bool = false) throws {
        self.path = path
        file = try OutputFile(path: path, inPlace: inPlace)
        lines = RecordLines(columns: columns, frameOutputs: frameOutputs)
        file.append(lines.header + "\n")
    }

    /// How the destination is written (atomic rename, write-through, standard output).
    public var mode: OutputFile.Mode { file.mode }

    /// Writes one sample row.
    public mutating func write(_ record: ProcessedSample) {
        file.append(lines.line(record))
        file.append("\n")
    }

    /// Writes one frame row.
    public mutating func write(_ frame: FrameDelivery) {
        guard let line = lines.line(frame) else { return }
        file.append(line)
        file.append("\n")
    }

    /// Writes what is buffered now (live output to a pipe, a terminal or a device).
    public func flush() { file.flush() }

    /// The first write error in words, or `nil` while every write succeeded.
    public var failure: String? { file.writeFailure }

    /// Flushes, closes and renames the temporary file onto `path`.
    ///
    /// - Throws: `RecordingError` when writing or renaming failed (the temporary file is removed).
    public consuming func finish() throws {
        try file.finish()
    }

    /// Closes and deletes the temporary file (the destination is left as it was; a stream
    /// written through keeps what was written).
    public consuming func abandon() {
        file.abandon()
    }

    public mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        write(record)
    }

    public mutating func consume(frame: FrameDelivery) {
        write(frame)
    }

    /// Ends the output: `finish()` after a complete run, `abandon()` after a stopped one (the
    /// destination is then left as it was; a stream written through keeps what was written).
    ///
    /// - Throws: `RecordingError` when writing or renaming failed.
    public mutating func finish(_ end: RunEnd) throws {
        if end.stopped { file.abandon() } else { try file.finish() }
    }
}

/// The header and rows of Poise's output CSV as text, shared by every sink that writes them (a
/// file, a UDP datagram). One row per sample, or in frame mode one per game-loop frame.
public struct RecordLines: Sendable {
    /// The per-sample columns.
    public let columns: RecordColumns
    /// In frame mode, the frame-time pipeline's columns (`frame_acc_x_g…`).
    let frameColumns: RecordColumns?
    /// The column names, comma-separated, without a newline.
    public let header: String
    private var text = ""

    /// - Parameter frameOutputs: what the frame-time pipeline produces in frame mode; `nil` for
    ///   one row per sample.
    public init(columns: RecordColumns, frameOutputs: StageOutputs? = nil) {
        self.columns = columns
        frameColumns = frameOutputs.map {
            RecordColumns(outputs: $0.intersection([.gravity]).union(.acceleration), magnetometer: false, accelerationOnly: true)
        }
        var header = frameOutputs == nil ? "t_s" : "frame,t_s,stacked"
        columns.appendHeader(to: &header, prefix: "")
        frameColumns?.appendHeader(to: &header, prefix: "frame_")
        self.header = header
    }

    /// The row of one sample, without a newline.
    public mutating func line(_ record: ProcessedSample) -> String {
        text.removeAll(keepingCapacity: true)
        text += String(record.time)
        columns.append(record, to: &text)
        return text
    }

    /// The row of one frame, without a newline; `nil` before the first sample.
    public mutating func line(_ frame: FrameDelivery) -> String? {
        guard let latest = frame.latest else { return nil }
        text.removeAll(keepingCapacity: true)
        text += "\(frame.index),\(frame.time),\(frame.stackedSamples)"
        columns.append(latest, to: &text)
        if let frameColumns, let smoothed = frame.frameSmoothed { frameColumns.append(smoothed, to: &text) }
        return text
    }
}

/// The columns of Poise's output CSV (units in the names, docs/conventions.md), in this order:
///
/// | columns | unit | when |
/// |---|---|---|
/// | `acc_x_g,acc_y_g,acc_z_g` | g, specific force | always: the current acceleration (filtered when a stage filters it) |
/// | `gyr_x_radps…` | rad/s | with a gyroscope (bias-corrected after a fusion stage) |
/// | `mag_x_uT…` | µT | with a magnetometer (`mag_x_au…` when it is in arbitrary units) |
/// | `grav_x_g…`, `uacc_x_g…` | g, device frame | gravity (up) and user acceleration, after gravity or fusion |
/// | `uacc_e_x_g…` | g, earth frame | with `earthUserAcceleration` and an attitude |
/// | `att_qw,att_qx,att_qy,att_qz` | — | attitude, device → earth frame |
/// | `roll_deg,pitch_deg,yaw_deg` | degrees | CoreMotion angles of the attitude |
/// | `zyx_roll_deg,zyx_pitch_deg,zyx_yaw_deg` | degrees | aerospace z-y′-x″ angles |
/// | `bias_x_radps…`, `heading_deg`, `at_rest,mag_disturbance,acc_rejected,time_gap,invalid_input` | rad/s, degrees, 0/1 | after fusion (heading empty in 6D) |
/// | `axis_x,axis_y,tilt_roll_deg,tilt_pitch_deg,home_event` | −1…1, degrees, name | a tilt stage: stick axes, tilt from home, home event (`initial`, `requested`, `dynamic`; empty without one) |
/// | `aim_yaw_deg,aim_pitch_deg,aim_flags` | degrees, names joined by `\|` | a gyro-aim stage's camera turn |
///
/// The sensor columns use the names Poise reads, so an output file is itself a recording.
public struct RecordColumns: Sendable {
    /// What the pipeline produces (`Pipeline.outputs`).
    public var outputs: StageOutputs
    /// Include the magnetic field.
    public var magnetometer: Bool
    /// Include the rotation rate (without a gyroscope it would be zeros).
    public var gyroscope: Bool
    /// Include the user acceleration in the earth frame (with an attitude).
    public var earthUserAcceleration: Bool
    /// The magnetometer is in arbitrary units (`RecordingSchema.magneticFieldIsArbitrary`): its
    /// columns are `mag_x_au…`, never `mag_x_uT`.
    public var magneticFieldIsArbitrary = false
    /// Only the acceleration and gravity (the frame-time columns).
    var accelerationOnly = false

    /// Columns for a pipeline's `outputs` on a recording with the given sensors.
    public init(outputs: StageOutputs, magnetometer: Bool, gyroscope: Bool = true, earthUserAcceleration: Bool = false) {
        self.outputs = outputs; self.magnetometer = magnetometer; self.gyroscope = gyroscope
        self.earthUserAcceleration = earthUserAcceleration
    }

    init(outputs: StageOutputs, magnetometer: Bool, accelerationOnly: Bool) {
        self.init(outputs: outputs, magnetometer: magnetometer, gyroscope: false)
        self.accelerationOnly = accelerationOnly
    }

    /// The columns of a tilt stage (`StageOutputs.axes`), written by every command that runs one
    /// (`tilt`, `replay`/`live --pipeline …tilt`): stick x (right) and y (forward), −1 … 1; the
    /// tilt from home, degrees (roll: right edge down, pitch: top edge down); the home event.
    public static let tiltColumns = ["axis_x", "axis_y", "tilt_roll_deg", "tilt_pitch_deg", "home_event"]
    /// The columns of a gyro-aim stage (`StageOutputs.aim`): the camera turn in degrees (yaw
    /// right, pitch up) and its flags (`GyroAimFlags.names`, joined by `|`).
    public static let aimColumns = ["aim_yaw_deg", "aim_pitch_deg", "aim_flags"]

    /// Fusion flag columns, in order.
    static let flagColumns: [(name: String, flag: DeviceMotion.Flags)] = [
        ("at_rest", .atRest), ("mag_disturbance", .magneticDisturbance), ("acc_rejected", .accelerationRejected),
        ("time_gap", .timeGap), ("invalid_input", .invalidInput),
    ]

    var attitude: Bool { outputs.contains(.attitude) && !accelerationOnly }

    /// Appends `,NAME` for every column (each name after `prefix`).
    public func appendHeader(to header: inout String, prefix: String) {
        func add(_ names: [String]) { for name in names { header += "," + prefix + name } }
        add(["acc_x_g", "acc_y_g", "acc_z_g"])
        if !accelerationOnly && gyroscope { add(["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"]) }
        if magnetometer { add(magneticFieldIsArbitrary ? ["mag_x_au", "mag_y_au", "mag_z_au"] : ["mag_x_uT", "mag_y_uT", "mag_z_uT"]) }
        if outputs.contains(.gravity) {
            add(["grav_x_g", "grav_y_g", "grav_z_g"])
            if !accelerationOnly { add(["uacc_x_g", "uacc_y_g", "uacc_z_g"]) }
            if attitude && earthUserAcceleration { add(["uacc_e_x_g", "uacc_e_y_g", "uacc_e_z_g"]) }
        }
        if attitude {
            add(["att_qw", "att_qx", "att_qy", "att_qz", "roll_deg", "pitch_deg", "yaw_deg",
                 "zyx_roll_deg", "zyx_pitch_deg", "zyx_yaw_deg"])
        }
        if outputs.contains(.fusion) && !accelerationOnly {
            add(["bias_x_radps", "bias_y_radps", "bias_z_radps", "heading_deg"])
            add(Self.flagColumns.map(\.name))
        }
        if outputs.contains(.axes) && !accelerationOnly { add(Self.tiltColumns) }
        if outputs.contains(.aim) && !accelerationOnly { add(Self.aimColumns) }
    }

    /// Appends `,VALUE` for every column of `record` (empty where the record lacks the value).
    public func append(_ record: ProcessedSample, to line: inout String) {
        func add(_ v: SIMD3<Double>?) {
            if let v { line += ",\(v.x),\(v.y),\(v.z)" } else { line += ",,," }
        }
        add(record.acceleration)
        if !accelerationOnly && gyroscope { add(record.rotationRate) }
        if magnetometer { add(record.magneticField) }
        if outputs.contains(.gravity) {
            add(record.gravity)
            if !accelerationOnly { add(record.userAcceleration) }
            if attitude && earthUserAcceleration {
                if let q = record.attitude, let u = record.userAcceleration { add(q.act(u)) } else { add(nil) }
            }
        }
        if attitude {
            if let q = record.attitude {
                let degrees = 180 / Double.pi
                let cm = DeviceMotion.coreMotionAngles(q), zyx = DeviceMotion.aerospaceAngles(q)
                line += ",\(q.w),\(q.x),\(q.y),\(q.z)"
                line += ",\(cm.roll * degrees),\(cm.pitch * degrees),\(cm.yaw * degrees)"
                line += ",\(zyx.roll * degrees),\(zyx.pitch * degrees),\(zyx.yaw * degrees)"
            } else {
                line += ",,,,,,,,,,"
            }
        }
        if outputs.contains(.fusion) && !accelerationOnly {
            if let status = record.fusion {
                add(status.bias)
                line += ","
                if let heading = status.heading { line += heading.description }
                for (_, flag) in Self.flagColumns { line += status.flags.contains(flag) ? ",1" : ",0" }
            } else {
                line += ",,,," + String(repeating: ",", count: Self.flagColumns.count)
            }
        }
        if outputs.contains(.axes) && !accelerationOnly {
            if let a = record.axes { line += ",\(a.x),\(a.y)" } else { line += ",," }
            if let tilt = record.tilt {
                let degrees = 180 / Double.pi
                line += ",\(tilt.angles.roll * degrees),\(tilt.angles.pitch * degrees),\(tilt.event?.rawValue ?? "")"
            } else {
                line += ",,,"
            }
        }
        if outputs.contains(.aim) && !accelerationOnly {
            if let a = record.aim { line += ",\(a.yaw),\(a.pitch),\(a.flags.names.joined(separator: "|"))" } else { line += ",,," }
        }
    }
}
