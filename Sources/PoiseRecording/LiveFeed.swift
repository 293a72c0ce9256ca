#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A live stream made readable like a file: the CSV reader (`RecordingReader(stream: feed,
/// name: feed.source)`) reads what arrives — bytes on standard input or a serial port, or
/// datagrams on a UDP port turned into CSV lines — in its own thread, as it arrives, with the same
/// column names, units and `file:line:column` errors as a recording file. No thread or pipe sits
/// between the socket and the parser: a row is parsed by the thread that received it.
///
/// Sources:
/// - `-`: standard input, a header line first, then rows as they come (an Arduino or a script
///   printing CSV).
/// - `serial:///dev/ttyUSB0?baud=115200`: a serial port (an Arduino printing CSV), opened in raw
///   mode (8 data bits, no parity, no flow control, no echo) at the given speed (9600–921600,
///   default 115200), a header line first, then rows as they come.
/// - `udp://:PORT` (the loopback address 127.0.0.1 only), `udp://HOST:PORT` (the address to listen
///   on; `udp://0.0.0.0:PORT` for every interface — `listeningNote` then says so): one or more lines per
///   datagram, either CSV (the first line received is the header, as `poise replay --send` sends
///   it) or flat JSON objects `{"t_s":…,"acc_x_g":…,…}` keyed by Poise column names (the keys of
///   the first object become the header; later objects may omit keys, which leaves the field
///   empty; `null` is empty).
///
/// Bad input never ends the feed: a datagram longer than `maximumDatagram` bytes, a line holding
/// a NUL byte (binary data), a line longer than `maximumLine` bytes (standard input, serial
/// port) and a line that starts with `{` but is not a flat JSON object are left out before the
/// reader sees them, counted by reason (`badInput`; `onBadInput` is told of each), and the
/// stream goes on (`StreamLines`, `DatagramLines`); rows the reader rejects are its own to
/// count. Memory is bounded: the feed holds at most one datagram's lines; when the reader falls behind,
/// the socket's receive buffer (4 MiB) fills, after which the kernel drops datagrams (counted,
/// `kernelDrops`). Nothing in a datagram is interpreted as anything but CSV or JSON values.
///
/// A live source has no end of its own: `stop()` (or the `shouldStop` condition, polled every
/// 100 ms while no data arrives) ends the feed, and the reader then sees the end of its file
/// after the last complete line. Standard input also ends at its end of file.
///
/// Arrival times: the feed stamps each read (a datagram, or what one `read` of standard input or
/// the serial port returned) with `CLOCK_MONOTONIC` as soon as the call returns;
/// `arrivalTime(throughByte:)` gives the stamp of the read that completed a row, by the row's end
/// offset in the stream of bytes given to the reader (`RecordingReader.bytesConsumed`). On a UDP
/// socket the kernel's drop counter (`SO_RXQ_OVFL`: datagrams the kernel discarded because the
/// socket's receive buffer was full) comes with every datagram; `kernelDrops` is the latest.
public final class LiveFeed: ByteStream, @unchecked Sendable {
    /// The source as given (the name in the reader's messages).
    public let source: String
    private let input: Int32
    private let isDatagram: Bool
    private let shouldStop: @Sendable () -> Bool
    private let lock = NSLock()
    private var stopped = false
    private var finished = false
    /// The lines of the last datagram not yet given to the reader.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var datagram = [UInt8](repeating: 0, count: 65536)
    private var control = [UInt8](repeating: 0, count: 256)
    private var converter = DatagramLines()
    /// Standard input and serial ports: the lines the reader may see, and what one read brings.
    private var streamLines = StreamLines(maximumLine: LiveFeed.maximumLine)
    private var chunk: [UInt8] = []
    /// Inputs left out so far, by reason (under `lock`), and the reading thread's own copy.
    private var bad = LiveBadInput()
    private var seenBad = LiveBadInput()
    /// Called (in the reading thread) each time an input is left out, with the counts so far.
    public var onBadInput: ((LiveBadInput) -> Void)?
    /// Called (in the reading thread) once when the source has been quiet for `idleDelay` after
    /// data came. The reader asks for bytes only when it has handed on every complete row, so
    /// the caller can flush what it wrote: a file being written keeps up with a stream that
    /// pauses.
    public var onIdle: (() -> Void)?
    /// How long the source is quiet before `onIdle`, ns.
    public static let idleDelay: Int64 = 100_000_000
    private var lastData: Int64 = 0
    private var idleNoted = true
    /// With `spin`: when the next datagram should come (`ArrivalPredictor`).
    private let spin: Bool
    private var predictor = ArrivalPredictor()
    private var spinNanoseconds: Int64 = 0
    /// A spin that loses the CPU (a gap of more than `preemptionGap` between two polls: the
    /// scheduler ran something else) ends at once, and spinning pauses for 1 s, doubled for each
    /// such spin in a row (at most 64 s), halved back after each spin that kept the CPU: on a
    /// busy machine a spinning thread is preempted like any busy task and may be off the CPU when
    /// its datagram comes, where a sleeping one is woken with priority.
    private var spinPausedUntil: Int64 = 0
    private var spinBackoff = 0
    private var preempted = 0
    static let preemptionGap: Int64 = 200_000
    private var received = 0
    private var dropped = 0
    private var kernelDropped = 0
    /// Reads not yet matched to a row: the stream offset just past each read's bytes and its
    /// arrival time (ns, `CLOCK_MONOTONIC`), oldest first from `arrivalHead`.
    private var arrivals: [(end: Int, time: Int64)] = []
    private var arrivalHead = 0
    /// Bytes given to the reader so far, and the end offset of the newest read forgotten
    /// because too many waited (`maximumPendingArrivals`).
    private var written = 0
    private var forgottenEnd = 0
    /// Longest datagram accepted, bytes.
    public static let maximumDatagram = 8192
    /// Longest line accepted from standard input or a serial port, bytes (line break included):
    /// far beyond any row, well below the reader's buffer (`ReadOptions.bufferSize`).
    public static let maximumLine = 65536
    /// Most reads kept waiting for their rows to be read (the oldest are forgotten beyond it, so
    /// a reader that falls far behind cannot grow memory; their rows then get no arrival time).
    public static let maximumPendingArrivals = 1 << 16
    /// For a UDP source listening beyond the loopback address, the line to tell the user.
    public let listeningNote: String?

