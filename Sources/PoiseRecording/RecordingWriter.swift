#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise

/// Options for writing a recording.
public struct WriteOptions: Sendable {
    /// Which column groups to write (time is always written). A recording without an
    /// accelerometer or gyroscope leaves those columns out rather than writing zeros.
    public var includeAcceleration: Bool
    public var includeRotationRate: Bool
    public var includeMagneticField: Bool
    /// Writes `gt_qw,gt_qx,gt_qy,gt_qz` (`nan` for samples without truth).
    public var includeTruth: Bool
    /// Writes `movement` (1/0; a sample without a mask writes 0).
    public var includeMovement: Bool
    /// `nil` (default): every Double is written in its shortest form that reads back to the same
    /// bits (exact round trip). A number: that many significant digits (`%.*g`), for small files.
    public var significantDigits: Int?
    /// The magnetometer is in arbitrary units (`RecordingSchema.magneticFieldIsArbitrary`): its
    /// columns are written as `mag_x_au…` (values as they are), never as µT.
    public var magneticFieldIsArbitrary = false

    public init(includeMagneticField: Bool = true, includeTruth: Bool = false, includeMovement: Bool = false,
                significantDigits: Int? = nil, includeAcceleration: Bool = true, includeRotationRate: Bool = true) {
        self.includeAcceleration = includeAcceleration
        self.includeRotationRate = includeRotationRate
        self.includeMagneticField = includeMagneticField
        self.includeTruth = includeTruth
        self.includeMovement = includeMovement
        self.significantDigits = significantDigits
    }
}

/// Writes samples as a Poise CSV recording in core units, streaming through a fixed buffer
/// (`OutputFile`): a regular file is written to a temporary file that `close()` renames onto
/// `path`, so until then, and if the writer is dropped without `close()`, `path` is untouched.
/// `-` writes standard output; devices and pipes are written straight through.
///
/// Header: `t_s[,acc_x_g,acc_y_g,acc_z_g][,gyr_x_radps,gyr_y_radps,gyr_z_radps][,mag_x_uT,mag_y_uT,mag_z_uT]`
/// `[,gt_qw,gt_qx,gt_qy,gt_qz][,movement]`. Units: seconds, g (specific force), rad/s, µT — the
/// same as `MotionSample`, so with the default options `Recording.load` gives back exactly the
/// samples that were written (bit for bit).
public final class RecordingWriter {
    /// The path being written.
    public let path: String
    /// The options in effect.
    public let options: WriteOptions
    private let output: OutputFile
    private var closed = false
    private var scratch = [CChar](repeating: 0, count: 64)

    /// The header line this writer produces for `options` (without the line break).
    public static func header(for options: WriteOptions) -> String {
        var names = ["t_s"]
        if options.includeAcceleration { names += ["acc_x_g", "acc_y_g", "acc_z_g"] }
        if options.includeRotationRate { names += ["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"] }
        if options.includeMagneticField {
            names += options.magneticFieldIsArbitrary ? ["mag_x_au", "mag_y_au", "mag_z_au"] : ["mag_x_uT", "mag_y_uT", "mag_z_uT"]
        }
        if options.includeTruth { names += ["gt_qw", "gt_qx", "gt_qy", "gt_qz"] }
        if options.includeMovement { names.append("movement") }
        return names.joined(separator: ",")
    }

    /// Creates the temporary file for `path` and writes the header.
    ///
    /// - Throws: `RecordingError` (line 0) when the file cannot be created.
    public init(path: String, options: WriteOptions = WriteOptions()) throws {
        self.path = path
        self.options = options
        output = try OutputFile(path: path)
        output.append(RecordingWriter.header(for: options) + "\n")
    }

    /// Appends one row. A missing magnetic field (a slower magnetometer without a new reading)
    /// writes empty fields, which `RecordingReader` reads back as "no new reading": the previous
    /// reading held, or none before the first.
    public func write(_ sample: MotionSample) throws {
        guard !closed else { throw RecordingError(file: path, line: 0, column: 0, message: "write after close") }
        append(sample.time)
        for (v, included) in [(sample.acceleration, options.includeAcceleration), (sample.rotationRate, options.includeRotationRate)] where included {
            output.append(byte: 44); append(v.x); output.append(byte: 44); append(v.y); output.append(byte: 44); append(v.z)
        }
        if options.includeMagneticField {
            if let m = sample.magneticField {
                output.append(byte: 44); append(m.x); output.append(byte: 44); append(m.y); output.append(byte: 44); append(m.z)
            } else {
                output.append(byte: 44); output.append(byte: 44); output.append(byte: 44)
            }
        }
        if options.includeTruth {
            let q = sample.truth ?? Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
            for c in [q.w, q.x, q.y, q.z] { output.append(byte: 44); append(c) }
        }
        if options.includeMovement {
            output.append(byte: 44)
            output.append(byte: sample.movement == true ? 49 : 48)
        }
        output.append(byte: 10)
        output.flushIfFull()
    }

    /// Appends every sample of a sequence.
    public func write<S: Sequence>(contentsOf samples: S) throws where S.Element == MotionSample {
        for s in samples { try write(s) }
    }

    /// Writes buffered bytes, closes the file and moves it onto `path`. Further writes throw.
    ///
    /// - Throws: `RecordingError` when a write, the close or the rename failed (the temporary
    ///   file is removed and `path` left as it was).
    public func close() throws {
        closed = true
        try output.finish()
    }

    /// Stops writing and deletes the temporary file; `path` is left as it was.
    public func abandon() {
        closed = true
        output.abandon()
    }

    private func append(_ value: Double) {
        if let digits = options.significantDigits, value.isFinite {
            let count = scratch.withUnsafeMutableBufferPointer { out in
                withVaList([Int32(digits), value]) { vsnprintf(out.baseAddress, out.count, "%.*g", $0) }
            }
            for i in 0..<Int(min(count, 63)) { output.append(byte: UInt8(bitPattern: scratch[i])) }
        } else {
            output.append(bytes: value.description.utf8)
        }
    }
}

extension Recording {
    /// Writes the samples to `path` (see `RecordingWriter`). Includes the sensor, truth and
    /// movement columns the schema has, and only those.
    public func write(to path: String, significantDigits: Int? = nil) throws {
        let writer = try RecordingWriter(path: path, options: WriteOptions(schema: schema, significantDigits: significantDigits))
        try writer.write(contentsOf: samples)
        try writer.close()
    }
}

extension WriteOptions {
    /// The sensor, truth and movement columns `schema` has, and only those (the magnetometer in
    /// arbitrary units when the schema's is).
    public init(schema: RecordingSchema, significantDigits: Int? = nil) {
        self.init(includeMagneticField: schema.hasMagnetometer, includeTruth: schema.hasTruth,
                  includeMovement: schema.hasMovement, significantDigits: significantDigits,
                  includeAcceleration: schema.hasAccelerometer, includeRotationRate: schema.hasGyroscope)
        magneticFieldIsArbitrary = schema.magneticFieldIsArbitrary
    }
}
