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