    /// Opens the source; nothing is read until the reader reads.
    ///
    /// - Parameters:
    ///   - shouldStop: polled about every 100 ms while the reader waits for data; `true` ends
    ///     the feed.
    ///   - spin: for a UDP source, wait for a steady stream's next datagram by sleeping until
    ///     shortly before it is due and then polling without sleeping through a bounded window
    ///     around that time (`ArrivalPredictor`: at most ±500 µs and ±10 % of the period; not
    ///     for streams faster than 500 Hz), so the
    ///     reader is running when it comes instead of being woken by it. Costs CPU (about the
    ///     window's share of a core, `spinSeconds`), saves the wake-up from each sample's
    ///     latency. A spin preempted by another task pauses spinning (`preemptedSpins`; see
    ///     `preemptionGap`). Ignored for standard input and serial ports.
    /// - Throws: `RecordingError` naming the source when it cannot be opened (a bad address, a
    ///   port in use).
    public init(source: String, shouldStop: @escaping @Sendable () -> Bool = { false }, spin: Bool = false) throws {
        self.source = source
        self.shouldStop = shouldStop
        self.spin = spin
        if source == "-" {
            input = STDIN_FILENO
            isDatagram = false
            listeningNote = nil
        } else if source.hasPrefix("serial://") {
            input = try Self.openSerial(source)
            isDatagram = false
            listeningNote = nil
        } else {
            let endpoint: UDPEndpoint
            do { endpoint = try UDPEndpoint(source, allowEmptyHost: true) } catch {
                throw RecordingError(file: source, line: 0, column: 0,
                                     message: "\(error); a source is '-' (standard input), serial:///dev/DEVICE?baud=N or udp://[HOST]:PORT")
            }
            input = try Self.bind(endpoint, source: source)
            isDatagram = true
            let loopback = ["", "127.0.0.1", "::1", "localhost"].contains(endpoint.host)
            listeningNote = loopback ? nil : "listening on \(endpoint.host):\(endpoint.port): reachable from other machines on that network"
        }
    }

    deinit {
        if input != STDIN_FILENO { close(input) }
    }

