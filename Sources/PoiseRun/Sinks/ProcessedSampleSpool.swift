import Foundation
import Poise
import PoiseRecording

/// A whole recording's records kept for work that reads them more than once and in both
/// directions (`OfflineFusion`: `fuse --offline`, `evaluate --offline`): a temporary file of
/// fixed-size binary records (192 bytes per sample: the input sample and the signals after the
/// calibration stages), read and written through one buffered block (`BlockRecordFile`), so
/// that a long recording (10 h at 400 Hz: 2.8 GB) stays on disk and the heap holds 256 KB of it.
///
/// The file is made with mode 0600 in the temporary folder (`TMPDIR`, else /tmp) and unlinked
/// at once, so it is gone when the spool is, however the process ends.
///
/// As a run's `Sink` it appends every record and, when the run was not stopped, writes the last
/// block (`finish()`) for reading. Reading (`record(_:)`, `samples`) cannot throw: a block that
/// cannot be read back is recorded in `failure`, which the reader checks before using a record.
public final class ProcessedSampleSpool: Sink {
    /// Doubles per record: time, input acceleration, rotation rate, magnetic field, truth (w, x,
    /// y, z), presence bits, then the current acceleration, rotation rate, magnetic field.
    static let stride = 24

    private let file: BlockRecordFile
    /// Records appended.
    public private(set) var count = 0
    /// The first error reading the records back (nil: every record read is as written).
    public private(set) var failure: RecordingError?
    /// A zero record, handed out once reading has failed.
    private let scratch = UnsafeMutablePointer<Double>.allocate(capacity: ProcessedSampleSpool.stride)

    /// Creates the (empty) temporary file.
    ///
    /// - Throws: `RecordingError` naming the folder when the file cannot be made.
    public init() throws {
        file = try BlockRecordFile(size: Self.stride * MemoryLayout<Double>.stride, purpose: "the recording")
        scratch.initialize(repeating: 0, count: Self.stride)
    }

    deinit { scratch.deallocate() }

    /// Appends one record (after the calibration stages, before fusion).
    ///
    /// - Throws: `RecordingError` naming the temporary folder when the file cannot be written.
    public func append(_ record: ProcessedSample) throws {
        let s = record.input
        let m = s.magneticField ?? .zero, q = s.truth ?? .identity
        var bits = 0.0
        if s.magneticField != nil { bits += 1 }
        if s.truth != nil { bits += 2 }
        if let moving = s.movement { bits += moving ? 12 : 4 }
        if record.magneticField != nil { bits += 16 }
        let c = record.magneticField ?? .zero
        let f = try file.record(count, writing: true).assumingMemoryBound(to: Double.self)
        (f[0], f[1], f[2], f[3]) = (s.time, s.acceleration.x, s.acceleration.y, s.acceleration.z)
        (f[4], f[5], f[6], f[7], f[8], f[9]) = (s.rotationRate.x, s.rotationRate.y, s.rotationRate.z, m.x, m.y, m.z)
        (f[10], f[11], f[12], f[13], f[14]) = (q.w, q.x, q.y, q.z, bits)
        (f[15], f[16], f[17]) = (record.acceleration.x, record.acceleration.y, record.acceleration.z)
        (f[18], f[19], f[20]) = (record.rotationRate.x, record.rotationRate.y, record.rotationRate.z)
        (f[21], f[22], f[23]) = (c.x, c.y, c.z)
        count += 1
    }

    /// Writes what is buffered, so that every record can be read.
    ///
    /// - Throws: `RecordingError` when the file cannot be written.
    public func finish() throws {
        try file.flush()
    }

    private func field(_ i: Int) -> UnsafePointer<Double> {
        guard failure == nil else { return UnsafePointer(scratch) }
        do {
            return UnsafePointer(try file.record(i, writing: false).assumingMemoryBound(to: Double.self))
        } catch {
            failure = error as? RecordingError ?? RecordingError(file: TemporaryFiles.temporaryFolder, line: 0, column: 0, message: "\(error)")
            return UnsafePointer(scratch)
        }
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

    /// The fusion inputs of the records (the current signals; the magnetometer only when
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

    /// Writes the last block (`finish()`), unless the run was stopped.
    public func finish(_ end: RunEnd) throws {
        if !end.stopped { try finish() }
    }
}
