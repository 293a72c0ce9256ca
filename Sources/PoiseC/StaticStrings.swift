import CPoise

/// NUL-terminated strings that live for the whole process (returned by name/version calls).
enum StaticStrings {
    nonisolated(unsafe) static let version = make(POISE_VERSION)
    nonisolated(unsafe) static let statusNames: [UnsafePointer<CChar>] = [
        "POISE_OK", "POISE_ERROR_NULL_ARGUMENT", "POISE_ERROR_INVALID_ARGUMENT", "POISE_ERROR_NON_FINITE",
        "POISE_ERROR_PARSE", "POISE_ERROR_INVALID_HANDLE", "POISE_ERROR_STATE", "POISE_ERROR_BUFFER_TOO_SMALL",
    ].map(make)
    nonisolated(unsafe) static let unknownStatus = make("POISE_ERROR_UNKNOWN")

    /// A copy of `text` that is never freed.
    static func make(_ text: String) -> UnsafePointer<CChar> {
        let utf8 = Array(text.utf8)
        let memory = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { memory[index] = CChar(bitPattern: byte) }
        memory[utf8.count] = 0
        return UnsafePointer(memory)
    }
}

@_cdecl("poise_status_name")
public func cStatusName(_ status: Int32) -> UnsafePointer<CChar> {
    status >= 0 && Int(status) < StaticStrings.statusNames.count ? StaticStrings.statusNames[Int(status)] : StaticStrings.unknownStatus
}

@_cdecl("poise_version")
public func cVersion() -> UnsafePointer<CChar> { StaticStrings.version }

@_cdecl("poise_api_version")
public func cAPIVersion() -> Int32 { Int32(POISE_API_VERSION) }
