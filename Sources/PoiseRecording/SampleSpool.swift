#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Poise

/// Samples already parsed, kept in a temporary binary file so that a command reading its
/// recording more than once (`report`) parses the text once: each later pass reads the samples
/// back (`source()`), bit for bit the ones written, in a small fraction of the parsing time.
///
/// The file is made with mode 0600 in the temporary folder (`TMPDIR`, else `/tmp`) and unlinked at
/// once: only the open descriptor keeps it, so it is gone when the spool is released or the
/// process ends, however it ends. Memory stays bounded: samples are written in blocks of
/// `blockSamples` and read back in the chunks a reader asks for.
///
/// Layout: one record of 8-byte words per sample — time (s), acceleration x, y, z (g), rotation
/// rate x, y, z (rad/s), a word of presence bits (magnetometer, truth, movement and its value),
/// then magnetic field x, y, z (µT) when the schema has a magnetometer and truth w, x, y, z when it
/// has a truth column. A sample carrying a quantity its schema's layout has no room for makes the
/// spool unusable (``isUsable`` false) rather than dropping it; so does a failed write (a full
/// disk): the caller then parses the file again, as without a spool.
public final class SampleSpool: @unchecked Sendable {
    // @unchecked: written by one thread (the pass that parses), then only read with pread(2),
    // which does not move a shared offset.
    let descriptor: Int32
    private let hasMagnetometer: Bool
    private let hasTruth: Bool
    /// 8-byte words per sample.
    let words: Int
    private var pending: [UInt64] = []
    private var written = 0
    /// Samples written.
    public private(set) var count = 0
    /// The reason the spool cannot be read back (`nil` while it can).
    public private(set) var problem: String?
    /// Whether `finish()` was called.
    public private(set) var isFinished = false

    /// Samples written per `write(2)`.
    static let blockSamples = 4_096

    private static let magnetometerBit: UInt64 = 1, truthBit: UInt64 = 2, movementBit: UInt64 = 4, movingBit: UInt64 = 8

    /// Makes an empty spool for samples of `schema`'s recording.
    ///
    /// - Throws: `RecordingError` naming the temporary folder when no file can be made there.
    public init(schema: RecordingSchema) throws {
        descriptor = try TemporaryFiles.makeUnlinkedFile(prefix: "poise-samples", purpose: "the parsed samples")
        hasMagnetometer = schema.hasMagnetometer
        hasTruth = schema.hasTruth
        words = 8 + (hasMagnetometer ? 3 : 0) + (hasTruth ? 4 : 0)
        pending.reserveCapacity(Self.blockSamples * words)
    }

    deinit { systemClose(descriptor) }

    /// True when every sample appended so far can be read back.
    public var isUsable: Bool { problem == nil }

    /// Appends `sample` (after `finish()`: a mistake, which makes the spool unusable).
    public func append(_ sample: MotionSample) {
        guard problem == nil else { return }
        guard !isFinished else { problem = "a sample was appended after the end"; return }
        var flags: UInt64 = 0
        if sample.magneticField != nil {
            guard hasMagnetometer else { problem = "a sample has a magnetometer reading its schema has no column for"; return }
            flags |= Self.magnetometerBit
        }
        if sample.truth != nil {
            guard hasTruth else { problem = "a sample has a truth its schema has no column for"; return }
            flags |= Self.truthBit
        }
        if let moving = sample.movement { flags |= Self.movementBit | (moving ? Self.movingBit : 0) }
        let a = sample.acceleration, g = sample.rotationRate
        pending.append(sample.time.bitPattern)
        pending.append(a.x.bitPattern); pending.append(a.y.bitPattern); pending.append(a.z.bitPattern)
        pending.append(g.x.bitPattern); pending.append(g.y.bitPattern); pending.append(g.z.bitPattern)
        pending.append(flags)
        if hasMagnetometer {
            let m = sample.magneticField ?? .zero
            pending.append(m.x.bitPattern); pending.append(m.y.bitPattern); pending.append(m.z.bitPattern)
        }
        if hasTruth {
            let q = sample.truth ?? Quaternion(w: 0, x: 0, y: 0, z: 0)
            pending.append(q.w.bitPattern); pending.append(q.x.bitPattern); pending.append(q.y.bitPattern); pending.append(q.z.bitPattern)
        }
        count += 1
        if pending.count >= Self.blockSamples * words { flush() }
    }

