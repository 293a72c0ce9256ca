#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise
import PoiseRecording

/// Streams replay output as CSV while the replay runs.
///
/// Rows go through an `OutputFile`: for a regular file, a temporary file next to the destination
/// (`NAME.partial-PID`), which `finish()` renames onto the destination in one step, so an
/// interrupted or failed replay never leaves a half-written file under the destination's name;
/// devices and pipes are written straight through, `-` is standard output. Writes are buffered
/// (64 KiB).
///
/// Columns (units in the names, conventions.md): per sample `t_s`, the current acceleration
/// `acc_x_g…` (filtered when the pipeline filters), `gyr_x_radps…` when the recording has a
/// gyroscope, then `mag_x_uT…` when it has a magnetometer, `grav_x_g…` and `uacc_x_g…` (gravity and user acceleration) when
/// a stage produces them, `att_qw,att_qx,att_qy,att_qz` for an attitude, `axis_x,axis_y` for
/// game axes. In frame mode there is one row per frame: `frame,t_s,stacked`, the sensor-callback
/// pipeline's columns as above, then the frame-time pipeline's as `frame_acc_x_g…` (and
/// `frame_grav_x_g…` when it produces gravity).
public struct ReplayOutputWriter: ~Copyable {
    /// Destination path.
    public let path: String
    private let file: OutputFile
    private let columns: OutputColumns
    private let frameColumns: OutputColumns?
    private var line: String = ""

    /// Opens the temporary file and writes the header.
    ///
    /// - Parameters:
    ///   - outputs: what the callback pipeline produces (`Pipeline.outputs`).
    ///   - hasMagnetometer: include magnetic-field columns.
    ///   - frameOutputs: in frame mode, what the frame-time pipeline produces; `nil` for one row
    ///     per sample.
    ///   - hasGyroscope: include rotation-rate columns (without a gyroscope they would be zeros).
    /// - Throws: `ReplayError` when the file cannot be created.
    public init(path: String, outputs: StageOutputs, hasMagnetometer: Bool, frameOutputs: StageOutputs? = nil,
                hasGyroscope: Bool = true) throws {
        self.path = path
        do { file = try OutputFile(path: path) } catch let error as RecordingError {
            throw ReplayError(error.description)
        }
        columns = OutputColumns(outputs: outputs, magnetometer: hasMagnetometer, gyroscope: hasGyroscope)
        frameColumns = frameOutputs.map { OutputColumns(outputs: $0.intersection([.gravity]).union(.acceleration), magnetometer: false, accelerationOnly: true) }
        var header = frameOutputs == nil ? "t_s" : "frame,t_s,stacked"
        columns.appendHeader(to: &header, prefix: "")
        frameColumns?.appendHeader(to: &header, prefix: "frame_")
        header += "\n"
        file.append(header)
    }

    /// Writes one sample row.
    public mutating func write(_ record: ProcessedSample) {
        line.removeAll(keepingCapacity: true)
        line += String(record.time)
        columns.append(record, to: &line)
        line += "\n"
        file.append(line)
    }

    /// Writes one frame row.
    public mutating func write(_ frame: FrameDelivery) {
        guard let latest = frame.latest else { return }
        line.removeAll(keepingCapacity: true)
        line += "\(frame.index),\(frame.time),\(frame.stackedSamples)"
        columns.append(latest, to: &line)
        if let frameColumns, let smoothed = frame.frameSmoothed { frameColumns.append(smoothed, to: &line) }
        line += "\n"
        file.append(line)
    }

    /// Flushes, closes and renames the temporary file onto `path`.
    ///
    /// - Throws: `ReplayError` when writing or renaming failed (the temporary file is removed).
    public consuming func finish() throws {
        do { try file.finish() } catch let error as RecordingError {
            throw ReplayError(error.description)
        }
    }

    /// Closes and deletes the temporary file (the destination is left as it was).
    public consuming func abandon() {
        file.abandon()
    }
}

/// Which value groups a CSV row has.
struct OutputColumns: Sendable {
    var outputs: StageOutputs
    var magnetometer: Bool
    var gyroscope = true
    var accelerationOnly = false

    func appendHeader(to header: inout String, prefix: String) {
        func add(_ names: [String]) { for name in names { header += "," + prefix + name } }
        add(["acc_x_g", "acc_y_g", "acc_z_g"])
        if !accelerationOnly && gyroscope { add(["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"]) }
        if magnetometer { add(["mag_x_uT", "mag_y_uT", "mag_z_uT"]) }
        if outputs.contains(.gravity) {
            add(["grav_x_g", "grav_y_g", "grav_z_g"])
            if !accelerationOnly { add(["uacc_x_g", "uacc_y_g", "uacc_z_g"]) }
        }
        if outputs.contains(.attitude) && !accelerationOnly { add(["att_qw", "att_qx", "att_qy", "att_qz"]) }
        if outputs.contains(.axes) && !accelerationOnly { add(["axis_x", "axis_y"]) }
    }

    func append(_ record: ProcessedSample, to line: inout String) {
        func add(_ v: SIMD3<Double>?) {
            if let v { line += ",\(v.x),\(v.y),\(v.z)" } else { line += ",,," }
        }
        add(record.acceleration)
        if !accelerationOnly && gyroscope { add(record.rotationRate) }
        if magnetometer { add(record.magneticField) }
        if outputs.contains(.gravity) {
            add(record.gravity)
            if !accelerationOnly { add(record.userAcceleration) }
        }
        if outputs.contains(.attitude) && !accelerationOnly {
            if let q = record.attitude { line += ",\(q.w),\(q.x),\(q.y),\(q.z)" } else { line += ",,,," }
        }
        if outputs.contains(.axes) && !accelerationOnly {
            if let a = record.axes { line += ",\(a.x),\(a.y)" } else { line += ",," }
        }
    }
}
