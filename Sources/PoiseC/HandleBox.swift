import CPoise

/// The memory behind an opaque C handle: a tag saying what it is, then the Swift value.
///
/// The tag comes first so that a handle of the wrong kind, or one already destroyed, can be
/// recognised before the value is touched: destroy overwrites the tag before freeing, and the
/// allocator reuses the first bytes of a freed block for its own bookkeeping. (A block reused
/// by a new handle of the same kind cannot be told apart; the header says not to rely on it.)
package struct HandleBox<Payload> {
    package var tag: UInt64
    package var payload: Payload

    package static var deadTag: UInt64 { 0xDEAD_DEAD_DEAD_DEAD }

    /// Allocates a box and returns it as an opaque pointer.
    package static func make(_ payload: Payload, tag: UInt64) -> OpaquePointer {
        let box = UnsafeMutablePointer<HandleBox>.allocate(capacity: 1)
        box.initialize(to: HandleBox(tag: tag, payload: payload))
        return OpaquePointer(box)
    }

    /// The box behind `handle`, or `POISE_ERROR_INVALID_HANDLE`.
    @inline(__always)
    package static func open(_ handle: OpaquePointer?, tag: UInt64, kind: String) throws(CError) -> UnsafeMutablePointer<HandleBox> {
        guard let handle else { throw CError(POISE_ERROR_INVALID_HANDLE, "\(kind) handle is NULL") }
        guard UnsafeRawPointer(handle).load(as: UInt64.self) == tag else {
            throw CError(POISE_ERROR_INVALID_HANDLE, "not a live \(kind) handle (destroyed, or another kind of handle)")
        }
        return UnsafeMutablePointer<HandleBox>(handle)
    }

    /// Frees the box behind `handle`; NULL is ignored.
    package static func destroy(_ handle: OpaquePointer?, tag: UInt64, kind: String) throws(CError) {
        guard handle != nil else { return }
        let box = try open(handle, tag: tag, kind: kind)
        box.pointee.tag = deadTag
        box.deinitialize(count: 1)
        box.deallocate()
    }
}

/// The tags of the handle kinds (arbitrary 64-bit values, unlikely in other memory).
enum HandleTag {
    static let filter: UInt64 = 0x504F_4953_4546_4C54     // "POISEFLT"
    static let fusion: UInt64 = 0x504F_4953_4546_5553     // "POISEFUS"
    static let tilt: UInt64 = 0x504F_4953_4554_4C54       // "POISETLT"
    static let calibration: UInt64 = 0x504F_4953_4543_414C  // "POISECAL"
}

extension HandleTag {
    static let gyro: UInt64 = 0x504F_4953_4547_5952       // "POISEGYR"
    static let flick: UInt64 = 0x504F_4953_4546_4C4B      // "POISEFLK"
}
