import Poise
import PoiseRecording

/// The record outputs of a replay or a live run as one sink: the output CSV (`RecordCSVWriter`)
/// and the UDP sender (`UDPSender`), each optional. Without frames every record is written and
/// sent; in frame mode every frame is, and the records are not.
///
/// A class, because both outputs are non-copyable and a sink is a value: the run holds a reference
/// and the owner finishes the file (`finishFile`) once the run is over.
public final class RecordOutputs: Sink {
    @exclusivity(unchecked) private var writer: RecordCSVWriter?
    @exclusivity(unchecked) private var sender: UDPSender?
    private let frameMode: Bool
    private let flushEachRecord: Bool

    /// - Parameters:
    ///   - frameMode: write and send frames, not records.
    ///   - flushEachRecord: flush the file after every record (a live run to a pipe or a
    ///     terminal).
    public init(writer: consuming RecordCSVWriter?, sender: consuming UDPSender?, frameMode: Bool = false,
                flushEachRecord: Bool = false) {
        self.writer = writer; self.sender = sender
        self.frameMode = frameMode; self.flushEachRecord = flushEachRecord
    }

    public func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        guard !frameMode else { return }
        writer?.write(record)
        if flushEachRecord { writer?.flush() }
        sender?.send(record)
    }

    public func consume(frame: FrameDelivery) {
        writer?.write(frame)
        sender?.send(frame)
    }

    /// Writes what the file has buffered.
    public func flush() { writer?.flush() }

    /// The file's first write error in words, or `nil`.
    public var failure: String? { writer?.failure }

    /// Completes the output file (renamed onto its destination); nothing without one.
    ///
    /// - Throws: `RecordingError` when writing or renaming failed (the temporary file is removed).
    public func finishFile() throws {
        if let finished = writer.take() { try finished.finish() }
    }

    /// Removes the output file's temporary file (the run failed).
    public func abandonFile() {
        if let abandoned = writer.take() { abandoned.abandon() }
    }

    /// The UDP sender's figures, once (`nil` without `--send`).
    public func takeSendReport() -> SendReport? { sender.take()?.report }
}
