#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the offline estimators (`DeviceMotionSmoother`, `OfflineVQF`) keep the values they write
/// per sample in one pass and read back in a later one (forward or backward): arrays of
/// fixed-size records, all bytes zero when made.
///
/// `InMemorySmootherStorage` keeps them in the heap (the default; an embedder's choice for short
/// recordings). A caller that smooths recordings longer than it wants in memory provides
/// storage that keeps them elsewhere, such as `poise`'s temporary files read and written in
/// blocks (`SmootherFileStorage` in PoiseRun): the estimators visit each array in order (forward
/// or backward), so a few buffered blocks per array are enough.
public protocol SmootherStorage: AnyObject {
    /// A new array of `count` records of `size` bytes each, every byte zero; the pointers it
    /// hands out are aligned to `alignment` bytes (a power of two, at most 64).
    func makeRecords(count: Int, size: Int, alignment: Int) -> any SmootherRecords
}

/// One array of fixed-size records of a `SmootherStorage`.
public protocol SmootherRecords: AnyObject {
    /// The bytes of record `index` (0 ≤ index < count), valid until the next call on this array;
    /// `writing`: the caller changes them (they are kept).
    func record(_ index: Int, writing: Bool) -> UnsafeMutableRawPointer
    /// The records held together with record `index` (0 ≤ index < count): their indices (record
    /// `index` among them) and the bytes of the first, the others following it `size` bytes
    /// apart; valid until the next call on this array, `writing` as for `record` (for every one
    /// of them). The default: record `index` alone. A storage that buffers blocks returns the
    /// block, so that its values are read and written without a call each.
    func records(around index: Int, writing: Bool) -> (indices: Range<Int>, bytes: UnsafeMutableRawPointer)
}

extension SmootherRecords {
    public func records(around index: Int, writing: Bool) -> (indices: Range<Int>, bytes: UnsafeMutableRawPointer) {
        (index..<index + 1, record(index, writing: writing))
    }
}

/// Smoother storage in the heap: one allocation per array, count × size bytes (on Linux, arrays
/// of 2 MB or more are mapped from the kernel instead, on huge pages where it allows).
public final class InMemorySmootherStorage: SmootherStorage {
    public init() {}

    public func makeRecords(count: Int, size: Int, alignment: Int) -> any SmootherRecords {
        Records(count: count, size: size, alignment: alignment)
    }

    final class Records: SmootherRecords {
        let base: UnsafeMutableRawPointer
        let size: Int
        /// The mapping `base` lies in (Linux, arrays of at least a huge page), else nil.
        let mapping: (address: UnsafeMutableRawPointer, bytes: Int)?

        init(count: Int, size: Int, alignment: Int) {
            let bytes = max(1, count * size)
            self.size = size
            #if os(Linux)
            // An array of a huge page (2 MB) or more is mapped from the kernel, which hands out
            // its pages zeroed when first touched (no pass to zero it; pages never touched cost
            // nothing), on huge pages when it may: a page fault per 2 MB instead of per 4 KB
            // (the arrays of a long recording are hundreds of MB).
            let hugePage = 2 << 20
            if bytes >= hugePage {
                let mapped = bytes + hugePage
                if let address = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                   address != MAP_FAILED {
                    let aligned = (Int(bitPattern: address) + hugePage - 1) / hugePage * hugePage
                    base = UnsafeMutableRawPointer(bitPattern: aligned)!
                    _ = madvise(base, bytes / hugePage * hugePage, MADV_HUGEPAGE)
                    mapping = (address, mapped)
                    return
                }
            }
            #endif
            base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: max(alignment, 16))
            base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            mapping = nil
        }

        deinit {
            #if os(Linux)
            if let mapping {
                munmap(mapping.address, mapping.bytes)
                return
            }
            #endif
            base.deallocate()
        }

        func record(_ index: Int, writing: Bool) -> UnsafeMutableRawPointer { base + index * size }
    }
}

/// A typed view of a `SmootherRecords` array: `count` values of a trivial type (numbers, SIMD
/// vectors and structs of them; no references), zero when made.
///
/// Other storage than the heap's is read through the run of records its last call returned
/// (`SmootherRecords.records(around:writing:)`, kept in `window`, which every copy of this
/// view shares): a value inside it costs no call.
struct StoredValues<Element>: RandomAccessCollection {
    let records: any SmootherRecords
    let count: Int
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The heap storage's values, read and written in place (no call per access); nil for
    /// other storage.
    let base: UnsafeMutablePointer<Element>?

    let owner: StoredValuesWindow?
    let window: UnsafeMutablePointer<StoredValuesWindow.Window>?

    init(_ storage: any SmootherStorage, count: Int) {
        records = storage.makeRecords(count: count, size: MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
        base = (records as? InMemorySmootherStorage.Records)?.base.assumingMemoryBound(to: Element.self)
        owner = base == nil ? StoredValuesWindow() : nil
        window = owner?.window
        self.count = count
    }

    /// The address of value `index` in other storage than the heap's, through the window.
    @inline(__always)
    func address(_ index: Int, writing: Bool) -> UnsafeMutablePointer<Element> {
        let w = window.unsafelyUnwrapped
        if index >= w.pointee.first && index < w.pointee.end && (!writing || w.pointee.writable), let bytes = w.pointee.bytes {
            return bytes.assumingMemoryBound(to: Element.self) + (index - w.pointee.first)
        }
        let run = records.records(around: index, writing: writing)
        w.pointee = StoredValuesWindow.Window(first: run.indices.lowerBound, end: run.indices.upperBound, bytes: run.bytes, writable: writing)
        return run.bytes.assumingMemoryBound(to: Element.self) + (index - run.indices.lowerBound)
    }

    /// Value `index`, 0 ≤ index < count (checked in debug builds).
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "StoredValues index \(index) out of 0..<\(count)")
            if let base { return base[index] }
            return address(index, writing: false).pointee
        }
        nonmutating set {
            assert(index >= 0 && index < count, "StoredValues index \(index) out of 0..<\(count)")
            if let base { base[index] = newValue } else { address(index, writing: true).pointee = newValue }
        }
    }

    /// Changes value `index` with `body`: in place in the heap, else in the window.
    func update(_ index: Int, _ body: (inout Element) -> Void) {
        if let base { return body(&base[index]) }
        body(&address(index, writing: true).pointee)
    }
}

/// The run of records a `StoredValues` over other storage than the heap's last received
/// (`SmootherRecords.records(around:writing:)`), shared by its copies; kept behind a pointer so
/// that reading it takes no exclusivity check per access.
final class StoredValuesWindow {
    struct Window {
        var first = 0, end = 0
        var bytes: UnsafeMutableRawPointer?
        /// Whether it was asked for with `writing`.
        var writable = false
    }

    let window = UnsafeMutablePointer<Window>.allocate(capacity: 1)

    init() { window.initialize(to: Window()) }

    deinit {
        window.deinitialize(count: 1)
        window.deallocate()
    }
}
