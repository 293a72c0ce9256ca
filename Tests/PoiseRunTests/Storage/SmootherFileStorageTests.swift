import Glibc
import Testing
import Poise
@testable import PoiseRun

/// `SmootherFileStorage`: the offline estimators' per-sample values in temporary files give the
/// same outputs, bit for bit, as in the heap, in a working set that does not grow with the
/// recording.
@Suite struct SmootherFileStorageTests {
    /// A recording computed per index (nothing stored): tilting and turning motion with a
    /// magnetometer, 100 Hz.
    struct GeneratedMotion: RandomAccessCollection {
        let count: Int
        var startIndex: Int { 0 }
        var endIndex: Int { count }
        subscript(i: Int) -> MotionSample {
            let t = Double(i) / 100
            let angle = 0.6 * Double.sin(2 * .pi * 0.13 * t), rate = 0.6 * 2 * .pi * 0.13 * Double.cos(2 * .pi * 0.13 * t)
            let yaw = 0.4 * t.truncatingRemainder(dividingBy: 20)
            let wobble = 0.002 * Double.sin(Double(i) * 1.7)
            return MotionSample(time: t, acceleration: SIMD3(wobble, Double.sin(angle), Double.cos(angle)),
                                rotationRate: SIMD3(rate + 0.01, wobble, 0.4),
                                magneticField: SIMD3(20 * Double.sin(yaw), 20 * Double.cos(yaw) * Double.cos(angle), -40 + wobble))
        }
    }

    static let options: [DeviceMotionSmoother.Options] = [
        .init(),
        .init(inclinationLowPassTime: 0),
        .init(smoothedBias: true),
        .init(headingLowPassTime: 10, biasCovarianceWeighting: true),
    ]

    /// Every option path and both references: the same device motion from the heap and from files.
    @Test(arguments: [AttitudeReference.arbitraryZVertical, .magneticNorthZVertical], options)
    func smootherOutputsEqualThoseInMemory(reference: AttitudeReference, options: DeviceMotionSmoother.Options) {
        let samples = GeneratedMotion(count: 4_000)
        let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: reference),
                                            options: options)
        let expected = smoother.smooth(Array(samples))
        let storage = SmootherFileStorage()
        var got: [DeviceMotion] = []
        smoother.smooth(samples, gyroscopeCalibration: smoother.gyroscopeCalibration(for: samples), storage: storage) { _, m in got.append(m) }
        #expect(storage.failure == nil)
        #expect(got == expected)
        #expect(storage.openArrays == 0)
        #expect(storage.peakOpenArrays <= 8)
    }

    /// VQF's offline estimator: the same outputs from files as from the heap.
    @Test(arguments: [AttitudeReference.arbitraryZVertical, .magneticNorthZVertical])
    func offlineVQFOutputsEqualThoseInMemory(reference: AttitudeReference) {
        let samples = GeneratedMotion(count: 3_000)
        let vqf = OfflineVQF(configuration: .vqfDefaults(sampleRate: 100, reference: reference))
        var expected: [DeviceMotion] = [], got: [DeviceMotion] = []
        vqf.smooth(Array(samples)) { _, m in expected.append(m) }
        let storage = SmootherFileStorage()
        vqf.smooth(samples, storage: storage) { _, m in got.append(m) }
        #expect(storage.failure == nil)
        #expect(got == expected)
        #expect(storage.peakOpenArrays <= 8)
    }

    /// Bytes allocated in the heap now (glibc's count of chunks in use, mapped ones included).
    static func heapBytes() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }

    /// The heap while the smoother emits (when every per-sample value is alive): with files it
    /// grows by the buffered blocks only, not by the 240 bytes per sample the heap storage takes
    /// (measured too, so the measure is shown to see per-sample storage).
    @Test func heapDoesNotGrowWithTheRecording() {
        let n = 60_000
        let samples = GeneratedMotion(count: n)
        let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .arbitraryZVertical),
                                            options: .init(gyroscopeSelfCalibration: false))
        func growth(_ storage: any SmootherStorage) -> Int {
            let before = Self.heapBytes()
            var during = 0
            smoother.smooth(samples, gyroscopeCalibration: nil, storage: storage) { i, _ in
                if i == n / 2 { during = Self.heapBytes() }
            }
            return during - before
        }
        let files = growth(SmootherFileStorage())
        let heap = growth(InMemorySmootherStorage())
        #expect(heap > 200 * n)
        #expect(files < 8 * BlockRecordFile.blockBytes)
    }
}
