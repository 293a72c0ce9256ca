import Poise
import PoiseRecording

/// A `ValueLog` in a temporary file (`BlockRecordFile`: one buffered block of 256 KB in the
/// heap), so that a measurement which revisits its per-sample values (the 6D heading alignment,
/// the magnetometer fit's rejection rounds) does not grow in memory with the recording; the disk
/// holds count × the element's stride bytes.
///
/// The measurements cannot be interrupted by an error in the middle of a pass, so a file that
/// cannot be made, written or read is recorded in `failure` (the first error, naming the
/// temporary folder and `purpose`); from then on values are not kept. The owner checks `failure`
/// (or calls `check()`) before it uses a result.
public final class ValueLogFile<Element: BitwiseCopyable>: ValueLog, @unchecked Sendable {
    private var file: BlockRecordFile?
    public private(set) var count = 0
    /// Values written to the file (all of `count` unless the storage failed).
    private var kept = 0
    private var error: RecordingError?

    /// - Parameter purpose: what the values are, for the error message ("the 6D heading errors").
    public init(purpose: String) {
        do {
            file = try BlockRecordFile(size: MemoryLayout<Element>.stride, purpose: purpose)
        } catch {
            fail(error, purpose: purpose)
        }
    }

    public var failure: (any Error)? { error }

    /// Throws `failure`, if any.
    public func check() throws {
        if let error { throw error }
    }

    private func fail(_ error: Error, purpose: String = "values") {
        guard self.error == nil else { return }
        self.error = error as? RecordingError
            ?? RecordingError(file: TemporaryFiles.temporaryFolder, line: 0, column: 0, message: "cannot keep \(purpose): \(error)")
        file = nil
    }

    public func append(_ value: Element) {
        defer { count += 1 }
        guard let file else { return }
        do {
            try file.record(kept, writing: true).storeBytes(of: value, as: Element.self)
            kept += 1
        } catch {
            fail(error)
        }
    }

    public func forEach(every step: Int, _ body: (Int, Element) -> Void) {
        precondition(step > 0)
        guard let file else { return }
        var i = 0
        do {
            while i < kept {
                body(i, try file.record(i, writing: false).loadUnaligned(as: Element.self))
                i += step
            }
        } catch {
            fail(error)
        }
    }

    /// Blocks of `BlockRecordFile.blockBytes`, each read (and written back when `writing`) once.
    public func forEachBlock(writing: Bool, _ body: (_ first: Int, _ values: UnsafeMutableBufferPointer<Element>) -> Void) {
        guard let file else { return }
        var first = 0
        do {
            while first < kept {
                let block = try file.block(containing: first, writing: writing)
                let offset = first - block.first
                let n = min(file.perBlock - offset, kept - first)
                let values = (block.bytes + offset * MemoryLayout<Element>.stride).bindMemory(to: Element.self, capacity: n)
                body(first, UnsafeMutableBufferPointer(start: values, count: n))
                first += n
            }
        } catch {
            fail(error)
        }
    }
}
