import CPoise
import Poise

/// A failure of a C entry point: a status code and a message for the host.
package struct CError: Error {
    package var status: poise_status
    package var message: String

    package init(_ status: poise_status, _ message: String) {
        self.status = status
        self.message = message
    }

    package static func null(_ name: String) -> CError { CError(POISE_ERROR_NULL_ARGUMENT, "\(name) is NULL") }
    package static func invalid(_ message: String) -> CError { CError(POISE_ERROR_INVALID_ARGUMENT, message) }
}

/// Writes the outcome into the caller's `poise_error` (when given) and returns the status code.
@inline(__always)
package func report(_ error: UnsafeMutablePointer<poise_error>?, _ failure: CError?) -> poise_status {
    guard let failure else {
        if let error { error.pointee.code = 0; error.pointee.message.0 = 0 }
        return POISE_OK
    }
    if let error { write(failure, to: error) }
    return failure.status
}

/// Runs `body`, reporting a thrown `CError` (or success) to `error`.
@inline(__always)
package func guarded(_ destination: UnsafeMutablePointer<poise_error>?, _ body: () throws(CError) -> Void) -> poise_status {
    do {
        try body()
        return report(destination, nil)
    } catch {
        return report(destination, error)
    }
}

/// Copies the message, truncated at a UTF-8 character boundary to fit with its NUL.
package func write(_ failure: CError, to error: UnsafeMutablePointer<poise_error>) {
    error.pointee.code = Int32(failure.status.rawValue)
    withUnsafeMutableBytes(of: &error.pointee.message) { bytes in
        _ = copyCString(failure.message, into: bytes)
    }
}

/// Copies `text` into `bytes` as a NUL-terminated string, cut at a character boundary when it
/// does not fit; returns false when it was cut.
@discardableResult
package func copyCString(_ text: String, into bytes: UnsafeMutableRawBufferPointer) -> Bool {
    guard bytes.count > 0 else { return false }
    var utf8 = Array(text.utf8)
    let fits = utf8.count < bytes.count
    if !fits {
        var end = bytes.count - 1
        // Do not split a multi-byte character: back up over continuation bytes.
        while end > 0 && (utf8[end] & 0xC0) == 0x80 { end -= 1 }
        utf8.removeSubrange(end...)
    }
    for (index, byte) in utf8.enumerated() { bytes[index] = byte }
    bytes[utf8.count] = 0
    return fits
}

/// Checks a numeric argument against the range the CLI also uses (`ParameterRange`, the one
/// source of the limits), naming the argument.
package func requireInRange(_ value: Double, _ range: ParameterRange, _ name: String) throws(CError) {
    if let problem = range.problem(name, value) { throw .invalid(problem) }
}

/// Reads a C string argument.
package func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(CError) -> String {
    guard let pointer else { throw .null(name) }
    return String(cString: pointer)
}

/// A `size_t` argument (imported as `Int`) as the caller wrote it: SIZE_MAX is
/// 18446744073709551615, not -1.
package func sizeText(_ value: Int) -> String { String(UInt(bitPattern: value)) }

/// Checks an N x `width` buffer argument: non-NULL unless empty, and N x width not overflowing.
package func elementCount(_ count: Int, width: Int, _ name: String) throws(CError) -> Int {
    let (total, overflow) = count.multipliedReportingOverflow(by: width)
    guard count >= 0, !overflow, total <= Int.max / 8 else {
        throw .invalid("\(name): count \(sizeText(count)) is too large")
    }
    return total
}
