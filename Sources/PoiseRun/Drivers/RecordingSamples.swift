import Poise
import PoiseRecording

/// A recording as a `Sequence` of samples in constant memory, for the lazy adapters a replay
/// chains (`ReplayPlan.deliveredSamples`, `LoopedSamples`): the first iteration reads the source
/// it was given (already open, so the file is not opened once more to check it), every later one
/// opens `path` again. A sequence cannot throw, so a read error ends the iteration and is kept
/// in `error`: check it after the run.
public final class RecordingSamples: Sequence {
    /// The path and options a later iteration opens.
    public let path: String
    public let options: ReadOptions
    private var opened: (any SampleSource)?
    /// The first error met while iterating (the iteration ended there), or `nil`.
    public private(set) var error: (any Error)?

    /// - Parameters:
    ///   - source: `path` opened with `options` (`RecordingSources.open`), read by the first
    ///     iteration.
    public init(_ source: any SampleSource, path: String, options: ReadOptions) {
        opened = source; self.path = path; self.options = options
    }

    public struct Iterator: IteratorProtocol {
        let owner: RecordingSamples
        var reader: (any SampleSource)?

        public mutating func next() -> MotionSample? {
            guard let reader else { return nil }
            do {
                if let sample = try reader.next() { return sample }
            } catch {
                if owner.error == nil { owner.error = error }
            }
            self.reader = nil
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        if let source = opened.take() { return Iterator(owner: self, reader: source) }
        do {
            return Iterator(owner: self, reader: try RecordingSources.open(path: path, options: options))
        } catch {
            if self.error == nil { self.error = error }
            return Iterator(owner: self, reader: nil)
        }
    }
}
