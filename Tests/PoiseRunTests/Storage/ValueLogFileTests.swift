import Foundation
import Testing
import Poise
@testable import PoiseRun

/// `ValueLogFile`: the per-sample values a measurement revisits, in a temporary file; the
/// measurements over it equal those in the heap, bit for bit.
@Suite struct ValueLogFileTests {
    /// Values over many blocks read back in order, every one, every k-th and block by block; a
    /// pass that changes them in place keeps the change.
    @Test func valuesReadBackInOrderAndChangesAreKept() throws {
        let log = ValueLogFile<SIMD2<Double>>(purpose: "test values")
        let n = 3 * (BlockRecordFile.blockBytes / 16) + 123
        for i in 0..<n { log.append(SIMD2(Double(i), -0.5 * Double(i))) }
        #expect(log.count == n)
        var visited = 0
        log.forEach { i, v in
            #expect(v == SIMD2(Double(i), -0.5 * Double(i)))
            visited += 1
        }
        #expect(visited == n)
        var strided: [Int] = []
        log.forEach(every: 1000) { i, v in strided.append(i); #expect(v.x == Double(i)) }
        #expect(strided == Array(stride(from: 0, to: n, by: 1000)))
        var blocks = 0, next = 0
        log.forEachBlock(writing: false) { first, values in
            #expect(first == next && values.count > 0)
            for (j, v) in values.enumerated() where v.x != Double(first + j) { Issue.record("value \(first + j) reads \(v)") }
            next = first + values.count
            blocks += 1
        }
        #expect(next == n && blocks == 4)
        log.update { i, v in v.y = Double(i) * 3 }
        log.forEach { i, v in #expect(v == SIMD2(Double(i), Double(i) * 3)) }
        try log.check()
        #expect(log.failure == nil)
    }

    /// The 6D heading alignment over errors kept in a file equals the one in the heap to the
    /// last bit (the errors span several blocks, the offset is not zero).
    @Test func headingAlignmentFromAFileEqualsTheHeaps() {
        let log = ValueLogFile<SIMD2<Double>>(purpose: "test errors")
        var file = OrientationErrorAccumulator(errorLog: log), heap = OrientationErrorAccumulator()
        for i in 0..<50_000 {
            let t = Double(i) / 100
            let truth = Quaternion<Double>(axis: SIMD3(0.3, 0.2, 1), angle: 0.7 * t)
            let estimate = Quaternion<Double>(axis: SIMD3(0, 0, 1), angle: 1.1 + 0.01 * Double.sin(t)) * truth
                * Quaternion<Double>(axis: SIMD3(1, 0, 0), angle: 0.02 * Double.cos(3 * t))
            #expect(file.add(estimate: estimate, truth: truth) == heap.add(estimate: estimate, truth: truth))
        }
        let aligned = heap.result(alignHeading: true)
        #expect(file.result(alignHeading: true) == aligned)
        #expect(file.result(alignHeading: false) == heap.result(alignHeading: false))
        #expect(abs(aligned.headingOffset) > 10 && aligned.heading < 2)
        #expect(log.count == 50_000 && file.failure == nil)
    }

    /// The magnetometer fit over readings kept in a file equals the fit over the array, to the
    /// last bit, rejection rounds, held rows and non-finite readings included.
    @Test func magnetometerFitFromAFileEqualsTheArrays() throws {
        var fields: [SIMD3<Double>] = []
        var state: UInt64 = 11
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        for i in 0..<30_000 {
            // A direction sweeping slowly over the whole sphere.
            let polar = Double.pi * (0.5 + 0.5 * Double.sin(Double(i) * 0.0011)), angle = Double(i) * 0.013
            let z = Double.cos(polar), r = Double.sin(polar)
            var b = SIMD3(48 * r * Double.cos(angle), 52 * r * Double.sin(angle), 45 * z) + SIMD3(31, -42, 17)
            b += SIMD3(noise(), noise(), noise()) * 0.8
            if i % 50 == 0 { b += SIMD3(25, 10, -15) }   // disturbed readings, rejected
            fields.append(i % 4_001 == 0 ? SIMD3(repeating: .nan) : b)
        }
        let log = ValueLogFile<MagneticReading>(purpose: "test readings")
        var collector = MagneticFieldCollector(log: log)
        for (i, field) in fields.enumerated() {
            collector.add(MotionSample(time: Double(2 * i), magneticField: field))
            if !field.x.isNaN { collector.add(MotionSample(time: Double(2 * i + 1), magneticField: field)) }   // held: left out
        }
        #expect(collector.held == fields.count - fields.filter { $0.x.isNaN }.count)
        #expect(collector.fields.count == fields.count)
        let fromFile = try MagnetometerCalibrator.calibrate(log)
        let fromArray = try MagnetometerCalibrator.calibrate(fields)
        #expect(fromFile == fromArray)
        #expect(fromArray.rejected > 500 && fromArray.nonFinite == 8 && fromArray.iterations > 1)
        #expect(log.failure == nil)
    }
}
