#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise

/// Options for writing a recording.
public struct WriteOptions: Sendable {
    /// Which optional column groups to write (acceleration, rotation rate and time are always written).
    public var includeMagneticField: Bool
    /// Writes `gt_qw,gt_qx,gt_qy,gt_qz` (`nan` for samples without truth).
    public var includeTruth: Bool
    /// Writes `movement` (1/0; a sample without a mask writes 0).
    public var includeMovement: Bool
    /// `nil` (default): every Double is written in its shortest form that reads back to the same
    /// bits (exact round trip). A number: that many significant digits (`%.*g`), for small files.
    public var significantDigits: Int?

    public init(includeMagneticField: Bool = true, includeTruth: Bool = false, includeMovement: Bool = false,
                significantDigits: Int? = nil) {
        self.includeMagneticField = includeMagneticField
        self.includeTruth = includeTruth
        self.includeMovement = includeMovement
        self.significantDigits = significantDigits
    }
}

/// Writes samples as a Poise CSV recording in core units, streaming through a fixed buffer.
///
/// Header: `t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps[,mag_x_uT,mag_y_uT,mag_z_uT]`
/// `[,gt_qw,gt_qx,gt_qy,gt_qz][,movement]`. Units: seconds, g (specific force), rad/s, µT — the
/// same as `MotionSample`, so with the default options `Recording.load` gives back exactly the
/// samples that were written (bit for bit).
public final class RecordingWriter {
    /// The path being written.
    public let path: String
    /// The options in effect.
    public let options: WriteOptions
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16
    private var scratch = [CChar](repeating: 0, count: 64)

    /// The header line this writer produces for `options` (without the line break).
    public static func header(for options: WriteOptions) -> String {
        var names = ["t_s", "acc_x_g", "acc_y_g", "acc_z_g", "gyr_x_radps", "gyr_y_radps", "gyr_z_radps"]
        if options.includeMagneticField { names += ["mag_x_uT", "mag_y_uT", "mag_z_uT"] }
        if options.includeTruth { names += ["gt_qw", "gt_qx", "gt_qy", "gt_qz"] }
        if options.includeMovement { names.append("movement") }
        return names.joined(separator: ",")
    }

    /// Creates (or truncates) `path` and writes the header.
    ///
    /// - Throws: `RecordingError` (line 0) when the file cannot be created.
    public init(path: String, options: WriteOptions = WriteOptions()) throws {
        self.path = path
        self.options = options
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if descriptor < 0 {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot create the file (\(String(cString: strerror(errno))))")
        }
        buffer.reserveCapacity(flushThreshold + 1024)
        buffer.append(contentsOf: RecordingWriter.header(for: options).utf8)
        buffer.append(10)
    }

    deinit { if descriptor >= 0 { systemClose(descriptor) } }

    /// Appends one row. A missing magnetic field writes `nan` (readers then reject the row unless lenient).
    public func write(_ sample: MotionSample) throws {
        append(sample.time)
        for v in [sample.acceleration, sample.rotationRate] {
            buffer.append(44); append(v.x); buffer.append(44); append(v.y); buffer.append(44); append(v.z)
        }
        if options.includeMagneticField {
            let m = sample.magneticField ?? SIMD3(repeating: .nan)
            buffer.append(44); append(m.x); buffer.append(44); append(m.y); buffer.append(44); append(m.z)
        }
        if options.includeTruth {
            let q = sample.truth ?? Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
            for c in [q.w, q.x, q.y, q.z] { buffer.append(44); append(c) }
        }
        if options.includeMovement {
            buffer.append(44)
            buffer.append(sample.movement == true ? 49 : 48)
        }
        buffer.append(10)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Appends every sample of a sequence.
    public func write<S: Sequence>(contentsOf samples: S) throws where S.Element == MotionSample {
        for s in samples { try write(s) }
    }

    /// Writes buffered bytes and closes the file. Further writes throw.
    public func close() throws {
        try flush()
        if descriptor >= 0 {
            let result = systemClose(descriptor)
            descriptor = -1
            if result != 0 {
                throw RecordingError(file: path, line: 0, column: 0, message: "close failed (\(String(cString: strerror(errno))))")
            }
        }
    }

    private func append(_ value: Double) {
        if let digits = options.significantDigits, value.isFinite {
            let count = scratch.withUnsafeMutableBufferPointer { out in
                withVaList([Int32(digits), value]) { vsnprintf(out.baseAddress, out.count, "%.*g", $0) }
            }
            for i in 0..<Int(min(count, 63)) { buffer.append(UInt8(bitPattern: scratch[i])) }
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }

    private func flush() throws {
        guard descriptor >= 0 else {
            throw RecordingError(file: path, line: 0, column: 0, message: "write after close")
        }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw RecordingError(file: path, line: 0, column: 0, message: "write failed (\(String(cString: strerror(errno))))")
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension Recording {
    /// Writes the samples to `path` (see `RecordingWriter`). Includes magnetometer, truth and
    /// movement columns when the schema has them.
    public func write(to path: String, significantDigits: Int? = nil) throws {
        let writer = try RecordingWriter(path: path, options: WriteOptions(
            includeMagneticField: schema.hasMagnetometer, includeTruth: schema.hasTruth,
            includeMovement: schema.hasMovement, significantDigits: significantDigits))
        try writer.write(contentsOf: samples)
        try writer.close()
    }
}
