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

    /// Storage in the heap that counts the bytes the estimators ask for.
    final class CountingStorage: SmootherStorage {
        let heap = InMemorySmootherStorage()
        var bytes = 0
        func makeRecords(count: Int, size: Int, alignment: Int) -> any SmootherRecords {
            bytes += count * size
            return heap.makeRecords(count: count, size: size, alignment: alignment)
        }
    }

    /// Every per-sample value of the default smoother and of VQF's offline estimator goes through
    /// the storage (the smoother's backward records, kept samples and zero-phase inclination, 304
    /// bytes per sample; VQF's about 350), so none is left in the heap to grow with the recording.
    @Test func perSampleValuesGoThroughTheStorage() {
        let n = 2_000
        let samples = GeneratedMotion(count: n)
        let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .magneticNorthZVertical))
        let counting = CountingStorage()
        smoother.smooth(samples, gyroscopeCalibration: nil, storage: counting) { _, _ in }
        #expect(counting.bytes >= 300 * n)
        let vqf = CountingStorage()
        OfflineVQF(configuration: .vqfDefaults(sampleRate: 100)).smooth(samples, storage: vqf) { _, _ in }
        #expect(vqf.bytes >= 300 * n)
    }
}
