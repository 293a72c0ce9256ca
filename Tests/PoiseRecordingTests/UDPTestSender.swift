import Foundation
import PoiseRecording
#if canImport(Glibc)
import Glibc
#endif

/// Sends datagrams to 127.0.0.1:port.
struct UDPTestSender {
    let descriptor: Int32
    var address = sockaddr_in()

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw RecordingError(file: "udp", line: 0, column: 0, message: "no socket") }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
    }

    /// Sends `text` as one datagram; true when the kernel took it.
    @discardableResult
    func send(_ text: String) -> Bool {
        var address = address
        let sent = text.withCString { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes, strlen(bytes), 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent > 0
    }
}
