#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// POSIX calls under names that do not clash with the reader's and writer's own methods.

/// `read(2)`.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// `write(2)`.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `close(2)`.
@discardableResult
func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

/// The text of the current `errno`.
func systemErrorText() -> String {
    String(cString: strerror(errno))
}

/// Waits until `descriptor` is readable or `nanoseconds` have passed, with microsecond
/// resolution (`select`; `poll`, in whole milliseconds rounded up, for a descriptor beyond
/// `FD_SETSIZE`). Returns `poll`'s result: > 0 readable, 0 timed out, < 0 an error (`errno`).
func systemWaitReadable(_ descriptor: Int32, nanoseconds: Int64) -> Int32 {
    let wait = max(0, nanoseconds)
    guard descriptor >= 0, descriptor < Int32(MemoryLayout<fd_set>.size * 8) else {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, Int32(min((wait + 999_999) / 1_000_000, Int64(Int32.max))))
    }
    var set = fd_set()
    withUnsafeMutableBytes(of: &set) { bytes in
        bytes[Int(descriptor) / 8] |= UInt8(1) << UInt8(descriptor % 8)
    }
    var timeout = timeval(tv_sec: Int(wait / 1_000_000_000), tv_usec: Int(wait % 1_000_000_000 / 1000))
    return select(descriptor + 1, &set, nil, nil, &timeout)
}
