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
}

/// Smoother storage in the heap: one allocation per array, count × size bytes.
public final class InMemorySmootherStorage: SmootherStorage {
    public init() {}

    public func makeRecords(count: Int, size: Int, alignment: Int) -> any SmootherRecords {
        Records(count: count, size: size, alignment: alignment)
    }

    final class Records: SmootherRecords {
        let base: UnsafeMutableRawPointer
        let size: Int

        init(count: Int, size: Int, alignment: Int) {
            let bytes = max(1, count * size)
            base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: max(alignment, 16))
            base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            self.size = size
        }

        deinit { base.deallocate() }

        func record(_ index: Int, writing: Bool) -> UnsafeMutableRawPointer { base + index * size }
    }
}

/// A typed view of a `SmootherRecords` array: `count` values of a trivial type (numbers, SIMD
/// vectors and structs of them; no references), zero when made.
struct StoredValues<Element>: RandomAccessCollection {
    let records: any SmootherRecords
    let count: Int
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The heap storage's values, read and written in place (no call per access); nil for
    /// other storage.
    let base: UnsafeMutablePointer<Element>?

    init(_ storage: any SmootherStorage, count: Int) {
        records = storage.makeRecords(count: count, size: MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
        base = (records as? InMemorySmootherStorage.Records)?.base.assumingMemoryBound(to: Element.self)
        self.count = count
    }

    /// Value `index`, 0 ≤ index < count (checked in debug builds).
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "StoredValues index \(index) out of 0..<\(count)")
            if let base { return base[index] }
            return records.record(index, writing: false).load(as: Element.self)
        }
        nonmutating set {
            assert(index >= 0 && index < count, "StoredValues index \(index) out of 0..<\(count)")
            if let base { base[index] = newValue } else { records.record(index, writing: true).storeBytes(of: newValue, as: Element.self) }
        }
    }

    /// Changes value `index` with `body`: in place in the heap, else read, changed and written back.
    func update(_ index: Int, _ body: (inout Element) -> Void) {
        if let base { return body(&base[index]) }
        let record = records.record(index, writing: true)
        var value = record.load(as: Element.self)
        body(&value)
        record.storeBytes(of: value, as: Element.self)
    }
}
