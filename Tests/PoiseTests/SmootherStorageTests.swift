import Testing
@testable import Poise

/// `InMemorySmootherStorage`: arrays zero when made and kept as written, below and above the
/// 2-MB size from which they are mapped from the kernel (Linux) instead of allocated and zeroed.
@Suite struct SmootherStorageTests {
    @Test(arguments: [1_000, 1 << 18, (3 << 20) / 32 + 5])
    func arraysAreZeroWhenMadeAndKeepWhatIsWritten(count: Int) {
        let storage = InMemorySmootherStorage()
        // Twice: the second array may reuse the first's memory (the heap's or the kernel's).
        for round in 0..<2 {
            let values = StoredValues<SIMD4<Double>>(storage, count: count)
            #expect(values.count == count)
            #expect(values.allSatisfy { $0 == .zero })
            for i in stride(from: 0, to: count, by: 997) { values[i] = SIMD4(Double(i), 1, 2, Double(round)) }
            values[count - 1] = SIMD4(repeating: -1)
            for i in stride(from: 0, to: count - 1, by: 997) { #expect(values[i] == SIMD4(Double(i), 1, 2, Double(round))) }
            #expect(values[count - 1] == SIMD4(repeating: -1))
        }
    }

    /// Records of the array's alignment (32 bytes for `SIMD4<Double>`) whatever its size.
    @Test func mappedArraysAreAligned() {
        let records = InMemorySmootherStorage().makeRecords(count: 1 << 17, size: 32, alignment: 32)
        #expect(Int(bitPattern: records.record(0, writing: false)) % 32 == 0)
    }
}