    /// Writes what is pending; no sample may be appended afterwards.
    public func finish() {
        flush()
        isFinished = true
        pending = []
    }

    private func flush() {
        guard problem == nil, !pending.isEmpty else { pending.removeAll(keepingCapacity: true); return }
        let ok = pending.withUnsafeBytes { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(written + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        if ok {
            written += pending.count * 8
        } else {
            problem = "cannot write the parsed samples to a temporary file: \(systemErrorText())"
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// A reader of the samples from the first, reporting `path`, `schema`, `issues` and `summary`
    /// as the reader that parsed them did; `nil` unless the spool is finished and usable.
    public func source(path: String, schema: RecordingSchema, issues: [RecordingIssue] = [], summary: ReadSummary = ReadSummary()) -> (any SampleSource)? {
        guard isFinished, isUsable else { return nil }
        return Reader(spool: self, path: path, schema: schema, issues: issues, summary: summary)
    }

    /// Reads `count` samples from sample `first` on, appending them to `samples`.
    fileprivate func read(from first: Int, count: Int, into samples: inout [MotionSample], buffer: inout [UInt64]) throws {
        let wanted = count * self.words
        if buffer.count < wanted { buffer = [UInt64](repeating: 0, count: wanted) }
        try buffer.withUnsafeMutableBytes { bytes in
            var done = 0
            let total = wanted * 8
            while done < total {
                let n = pread(descriptor, bytes.baseAddress! + done, total - done, off_t(first * self.words * 8 + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw RecordingError(file: "-", line: 0, column: 0,
                                         message: "cannot read back the parsed samples from their temporary file: \(n == 0 ? "it is shorter than written" : systemErrorText())")
                }
                done += n
            }
        }
        samples.reserveCapacity(samples.count + count)
        let words = self.words, hasMagnetometer = self.hasMagnetometer, hasTruth = self.hasTruth
        buffer.withUnsafeBufferPointer { w in
            for k in 0..<count {
                let r = k * words
                func d(_ i: Int) -> Double { Double(bitPattern: w[r + i]) }
                let flags = w[r + 7]
                var sample = MotionSample(time: d(0), acceleration: SIMD3(d(1), d(2), d(3)), rotationRate: SIMD3(d(4), d(5), d(6)))
                var next = 8
                if hasMagnetometer {
                    if flags & Self.magnetometerBit != 0 { sample.magneticField = SIMD3(d(next), d(next + 1), d(next + 2)) }
                    next += 3
                }
                if hasTruth, flags & Self.truthBit != 0 {
                    sample.truth = Quaternion(w: d(next), x: d(next + 1), y: d(next + 2), z: d(next + 3))
                }
                if flags & Self.movementBit != 0 { sample.movement = flags & Self.movingBit != 0 }
                samples.append(sample)
            }
        }
    }

    /// Reads a finished spool from its first sample.
    final class Reader: SampleSource {
        let spool: SampleSpool
        let path: String
        let schema: RecordingSchema
        let issues: [RecordingIssue]
        let summary: ReadSummary
        private var position = 0
        private var buffer: [UInt64] = []
        private var held: [MotionSample] = []
        private var heldIndex = 0

        init(spool: SampleSpool, path: String, schema: RecordingSchema, issues: [RecordingIssue], summary: ReadSummary) {
            self.spool = spool
            self.path = path
            self.schema = schema
            self.issues = issues
            self.summary = summary
        }

        func next() throws -> MotionSample? {
            if heldIndex == held.count {
                held.removeAll(keepingCapacity: true)
                heldIndex = 0
                guard try read(into: &held, maximumCount: 1_024) > 0 else { return nil }
            }
            heldIndex += 1
            return held[heldIndex - 1]
        }

        func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
            let count = min(max(0, maximumCount), spool.count - position)
            guard count > 0 else { return 0 }
            do {
                try spool.read(from: position, count: count, into: &samples, buffer: &buffer)
            } catch var error as RecordingError {
                error.file = path
                throw error
            }
            position += count
            return count
        }
    }
}
