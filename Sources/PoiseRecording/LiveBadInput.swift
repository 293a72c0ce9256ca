#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs of a live stream that a `LiveFeed` left out before they reached the CSV reader, by
/// reason. Each is skipped and the stream goes on (rows the reader itself rejects — a wrong
/// number of fields, a field that is not a number — are counted by the reader).
public struct LiveBadInput: Sendable, Codable, Equatable {
    /// Lines holding a NUL byte (binary data).
    public var binary = 0
    /// Lines longer than `LiveFeed.maximumLine` bytes (standard input, serial port).
    public var tooLong = 0
    /// Lines that start with `{` but are not a flat JSON object (a UDP source).
    public var badJSON = 0
    /// Datagrams longer than `LiveFeed.maximumDatagram` bytes (a UDP source).
    public var oversizedDatagrams = 0

    public init() {}

    /// Every input left out.
    public var total: Int { binary + tooLong + badJSON + oversizedDatagrams }

    /// "2 binary (NUL byte), 1 over 65536 bytes" — the non-zero reasons, or "" when there are none.
    public var description: String {
        [(binary, "binary (a NUL byte)"), (tooLong, "over \(LiveFeed.maximumLine) bytes"),
         (badJSON, "not a flat JSON object"), (oversizedDatagrams, "datagrams over \(LiveFeed.maximumDatagram) bytes")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    enum CodingKeys: String, CodingKey {
        case binary, tooLong = "too_long", badJSON = "bad_json", oversizedDatagrams = "oversized_datagrams"
    }
}

/// Splits the bytes of a byte stream (standard input, a serial port) into the lines a CSV
/// reader may see: complete lines pass through unchanged (one `memchr` for a NUL byte and one
/// for the last line break per read); a line holding a NUL byte or longer than `maximumLine`
/// bytes is left out and counted (`bad`). An unfinished line is held (at most `maximumLine`
/// bytes) until its line break arrives or the stream ends (`finish`).
public struct StreamLines: Sendable {
    /// Longest line passed on, bytes (its line break included).
    public let maximumLine: Int
    /// Lines left out so far.
    public private(set) var bad = LiveBadInput()
    /// The unfinished line so far (not yet passed on).
    private var held: [UInt8] = []
    /// The unfinished line is already known to be bad: skip to its line break.
    private var skipping = false
    private var heldHasZero = false

    public init(maximumLine: Int) { self.maximumLine = maximumLine }

    /// Appends the complete good lines among `bytes` (with the unfinished line held before
    /// them) to `out`.
    public mutating func lines(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let noZero = memchr(base, 0, bytes.count) == nil
        if noZero, !skipping, !heldHasZero, let last = Self.lastLineBreak(bytes) {
            // The common case: whole lines, no NUL byte.
            let end = last + 1
            if held.isEmpty, end <= maximumLine || Self.longestLine(bytes[..<end]) <= maximumLine {
                out.append(contentsOf: bytes[..<end])
                hold(bytes[end...])
                return
            }
        }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 10, bytes.count - start) else {
                hold(bytes[start...])
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found)) + 1
            let line = bytes[start ..< end]
            if skipping {
                skipping = false
            } else if heldHasZero || line.contains(0) {
                bad.binary += 1
            } else if held.count + line.count > maximumLine {
                bad.tooLong += 1
            } else {
                out.append(contentsOf: held)
                out.append(contentsOf: line)
            }
            held.removeAll(keepingCapacity: true)
            heldHasZero = false
            start = end
        }
    }

    /// At the end of the stream: the unfinished line, when it is good (the reader judges a last
    /// line without a line break).
    public mutating func finish(into out: inout [UInt8]) {
        if !skipping, !held.isEmpty {
            if heldHasZero { bad.binary += 1 } else { out.append(contentsOf: held) }
        }
        held.removeAll()
        skipping = false
        heldHasZero = false
    }

    /// Holds the start of an unfinished line; one that grows past `maximumLine` is counted and
    /// skipped to its line break.
    private mutating func hold(_ bytes: Slice<UnsafeRawBufferPointer>) {
        guard !bytes.isEmpty, !skipping else { return }
        if held.count + bytes.count >= maximumLine {
            bad.tooLong += 1
            held.removeAll()
            heldHasZero = false
            skipping = true
            return
        }
        if bytes.contains(0) { heldHasZero = true }
        held.append(contentsOf: bytes)
    }

    /// The offset of the last line feed in `bytes` (usually its last byte), if any.
    private static func lastLineBreak(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = bytes.count - 1
        while i >= 0 { if bytes[i] == 10 { return i }; i -= 1 }
        return nil
    }

    private static func longestLine(_ bytes: Slice<UnsafeRawBufferPointer>) -> Int {
        var longest = 0, start = bytes.startIndex
        while start < bytes.endIndex, let found = memchr(bytes.base.baseAddress! + start, 10, bytes.endIndex - start) {
            let end = bytes.base.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
            longest = Swift.max(longest, end - start)
            start = end
        }
        return longest
    }
}
