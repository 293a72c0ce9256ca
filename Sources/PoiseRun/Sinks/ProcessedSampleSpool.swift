import Foundation
import Poise
import PoiseRecording

/// A whole recording's records kept for work that reads them more than once and in both
/// directions (`OfflineFusion`: `fuse --offline`, `evaluate --offline`): a temporary file of fixed-size binary
/// records (192 bytes per sample: the input sample and the signals after the calibration stages),
/// mapped into memory once written, so that a long recording (10 h at 400 Hz: 2.8 GB) is paged by
/// the kernel rather than held in the heap.
///
/// The file is made with mode 0600 in the temporary folder (`TMPDIR`, else /tmp) and unlinked as
/// soon as it is mapped (or when writing fails); a signal while writing removes it through
/// `TemporaryFiles`.
///
/// As a run's `Sink` it appends every record and, when the run was not stopped, maps the file
/// (`finish()`) for reading.
public final class ProcessedSampleSpool: Sink {
    /// Doubles per record: time, input acceleration, rotation rate, magnetic field, truth (w, x,
    /// y, z), presence bits, then the current acceleration, rotation rate, magnetic field.
    static let stride = 24
    private static let chunk = 4096

    private let path: String
    private var slot: Int?
    private var descriptor: Int32
    private var buffer: [Double] = []
    private var mapped: UnsafeMutableRawPointer?
    private var mappedBytes = 0
    /// Records appended.
    public private(set) var count = 0

    /// Creates the (empty) temporary file.
    ///
    /// - Throws: `RecordingError` naming the folder when the file cannot be made.
    public init() throws {
        (descriptor, path, slot) = try TemporaryFiles.makeFile(prefix: "poise-offline", purpose: "the recording")
        buffer.reserveCapacity(Self.chunk * Self.stride)
    }

    deinit {
        if let mapped { munmap(mapped, mappedBytes) }
        if descriptor >= 0 { close(descriptor) }
        removeFile()
    }

    private func removeFile() {
        TemporaryFiles.remove(path, slot: slot)
        slot = nil
    }

    /// Appends one record (after the calibration stages, before fusion).
    public func append(_ record: ProcessedSample) throws {
        let s = record.input
        let m = s.magneticField ?? .zero, q = s.truth ?? .identity
        var bits = 0.0
        if s.magneticField != nil { bits += 1 }
        if s.truth != nil { bits += 2 }
        if let moving = s.movement { bits += moving ? 12 : 4 }
        if record.magneticField != nil { bits += 16 }
        let c = record.magneticField ?? .zero
        buffer.append(contentsOf: [s.time, s.acceleration.x, s.acceleration.y, s.acceleration.z,
                                   s.rotationRate.x, s.rotationRate.y, s.rotationRate.z, m.x, m.y, m.z,
                                   q.w, q.x, q.y, q.z, bits,
                                   record.acceleration.x, record.acceleration.y, record.acceleration.z,
                                   record.rotationRate.x, record.rotationRate.y, record.rotationRate.z, c.x, c.y, c.z])
        count += 1
        if buffer.count >= Self.chunk * Self.stride { try flush() }
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    removeFile()
                    throw RecordingError(file: path, line: 0, column: 0, message: "cannot keep the recording in this temporary file: \(reason)")
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, maps the file for reading and removes its name.
    ///
    /// - Throws: `RecordingError` when the file cannot be written or mapped.
    public func finish() throws {
        try flush()
        mappedBytes = count * Self.stride * MemoryLayout<Double>.stride
        if mappedBytes > 0 {
            guard let p = mmap(nil, mappedBytes, PROT_READ, MAP_SHARED, descriptor, 0), p != MAP_FAILED else {
                let reason = String(cString: strerror(errno))
                removeFile()
                throw RecordingError(file: path, line: 0, column: 0, message: "cannot map this temporary file of the recording: \(reason)")
            }
            mapped = p
        }
        removeFile()
    }

    private func field(_ i: Int) -> UnsafePointer<Double> {
        UnsafePointer(mapped!.assumingMemoryBound(to: Double.self)) + i * Self.stride
    }

    /// Record `i` as it left the calibration stages (nothing derived yet).
    public func record(_ i: Int) -> ProcessedSample {
        let f = field(i)
        let bits = Int(f[14])
        let input = MotionSample(time: f[0], acceleration: SIMD3(f[1], f[2], f[3]), rotationRate: SIMD3(f[4], f[5], f[6]),
                                 magneticField: bits & 1 != 0 ? SIMD3(f[7], f[8], f[9]) : nil,
                                 truth: bits & 2 != 0 ? Quaternion(w: f[10], x: f[11], y: f[12], z: f[13]) : nil,
                                 movement: bits & 4 != 0 ? bits & 8 != 0 : nil)
        var record = ProcessedSample(input)
        record.acceleration = SIMD3(f[15], f[16], f[17])
        record.rotationRate = SIMD3(f[18], f[19], f[20])
        record.magneticField = bits & 16 != 0 ? SIMD3(f[21], f[22], f[23]) : nil
        return record
    }

    /// The fusion inputs of the mapped records (the current signals; the magnetometer only when
    /// `magnetometer`), in order.
    public func samples(magnetometer: Bool) -> Samples { Samples(spool: self, magnetometer: magnetometer) }

    /// The spool's records as the samples a `DeviceMotionSmoother` reads.
    public struct Samples: RandomAccessCollection {
        let spool: ProcessedSampleSpool
        let magnetometer: Bool
        public var startIndex: Int { 0 }
        public var endIndex: Int { spool.count }
        public subscript(i: Int) -> MotionSample {
            let f = spool.field(i)
            let hasField = magnetometer && Int(f[14]) & 16 != 0
            return MotionSample(time: f[0], acceleration: SIMD3(f[15], f[16], f[17]), rotationRate: SIMD3(f[18], f[19], f[20]),
                                magneticField: hasField ? SIMD3(f[21], f[22], f[23]) : nil)
        }
    }

    public func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
        try append(record)
    }

    /// Maps the file for reading (`finish()`), unless the run was stopped.
    public func finish(_ end: RunEnd) throws {
        if !end.stopped { try finish() }
    }
}
