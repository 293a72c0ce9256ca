import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket bound to an ephemeral port on 127.0.0.1 with a receive buffer large enough for
/// a short replay.
final class UDPReceiver {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(descriptor >= 0)
        var size: Int32 = 4 << 20
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// Every datagram waiting, in order.
    func drain() -> [String] {
        var datagrams: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count <= 0 { return datagrams }
            datagrams.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }
}

/// `poise replay --send udp://…`: every processed sample reaches a UDP receiver, in the output
/// CSV's columns (csv) or as JSON objects keyed by them (json), and the report counts them.
@Suite struct ReplaySendTests {
    @Test func csvDatagramsAreTheOutputFilesLines() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 150, rate: 100)
        let out = scratch.path("out.csv")
        let receiver = try UDPReceiver()
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", "lowpass:cutoff=5 | gravity",
                                           "--out", out, "--send", "udp://127.0.0.1:\(receiver.port)", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let datagrams = receiver.drain()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { String($0) + "\n" }
        #expect(datagrams.count == 151)
        #expect(datagrams == lines, "the header datagram, then one row per sample, as in --out")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let send = try #require(report["send"] as? [String: Any])
        #expect(send["sent"] as? Int == 151)
        #expect(send["failed"] as? Int == 0)
    }

    @Test func jsonDatagramsAreObjectsKeyedByTheColumns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 80, rate: 50)
        let out = scratch.path("out.csv")
        let receiver = try UDPReceiver()
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", "adaptive", "--out", out,
                                           "--send", "udp://127.0.0.1:\(receiver.port)", "--send-format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let datagrams = receiver.drain()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(datagrams.count == lines.count - 1)
        for (datagram, line) in zip(datagrams, lines.dropFirst()) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(datagram.utf8)) as? [String: Any])
            #expect(object.keys.sorted() == header.sorted())
            // Each value is the CSV field's text (JSONSerialization's own number parsing is not
            // exact, so the text is compared).
            for (name, field) in zip(header, line.split(separator: ",", omittingEmptySubsequences: false)) {
                #expect(datagram.contains("\"\(name)\":\(field.isEmpty ? "null" : String(field))"), "\(name)")
            }
        }
        #expect(result.stdout.contains("sent            80 json datagrams"))
    }

    @Test(arguments: ["127.0.0.1:9000", "udp://127.0.0.1", "udp://:9000", "udp://127.0.0.1:0", "udp://127.0.0.1:70000",
                      "udp://no-such-host.invalid:9000"])
    func badTargetsAreRefusedBeforeAnythingRuns(target: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 20, rate: 100)
        let result = try PoiseProcess.run(["replay", input, "--speed", "max", "--send", target])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--send \(target)"), "\(result.stderr)")
    }
}