    /// Datagrams (or standard-input reads) received so far, and datagrams dropped for their size.
    public var receivedCount: Int { lock.lock(); defer { lock.unlock() }; return received }
    public var droppedDatagrams: Int { lock.lock(); defer { lock.unlock() }; return dropped }
    /// Inputs left out before the reader, by reason (`oversizedDatagrams` = `droppedDatagrams`).
    public var badInput: LiveBadInput { lock.lock(); defer { lock.unlock() }; return bad }
    /// Datagrams the kernel dropped on the UDP socket because its receive buffer was full, as
    /// last reported with a received datagram (`SO_RXQ_OVFL`; 0 for other sources). Drops after
    /// the last datagram received are not known.
    public var kernelDrops: Int { lock.lock(); defer { lock.unlock() }; return kernelDropped }
    /// True for a UDP source.
    public var isDatagramSource: Bool { isDatagram }
    /// Spins that lost the CPU to another task and paused spinning (`spin`).
    public var preemptedSpins: Int { lock.lock(); defer { lock.unlock() }; return preempted }
    /// Time spent polling without sleeping for datagrams (`spin`), s.
    public var spinSeconds: Double { lock.lock(); defer { lock.unlock() }; return Double(spinNanoseconds) * 1e-9 }

    /// When the row ending just before stream offset `end` (the reader's `bytesConsumed` after
    /// returning it) arrived: the `CLOCK_MONOTONIC` time in ns of the read that brought its last
    /// byte, or `nil` when that read was forgotten. Offsets must be asked for in increasing order;
    /// earlier reads are released.
    public func arrivalTime(throughByte end: Int) -> Int64? {
        lock.lock(); defer { lock.unlock() }
        guard end > forgottenEnd else { return nil }
        while arrivalHead < arrivals.count, arrivals[arrivalHead].end < end { arrivalHead += 1 }
        if arrivalHead >= 1024 && 2 * arrivalHead >= arrivals.count {
            arrivals.removeFirst(arrivalHead)
            arrivalHead = 0
        }
        return arrivalHead < arrivals.count ? arrivals[arrivalHead].time : nil
    }

    /// Takes the line counts of `lines` (`StreamLines` or `DatagramLines`) and the datagrams
    /// dropped for their size; tells `onBadInput` when an input was left out.
    @inline(__always)
    private func noteBad(_ lines: LiveBadInput) {
        var counts = lines
        counts.oversizedDatagrams = dropped   // written by this thread only
        // Nothing new (the common case): no lock taken.
        guard counts != seenBad else { return }
        seenBad = counts
        lock.lock(); bad = counts; lock.unlock()
        onBadInput?(counts)
    }

    /// Notes a read of `count` bytes (as they go to the reader) that arrived at `time`.
    private func noteArrival(count: Int, time: Int64) {
        guard count > 0 else { return }
        lastData = time
        idleNoted = false
        lock.lock(); defer { lock.unlock() }
        written += count
        arrivals.append((written, time))
        if arrivals.count - arrivalHead > Self.maximumPendingArrivals {
            forgottenEnd = arrivals[arrivalHead].end
            arrivalHead += 1
        }
        if arrivalHead >= 1024 && 2 * arrivalHead >= arrivals.count {
            arrivals.removeFirst(arrivalHead)
            arrivalHead = 0
        }
    }

