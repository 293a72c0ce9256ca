import Poise
import PoiseRecording

/// `SmootherStorage` in temporary files: each array the offline estimators make is a
/// `BlockRecordFile` (one buffered block of 256 KB in the heap), so their working set does not
/// grow with the recording; the disk holds count × size bytes per array, reserved when the
/// array is made.
///
/// The estimators cannot be interrupted by an error in the middle of a pass, so a file that
/// cannot be made, reserved, written or read is recorded in `failure` (the first one) and the
/// array goes on with a scratch record; the caller checks `failure` before it uses an output
/// (`OfflineFusion` checks before each record it hands on) and throws it.
public final class SmootherFileStorage: SmootherStorage {
    /// The first error of any array (a full temporary folder), naming the folder.
    public private(set) var failure: RecordingError?
    /// Arrays open now (each holds one block in the heap, and its file) and at most at once.
    public private(set) var openArrays = 0, peakOpenArrays = 0

    public init() {}

    public func makeRecords(count: Int, size: Int, alignment: Int) -> any SmootherRecords {
        precondition(alignment <= 64)
        if failure == nil {
            do {
                let file = try BlockRecordFile(size: size, reserving: count, purpose: "the offline fusion's per-sample values")
                openArrays += 1
                peakOpenArrays = max(peakOpenArrays, openArrays)
                return Records(file: file, storage: self)
            } catch let error as RecordingError {
                failure = error
            } catch {
                failure = RecordingError(file: TemporaryFiles.temporaryFolder, line: 0, column: 0, message: "\(error)")
            }
        }
        return Records(file: nil, storage: self, scratchSize: size)
    }

    fileprivate func fail(_ error: Error) {
        if failure == nil {
            failure = error as? RecordingError
                ?? RecordingError(file: TemporaryFiles.temporaryFolder, line: 0, column: 0, message: "\(error)")
        }
    }

    final class Records: SmootherRecords {
        let file: BlockRecordFile?
        /// The storage (a strong reference: an unowned one costs a check of the object's
        /// reference counts on every record; the storage refers to no array, so there is no cycle).
        let storage: SmootherFileStorage
        /// One record's room, used once the storage has failed.
        let scratch: UnsafeMutableRawPointer

        init(file: BlockRecordFile?, storage: SmootherFileStorage, scratchSize: Int = 0) {
            self.file = file
            self.storage = storage
            scratch = UnsafeMutableRawPointer.allocate(byteCount: max(64, file?.size ?? scratchSize), alignment: 64)
            scratch.initializeMemory(as: UInt8.self, repeating: 0, count: max(64, file?.size ?? scratchSize))
        }

        deinit {
            scratch.deallocate()
            if file != nil { storage.openArrays -= 1 }
        }

        func record(_ index: Int, writing: Bool) -> UnsafeMutableRawPointer {
            guard let file, storage.failure == nil else { return scratch }
            do {
                return try file.record(index, writing: writing)
            } catch {
                storage.fail(error)
                return scratch
            }
        }

        /// The buffered block that holds record `index` (once the storage has failed, the
        /// scratch record alone).
        func records(around index: Int, writing: Bool) -> (indices: Range<Int>, bytes: UnsafeMutableRawPointer) {
            guard let file, storage.failure == nil else { return (index..<index + 1, scratch) }
            do {
                let block = try file.block(containing: index, writing: writing)
                return (block.first..<block.first + file.perBlock, block.bytes)
            } catch {
                storage.fail(error)
                return (index..<index + 1, scratch)
            }
        }
    }
}
