import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The app under test in the replay suite's sending check: a UDP socket on 127.0.0.1 (a free
/// port) whose thread counts the datagrams that arrive until `stop()`.
final class LoopbackReceiver: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var received = 0
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init?() {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { close(descriptor); return nil }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in receive() }
        thread.start()
    }

    /// Datagrams received so far.
    var count: Int { lock.lock(); defer { lock.unlock() }; return received }

    /// Stops the thread (within 100 ms) and closes the socket.
    func stop() {
        lock.lock(); stopped = true; lock.unlock()
        done.wait()
        close(descriptor)
    }

    private func receive() {
        defer { done.signal() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            lock.lock(); let finished = stopped; lock.unlock()
            if finished { return }
            let length = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if length >= 0 { lock.lock(); received += 1; lock.unlock() }
        }
    }
}