    /// `CLOCK_MONOTONIC` now, ns.
    static func monotonicNow() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Ends the feed: a reader waiting for data sees the end of the stream within about 100 ms.
    public func stop() {
        lock.lock(); stopped = true; lock.unlock()
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Baud rates a serial source accepts.
    static let baudRates: [Int: speed_t] = [
        9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
        115200: speed_t(B115200), 230400: speed_t(B230400), 460800: speed_t(B460800), 921600: speed_t(B921600),
    ]

    /// `serial://PATH[?baud=N]` → the device opened read-only, raw mode, N baud.
    static func openSerial(_ source: String) throws -> Int32 {
        func problem(_ message: String) -> RecordingError { RecordingError(file: source, line: 0, column: 0, message: message) }
        var rest = source.dropFirst("serial://".count)
        var baud = 115200
        if let query = rest.firstIndex(of: "?") {
            let parameter = rest[rest.index(after: query)...]
            guard parameter.hasPrefix("baud="), let value = Int(parameter.dropFirst("baud=".count)) else {
                throw problem("expected serial://PATH?baud=N, e.g. serial:///dev/ttyUSB0?baud=115200")
            }
            baud = value
            rest = rest[..<query]
        }
        guard let speed = baudRates[baud] else {
            throw problem("baud rate \(baud) is not one of \(baudRates.keys.sorted().map(String.init).joined(separator: ", "))")
        }
        let path = String(rest)
        guard path.hasPrefix("/") else { throw problem("expected serial://PATH with an absolute device path, e.g. serial:///dev/ttyUSB0") }
        let descriptor = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw problem("cannot open \(path): \(String(cString: strerror(errno)))") }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw problem("\(path) is not a serial port (\(reason))")
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw problem("cannot set \(path) to raw mode at \(baud) baud: \(reason)")
        }
        return descriptor
    }

    /// A bound UDP socket with a 4 MiB receive buffer; an empty host is the loopback address.
    static func bind(_ endpoint: UDPEndpoint, source: String) throws -> Int32 {
        var endpoint = endpoint
        if endpoint.host.isEmpty { endpoint.host = "127.0.0.1" }
        do {
            let descriptor = try endpoint.socket(listen: true)
            var size: Int32 = 4 << 20
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            #if os(Linux)
            var on: Int32 = 1   // the kernel's drop count with every datagram
            setsockopt(descriptor, SOL_SOCKET, Self.receiveQueueOverflow, &on, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(descriptor, SOL_SOCKET, Self.timestampNanoseconds, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return descriptor
        } catch {
            throw RecordingError(file: source, line: 0, column: 0, message: "\(error)")
        }
    }

    /// Reads what arrives, in the caller's thread (`ByteStream`): waits (polling every 100 ms for
    /// `stop()` and `shouldStop`) until the source has data, then returns it — a datagram's lines
    /// (across several calls when they exceed `count`), or what one `read` of standard input or
    /// the serial port returned. 0 at the end: stopped, standard input closed, a device gone.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard count > 0 else { return 0 }
        while true {
            if pendingStart < pending.count {
                let n = min(count, pending.count - pendingStart)
                pending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + pendingStart, byteCount: n) }
                pendingStart += n
                return n
            }
            if finished || isStopped || shouldStop() { finished = true; return 0 }
            // A datagram already queued is taken without waiting (one system call per sample
            // while the sender keeps up); otherwise, when spinning and the next datagram is
            // due, poll for it without sleeping through the window; otherwise wait for the
            // source (at most 100 ms, or until the next spin window opens).
            var (n, arrival) = isDatagram ? receive(flags: Int32(MSG_DONTWAIT)) : (-1, 0)
            var sleep: Int64 = 100_000_000
            if n < 0 && isDatagram && spin && (errno == EAGAIN || errno == EWOULDBLOCK), case let now = Self.monotonicNow(), now >= spinPausedUntil {
                switch predictor.wait(at: now) {
                case .spin(let end):
                    (n, arrival) = spinReceive(until: end, from: now)
                    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { continue }   // the window passed: sleep
                case .sleep(let until):
                    if let until { sleep = Swift.min(sleep, until - now) }
                }
            }
            if n < 0 {
                let ready = systemWaitReadable(input, nanoseconds: sleep)
                if ready < 0 && errno != EINTR { finished = true; return 0 }
                guard ready > 0 else {
                    if !idleNoted, Self.monotonicNow() - lastData >= Self.idleDelay {
                        idleNoted = true
                        onIdle?()
                    }
                    continue
                }
            }
            if !isDatagram {
                if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 1 << 16) }
                let n = chunk.withUnsafeMutableBytes { systemRead(input, $0.baseAddress!, $0.count) }
                let arrival = Self.monotonicNow()
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; finished = true; return 0 }   // EIO: the device went away
                if n == 0 {   // end of standard input: its last line, if it has no line break
                    streamLines.finish(into: &pending)
                    noteBad(streamLines.bad)
                    noteArrival(count: pending.count, time: arrival)
                    finished = true
                    continue
                }
                lock.lock(); received += 1; lock.unlock()
                chunk.withUnsafeBytes { streamLines.lines(UnsafeRawBufferPointer(rebasing: $0[..<n]), into: &pending) }
                noteBad(streamLines.bad)
                noteArrival(count: pending.count, time: arrival)
                continue
            }
            if n < 0 { (n, arrival) = receive(flags: 0) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; finished = true; return 0 }
            if n > Self.maximumDatagram {
                lock.lock(); dropped += 1; lock.unlock()
                noteBad(converter.bad)
                continue
            }
            lock.lock(); received += 1; lock.unlock()
            if spin { predictor.noteArrival(arrival) }
            pending = converter.lines(datagram[..<n])
            pendingStart = 0
            noteBad(converter.bad)
            noteArrival(count: pending.count, time: arrival)
        }
    }

    /// Receives without sleeping until a datagram comes or `end` (ns) passes; returns as
    /// `receive` (−1 with `errno` EAGAIN when none came). Adds the time to `spinNanoseconds`.
    /// A gap longer than `preemptionGap` between two polls ends the spin and pauses spinning.
    private func spinReceive(until end: Int64, from start: Int64) -> (count: Int, arrival: Int64) {
        var result = receive(flags: Int32(MSG_DONTWAIT))
        var now = start, lostTheCPU = false
        while result.count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && now < end {
            let previous = now
            now = Self.monotonicNow()
            if now - previous > Self.preemptionGap { lostTheCPU = true; break }
            result = receive(flags: Int32(MSG_DONTWAIT))
        }
        let reason = errno
        if lostTheCPU {
            spinPausedUntil = now + (Int64(1_000_000_000) << spinBackoff)
            spinBackoff = Swift.min(spinBackoff + 1, 6)
        } else if spinBackoff > 0 {
            spinBackoff -= 1
        }
        let spent = Self.monotonicNow() - start
        lock.lock(); spinNanoseconds += spent; if lostTheCPU { preempted += 1 }; lock.unlock()
        errno = reason
        return result
    }

    /// `SO_RXQ_OVFL` (Linux `asm-generic/socket.h`; not exported to Swift).
    static let receiveQueueOverflow: Int32 = 40
    /// `SO_TIMESTAMPNS` (= `SCM_TIMESTAMPNS`, Linux `asm-generic/socket.h`): the kernel's receive
    /// time of each datagram as a `timespec`.
    static let timestampNanoseconds: Int32 = 35

    /// Receives one datagram into `datagram` with `recvmsg`, noting the kernel's drop counter
    /// from its control message; returns the datagram's length (or −1, `errno` set) and the
    /// kernel's receive time on `CLOCK_MONOTONIC` (ns; now when the kernel gave none).
    private func receive(flags: Int32) -> (count: Int, arrival: Int64) {
        datagram.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    let count = recvmsg(input, &message, flags)
                    guard count >= 0 else { return (count, 0) }
                    let received = UnsafeRawBufferPointer(rebasing: controlBytes[..<Int(message.msg_controllen)])
                    if let drops = Self.dropCount(received) {
                        lock.lock(); kernelDropped = drops; lock.unlock()
                    }
                    return (count, Self.kernelReceiveTime(received).map(Self.monotonicTime(ofRealtime:)) ?? Self.monotonicNow())
                }
            }
        }
    }

    /// The `SO_RXQ_OVFL` counter (a 32-bit count) in a control-message buffer, if present.
    static func dropCount(_ control: UnsafeRawBufferPointer) -> Int? {
        controlPayload(control, type: receiveQueueOverflow, size: MemoryLayout<UInt32>.size)
            .map { Int(control.loadUnaligned(fromByteOffset: $0, as: UInt32.self)) }
    }

    /// The kernel's receive time of the datagram (`SO_TIMESTAMPNS`, `CLOCK_REALTIME`) in a
    /// control-message buffer, ns, if present.
    static func kernelReceiveTime(_ control: UnsafeRawBufferPointer) -> Int64? {
        controlPayload(control, type: timestampNanoseconds, size: MemoryLayout<timespec>.size).map {
            let time = control.loadUnaligned(fromByteOffset: $0, as: timespec.self)
            return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }
    }

    /// The offset of the payload of the first `SOL_SOCKET` control message of `type` with at
    /// least `size` bytes, if any.
    static func controlPayload(_ control: UnsafeRawBufferPointer, type: Int32, size: Int) -> Int? {
        let header = MemoryLayout<cmsghdr>.size
        let alignment = MemoryLayout<Int>.size
        func aligned(_ n: Int) -> Int { (n + alignment - 1) & ~(alignment - 1) }
        var offset = 0
        while offset + header <= control.count {
            let message = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(message.cmsg_len)
            guard length >= header, offset + length <= control.count else { return nil }
            if message.cmsg_level == SOL_SOCKET, message.cmsg_type == type, length >= aligned(header) + size {
                return offset + aligned(header)
            }
            offset += aligned(length)
        }
        return nil
    }

    /// The `CLOCK_MONOTONIC` time (ns) of a `CLOCK_REALTIME` instant `realtime` shortly before
    /// now: now minus how long ago it was (never later than now).
    static func monotonicTime(ofRealtime realtime: Int64) -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let now = monotonicNow()
        let ago = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec) - realtime
        return now - max(0, ago)
    }
}
