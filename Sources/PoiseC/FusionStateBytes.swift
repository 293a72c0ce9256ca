import CPoise
import Poise

/// The byte form of a fusion estimator's state: a header, the configuration, and the state with
/// the last sample's outputs (so `poise_fusion_get_motion` after a restore reports what it did
/// at the save), as their in-memory representation (all plain values: numbers, flags and
/// enums, no references), followed by a checksum.
///
/// Layout (little-endian host order): 8-byte magic "POISEFS1", UInt32 size of the
/// configuration, UInt32 size of the saved state (`Saved`), the configuration bytes, the saved
/// state bytes, UInt64 FNV-1a of everything before it. Restoring checks all of it and compares the configuration
/// with the estimator's, so bytes from another build (other sizes), another configuration or a
/// corrupted copy are refused. Not a portable file format (`DeviceMotionEstimator.State` is
/// `Codable` for that).
enum FusionStateBytes {
    /// What is saved besides the configuration: the estimation's state and the last sample's
    /// inputs and flags (outputs, kept by the estimator apart from its state).
    struct Saved {
        var state: DeviceMotionEstimator.State
        var lastSample: DeviceMotionEstimator.LastSample

        init(_ estimator: DeviceMotionEstimator) {
            state = estimator.state
            lastSample = estimator.lastSample
        }
    }

    static let magic: UInt64 = 0x3153_4645_5349_4F50   // "POISEFS1" read as little-endian
    static let headerSize = 16
    static var configurationSize: Int { MemoryLayout<DeviceMotionConfiguration>.size }
    static var stateSize: Int { MemoryLayout<Saved>.size }
    static var size: Int { headerSize + configurationSize + stateSize + 8 }
    /// Whether the two types hold no references (so their bytes are their value).
    static var isPlain: Bool { _isPOD(Saved.self) && _isPOD(DeviceMotionConfiguration.self) }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    static func save(_ estimator: DeviceMotionEstimator, into buffer: UnsafeMutableRawBufferPointer) throws(CError) -> Int {
        guard isPlain else { throw CError(POISE_ERROR_STATE, "this build cannot save the state as bytes") }
        guard buffer.count >= size else {
            throw CError(POISE_ERROR_BUFFER_TOO_SMALL, "the state needs \(size) bytes (poise_fusion_state_size()), capacity is \(buffer.count)")
        }
        // Zero first so that the bytes between the parts are defined. (Padding inside the
        // configuration and the state is copied as it is in memory, so two saves of equal
        // states may differ there; restore compares values, not bytes.)
        for index in 0..<size { buffer[index] = 0 }
        buffer.storeBytes(of: magic, toByteOffset: 0, as: UInt64.self)
        buffer.storeBytes(of: UInt32(configurationSize), toByteOffset: 8, as: UInt32.self)
        buffer.storeBytes(of: UInt32(stateSize), toByteOffset: 12, as: UInt32.self)
        var configuration = estimator.configuration
        withUnsafeBytes(of: &configuration) { copy($0, to: buffer, at: headerSize) }
        var saved = Saved(estimator)
        withUnsafeBytes(of: &saved) { copy($0, to: buffer, at: headerSize + configurationSize) }
        let body = size - 8
        buffer.storeBytes(of: checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<body])), toByteOffset: body, as: UInt64.self)
        return size
    }

    static func restore(_ bytes: UnsafeRawBufferPointer, into estimator: inout DeviceMotionEstimator) throws(CError) {
        guard isPlain else { throw CError(POISE_ERROR_STATE, "this build cannot restore the state from bytes") }
        guard bytes.count == size else {
            throw CError(POISE_ERROR_STATE, "state bytes must be \(size) long (poise_fusion_state_size()), got \(bytes.count)")
        }
        guard bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self) == magic else {
            throw CError(POISE_ERROR_STATE, "not saved by poise_fusion_save_state (wrong magic)")
        }
        guard bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == UInt32(configurationSize),
              bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == UInt32(stateSize) else {
            throw CError(POISE_ERROR_STATE, "saved by another build of the library (different state layout)")
        }
        let body = size - 8
        guard bytes.loadUnaligned(fromByteOffset: body, as: UInt64.self) == checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<body])) else {
            throw CError(POISE_ERROR_STATE, "state bytes are corrupted (checksum mismatch)")
        }
        var configuration = DeviceMotionConfiguration()
        withUnsafeMutableBytes(of: &configuration) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[headerSize..<(headerSize + configurationSize)])) }
        guard configuration == estimator.configuration else {
            throw CError(POISE_ERROR_STATE, "the state was saved by an estimator with another configuration")
        }
        var saved = Saved(estimator)
        withUnsafeMutableBytes(of: &saved) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(headerSize + configurationSize)..<body])) }
        estimator.state = saved.state
        estimator.lastSample = saved.lastSample
    }

    private static func copy(_ source: UnsafeRawBufferPointer, to buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + source.count)]).copyMemory(from: source)
    }
}

@_cdecl("poise_fusion_state_size")
public func cFusionStateSize() -> Int { FusionStateBytes.size }

@_cdecl("poise_fusion_save_state")
public func cFusionSaveState(_ handle: OpaquePointer?, _ buffer: UnsafeMutableRawPointer?, _ capacity: Int,
                             _ written: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let buffer else { throw .null("buffer") }
        guard capacity >= 0 else { throw .invalid("capacity \(sizeText(capacity)) is too large") }
        let size = try FusionStateBytes.save(box.pointee.payload.estimator, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
        written?.pointee = size
    }
}

@_cdecl("poise_fusion_restore_state")
public func cFusionRestoreState(_ handle: OpaquePointer?, _ buffer: UnsafeRawPointer?, _ size: Int,
                                _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let box = try FusionHandle.open(handle)
        guard let buffer else { throw .null("buffer") }
        guard size >= 0 else { throw .invalid("size \(sizeText(size)) is too large") }
        try FusionStateBytes.restore(UnsafeRawBufferPointer(start: buffer, count: size), into: &box.pointee.payload.estimator)
    }
}
