#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Poise
import PoiseRecording

/// The UDP sink: sends every processed sample (or, in frame mode, every frame) to the app or
/// robot under test as one datagram, while a replay or a live run goes on.
///
/// Target: `udp://HOST:PORT` (`udp://127.0.0.1:9000`, `udp://[::1]:9000`, `udp://game.local:9000`).
/// Datagrams, one per sample, each ending in a newline (so `nc -ul 9000` prints them as lines):
/// - `csv`: the first datagram is the header of Poise's output CSV (docs/conventions.md "Output
///   CSV"), every later one a row with those columns;
/// - `json`: one flat JSON object per sample whose keys are the same column names (units in the
///   names: `t_s`, `acc_x_g`, `att_qw`, …) and whose values are numbers, or `null` where the
///   sample lacks the value.
///
/// Sending never blocks the run: the socket is non-blocking and a datagram the kernel refuses
/// (no receiver yet: `ECONNREFUSED`; a full buffer) is counted as failed, not retried.
public struct UDPSender: ~Copyable {
    /// Datagram format.
    public enum Format: String, Sendable, CaseIterable {
        case csv, json
    }

    /// The target as given.
    public let target: String
    public let format: Format
    private let descriptor: Int32
    private var lines: RecordLines
    private let names: [String]
    private var json = ""
    private var sent = 0
    private var failed = 0
    private var firstError: String?
    private var costs = ValueCollector()

    /// Resolves the target and opens a connected, non-blocking UDP socket; in `csv` format sends
    /// the header datagram.
    ///
    /// - Throws: `ReplayError` naming the target when it is not `udp://HOST:PORT`, the host does
    ///   not resolve, or no socket can be opened.
    public init(target: String, format: Format, lines: RecordLines) throws {
        self.target = target
        self.format = format
        self.lines = lines
        names = lines.header.split(separator: ",").map(String.init)
        let descriptor: Int32
        do { descriptor = try UDPEndpoint(target, allowEmptyHost: false).socket(listen: false) } catch {
            throw ReplayError("--send \(target): \(error)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        if format == .csv { transmit(lines.header + "\n") }
    }

    deinit { close(descriptor) }

    /// Sends one sample.
    public mutating func send(_ record: ProcessedSample) {
        let line = lines.line(record)
        transmit(format == .csv ? line + "\n" : jsonObject(line))
    }

    /// Sends one frame (frame mode).
    public mutating func send(_ frame: FrameDelivery) {
        guard let line = lines.line(frame) else { return }
        transmit(format == .csv ? line + "\n" : jsonObject(line))
    }

    /// The row as a JSON object keyed by the column names; empty fields are `null`.
    mutating func jsonObject(_ line: String) -> String {
        json.removeAll(keepingCapacity: true)
        json += "{"
        for (index, field) in line.split(separator: ",", omittingEmptySubsequences: false).enumerated() where index < names.count {
            if index > 0 { json += "," }
            json += "\"" + names[index] + "\":"
            // Numbers are written in Swift's shortest form; JSON has no inf/nan (the pipeline
            // produces finite values; anything else is sent as null).
            if field.isEmpty || Double(field)?.isFinite != true { json += "null" } else { json += field }
        }
        json += "}\n"
        return json
    }

    private mutating func transmit(_ datagram: String) {
        var datagram = datagram
        let clock = MonotonicClock()
        let start = clock.now()
        let result = datagram.withUTF8 { bytes in
            systemSend(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT))
        }
        costs.add(clock.now() - start)
        if result < 0 {
            failed += 1
            if firstError == nil { firstError = String(cString: strerror(errno)) }
        } else {
            sent += 1
        }
    }

    /// What was sent: datagrams sent and failed (with the first error), and the cost of each
    /// `send` call in ns.
    public var report: SendReport {
        SendReport(target: target, format: format.rawValue, sent: sent, failed: failed, firstError: firstError,
                   costNanoseconds: costs.summary())
    }
}

/// The UDP sink's figures for the replay report (JSON key `send`).
public struct SendReport: Sendable, Codable, Equatable {
    /// `udp://HOST:PORT` and `csv` or `json`.
    public var target: String
    public var format: String
    /// Datagrams sent (including the CSV header) and refused by the kernel.
    public var sent: Int
    public var failed: Int
    /// The first error (`Connection refused` when nothing listens yet), or `nil`.
    public var firstError: String?
    /// Cost of one `send` call, ns.
    public var costNanoseconds: DistributionSummary?

    enum CodingKeys: String, CodingKey {
        case target, format, sent, failed
        case firstError = "first_error"
        case costNanoseconds = "send_ns"
    }
}

/// `send(2)`, under a name that does not clash with `UDPSender.send`.
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}
