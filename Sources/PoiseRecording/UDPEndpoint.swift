#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `udp://HOST:PORT` address and the socket for it: connected to send to it, or bound to
/// listen on it. HOST is a name, an IPv4 address or an IPv6 address in brackets; when listening
/// it may be empty (`udp://:9000`: every interface).
public struct UDPEndpoint: Sendable, Equatable {
    public var host: String
    public var port: UInt16

    /// Why an address or a socket did not work, in plain words.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `udp://HOST:PORT`; `allowEmptyHost` for an address to listen on.
    public init(_ text: String, allowEmptyHost: Bool) throws(Problem) {
        let usage = Problem(description: allowEmptyHost ? "expected udp://:PORT or udp://HOST:PORT to listen on (port 1–65535)"
                                                          : "expected udp://HOST:PORT, e.g. udp://127.0.0.1:9000 (port 1–65535)")
        guard text.hasPrefix("udp://") else { throw usage }
        let rest = text.dropFirst("udp://".count)
        var host: Substring, portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else { throw usage }
            host = rest[rest.index(after: rest.startIndex) ..< close]
            portText = rest[rest.index(close, offsetBy: 2)...]
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw usage }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard allowEmptyHost || !host.isEmpty, let port = UInt16(portText), port > 0 else { throw usage }
        self.host = String(host)
        self.port = port
    }

    /// A UDP socket connected to this address (`listen` false) or bound to it (`listen` true).
    ///
    /// - Throws: `Problem` when the host does not resolve or no socket can be opened, connected
    ///   or bound (the port is in use).
    public func socket(listen: Bool) throws(Problem) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = listen ? AI_PASSIVE : 0
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        #else
        hints.ai_socktype = SOCK_DGRAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Problem(description: "cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var problem = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = systemSocket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else { problem = String(cString: strerror(errno)); continue }
            let done = listen ? bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
                              : connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if done == 0 { return descriptor }
            problem = String(cString: strerror(errno))
            close(descriptor)
        }
        throw Problem(description: listen ? "cannot listen on port \(port): \(problem)" : "cannot open a UDP socket: \(problem)")
    }
}

/// `socket(2)`, under a name that does not clash with `UDPEndpoint.socket`.
private func systemSocket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
    socket(family, type, proto)
}
