// A game loop fed by `poise replay --send udp://127.0.0.1:9000` (or `poise live … --send`):
// every frame, read every datagram that arrived since the last frame and keep only the newest
// sample, then use it (here: print it). Copy the `SampleReceiver` type into a game.
//
//   swift run ExampleUDPReceiver 9000 120      # listen on 127.0.0.1:9000 for 120 frames at 60 Hz
//   poise replay data/phone-tilt-steer-100hz.csv --pipeline "fusion:6d | tilt" --send udp://127.0.0.1:9000
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives Poise's CSV datagrams (a header, then one row per sample) on a non-blocking UDP socket
/// bound to the loopback address, and hands the game the newest sample per frame.
final class SampleReceiver {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 8192)
    /// Column names from the header datagram.
    private(set) var columns: [String] = []
    /// Samples received in all.
    private(set) var received = 0

    init(port: UInt16) {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0, "cannot listen on 127.0.0.1:\(port)")
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// Reads everything waiting and returns the newest sample as column name → value, or `nil`
    /// when nothing arrived since the last call (the game keeps its previous state).
    func newest() -> [String: Double]? {
        var latest: [String: Double]?
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count <= 0 { return latest }
            let line = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if Double(fields.first ?? "") == nil {
                columns = fields   // the header datagram
                continue
            }
            received += 1
            var sample: [String: Double] = [:]
            for (name, field) in zip(columns, fields) { if let value = Double(field) { sample[name] = value } }
            latest = sample
        }
    }
}

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? UInt16(arguments[1]) ?? 9000 : 9000
let frames = arguments.count > 2 ? Int(arguments[2]) ?? 120 : 120
let receiver = SampleReceiver(port: port)
print("listening on 127.0.0.1:\(port), \(frames) frames at 60 Hz")
var next = timespec()
clock_gettime(CLOCK_MONOTONIC, &next)
for frame in 1 ... frames {
    // Frame deadlines from an absolute clock (a plain sleep per frame would drift).
    next.tv_nsec += 16_666_667
    if next.tv_nsec >= 1_000_000_000 { next.tv_nsec -= 1_000_000_000; next.tv_sec += 1 }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil)
    if let sample = receiver.newest() {
        let time = sample["t_s"] ?? .nan
        let shown = ["axis_x", "axis_y", "acc_x_g", "acc_y_g", "acc_z_g"].compactMap { name in sample[name].map { "\(name) \($0)" } }
        print("frame \(frame)  t_s \(time)  " + shown.prefix(2).joined(separator: "  "))
    }
}
print("received \(receiver.received) samples")
