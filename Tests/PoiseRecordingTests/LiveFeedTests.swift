import Foundation
import Testing
@testable import PoiseRecording
#if canImport(Glibc)
import Glibc
#endif

/// `LiveFeed` on a loopback UDP port: arrival times are the kernel's receive times of the
/// datagrams, and the kernel's drops (a full receive buffer) are counted.
@Suite struct LiveFeedTests {
    /// Both rows arrive before the reader exists and the second is read 300 ms after it arrived:
    /// its arrival time is when the datagram came (200 ms after the first row's), not when the
    /// reader took it from the socket.
    @Test func rowsCarryTheirDatagramsArrivalTime() throws {
        let (feed, port) = try Self.listeningFeed()
        defer { feed.stop() }
        let sender = try UDPTestSender(port: port)
        sender.send("t_s,acc_x_g,acc_y_g,acc_z_g")
        sender.send("0,0,0,1")
        Self.sleep(milliseconds: 200)
        sender.send("0.01,0,0,1")
        Self.sleep(milliseconds: 50)
        let reader = try RecordingReader(stream: feed, name: feed.source, options: ReadOptions(strict: false))
        _ = try #require(try reader.next())
        let first = try #require(feed.arrivalTime(throughByte: reader.bytesConsumed))
        Self.sleep(milliseconds: 300)
        _ = try #require(try reader.next())
        let second = try #require(feed.arrivalTime(throughByte: reader.bytesConsumed))
        let readAt = LiveFeed.monotonicNow()
        // Sent 200 ms apart: at least 100 ms between the kernel's stamps; the upper bound only
        // catches a stamp that is not a monotonic time (a loaded machine delays the sender by seconds).
        #expect(second - first >= 100_000_000 && second - first < 10_000_000_000, "\(second - first) ns between arrivals")
        #expect(readAt - second >= 290_000_000, "stamped at arrival, \(readAt - second) ns before it was read")
        #expect(feed.kernelDrops == 0)
    }

    /// A socket with receive timestamps on (`SO_TIMESTAMPNS`, as `LiveFeed` sets), open for the
    /// whole test process. Linux turns receive timestamping on for the first such socket from a
    /// deferred work item, so a datagram that arrives before that work has run is stamped when it
    /// is read instead (this made the arrival-time test fail under load); with this socket open
    /// and the work done, each feed's timestamps are on at once.
    static let timestampingOn: Bool = {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var on: Int32 = 1
        let set = setsockopt(descriptor, SOL_SOCKET, 35, &on, socklen_t(MemoryLayout<Int32>.size))
        sleep(milliseconds: 300)
        return descriptor >= 0 && set == 0
    }()

    /// Sleeps at least `milliseconds` on `CLOCK_MONOTONIC`, to an absolute deadline (`usleep`
    /// returns early when a signal arrives).
    static func sleep(milliseconds: Int) {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + milliseconds * 1_000_000
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }

    /// A flood while nothing reads the feed fills the socket's receive buffer; every datagram
    /// sent is either received or counted as dropped by the kernel.
    @Test func kernelDropsAreCounted() throws {
        let (feed, port) = try Self.listeningFeed()
        defer { feed.stop() }
        let sender = try UDPTestSender(port: port)
        sender.send("t_s,acc_x_g,acc_y_g,acc_z_g")
        let row = "0.01,0,0,1," + String(repeating: "0", count: 1300)   // a long (malformed) row
        var sent = 1
        for _ in 0 ..< 20_000 { if sender.send(row) { sent += 1 } }
        // Nothing read the socket while 20,000 datagrams of 1.3 KB (26 MB, beyond its 8 MB
        // buffer) were sent: the kernel dropped some, certainly. Drain it, and keep sending one
        // more datagram (which brings the kernel's latest count) until every datagram sent is
        // accounted for, or a deadline far beyond what a loaded machine needs.
        let drain = Thread {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 8)
            while feed.read(into: buffer, count: 1 << 16) > 0 {}
            buffer.deallocate()
        }
        drain.start()
        let deadline = LiveFeed.monotonicNow() + 120_000_000_000
        while feed.receivedCount + feed.kernelDrops != sent, LiveFeed.monotonicNow() < deadline {
            if sender.send("0.02,0,0,1") { sent += 1 }
            Self.sleep(milliseconds: 100)
        }
        #expect(feed.kernelDrops > 0)
        #expect(feed.receivedCount + feed.kernelDrops == sent, "received \(feed.receivedCount), dropped \(feed.kernelDrops), sent \(sent)")
        feed.stop()
        Self.sleep(milliseconds: 200)
    }

    /// The drop counter is read from `SO_RXQ_OVFL` control messages, skipping others; the
    /// receive time from `SO_TIMESTAMPNS`.
    @Test func dropCountIsFoundAmongControlMessages() {
        let header = MemoryLayout<cmsghdr>.size
        var bytes = [UInt8](repeating: 0, count: 2 * (header + 8))
        func message(level: Int32, type: Int32) -> cmsghdr {
            var message = cmsghdr()
            message.cmsg_len = header + 4
            message.cmsg_level = level
            message.cmsg_type = type
            return message
        }
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: message(level: SOL_SOCKET, type: 29), toByteOffset: 0, as: cmsghdr.self)   // SO_TIMESTAMP
            raw.storeBytes(of: message(level: SOL_SOCKET, type: LiveFeed.receiveQueueOverflow), toByteOffset: header + 8, as: cmsghdr.self)
            raw.storeBytes(of: UInt32(1234), toByteOffset: 2 * header + 8, as: UInt32.self)
        }
        #expect(bytes.withUnsafeBytes { LiveFeed.dropCount($0) } == 1234)
        #expect(bytes.withUnsafeBytes { LiveFeed.dropCount(UnsafeRawBufferPointer(rebasing: $0[..<(header + 8)])) } == nil)
        #expect([UInt8]().withUnsafeBytes { LiveFeed.dropCount($0) } == nil)
        #expect(bytes.withUnsafeBytes { LiveFeed.kernelReceiveTime($0) } == nil)
        var stamped = [UInt8](repeating: 0, count: header + 16)
        stamped.withUnsafeMutableBytes { raw in
            var stamp = message(level: SOL_SOCKET, type: LiveFeed.timestampNanoseconds)
            stamp.cmsg_len = header + 16
            raw.storeBytes(of: stamp, toByteOffset: 0, as: cmsghdr.self)
            raw.storeBytes(of: timespec(tv_sec: 12, tv_nsec: 345), toByteOffset: header, as: timespec.self)
        }
        #expect(stamped.withUnsafeBytes { LiveFeed.kernelReceiveTime($0) } == 12_000_000_345)
    }

    /// A steady 200 Hz stream read with and without spinning: every row arrives either way;
    /// only the spinning feed polls without sleeping, and only for a share of the time.
    @Test(arguments: [true, false])
    func spinningReadsASteadyStreamAndCountsItsTime(spin: Bool) throws {
        let (feed, port) = try Self.listeningFeed(spin: spin)
        defer { feed.stop() }
        let sender = try UDPTestSender(port: port)
        let count = 100
        let paced = Thread {
            sender.send("t_s,acc_x_g,acc_y_g,acc_z_g")
            let start = LiveFeed.monotonicNow()
            for i in 0 ..< count {
                let due = start + Int64(i) * 5_000_000
                let wait = due - LiveFeed.monotonicNow()
                if wait > 0 { usleep(UInt32(wait / 1000)) }
                sender.send("\(Double(i) / 200),0,0,1")
            }
        }
        let started = LiveFeed.monotonicNow()
        paced.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { feed.stop() }   // the test ends even if rows are lost
        // The reader reads the header when it is made, so after the sender started.
        let reader = try RecordingReader(stream: feed, name: feed.source, options: ReadOptions(strict: false))
        var rows = 0
        while rows < count, LiveFeed.monotonicNow() - started < 5_000_000_000, try reader.next() != nil { rows += 1 }
        let elapsed = Double(LiveFeed.monotonicNow() - started) * 1e-9
        #expect(rows == count)
        if spin {
            #expect(feed.spinSeconds > 0)
            #expect(feed.spinSeconds < 0.5 * elapsed, "spun \(feed.spinSeconds) s of \(elapsed) s")
        } else {
            #expect(feed.spinSeconds == 0)
        }
    }

    /// A feed listening on a free loopback port.
    static func listeningFeed(spin: Bool = false) throws -> (LiveFeed, UInt16) {
        _ = timestampingOn
        for _ in 0 ..< 20 {
            let port = UInt16.random(in: 20_000 ... 60_000)
            if let feed = try? LiveFeed(source: "udp://127.0.0.1:\(port)", spin: spin) { return (feed, port) }
        }
        throw RecordingError(file: "udp", line: 0, column: 0, message: "no free port")
    }
}
