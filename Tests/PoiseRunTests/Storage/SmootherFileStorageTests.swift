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
        // At most 9 arrays at once whatever the recording's length (9D with the defaults'
        // earth-fixed disturbed spans; 8 without them).
        #expect(storage.peakOpenArrays <= (reference.usesMagnetometer ? 9 : 8))
    }

    /// The bytes per sample the smoother keeps at once with the defaults (docs/fusion.md,
    /// "Cost"): 354 in 9D (the disturbed-span search's local offset fits add 128 per reading no
    /// other offset explains: none here), 240 in 6D and in 9D without the spans.
    @Test(arguments: [(AttitudeReference.magneticNorthZVertical, DeviceMotionSmoother.Options.MagneticDisturbanceSpans.earthFixed, 354),
                      (.magneticNorthZVertical, .off, 240), (.arbitraryZVertical, .earthFixed, 240)])
    func smootherPeakBytesPerSample(reference: AttitudeReference, spans: DeviceMotionSmoother.Options.MagneticDisturbanceSpans, bytes: Int) {
        let n = 4_000
        var options = DeviceMotionSmoother.Options()
        options.magneticDisturbanceSpans = spans
        let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: reference),
                                            options: options)
        // Turning with pauses in an undisturbed field (the `offline` benchmark's motion).
        var truth = Quaternion<Double>.identity, samples: [MotionSample] = []
        for k in 0..<n {
            let t = Double(k) * 0.01
            let w = t.truncatingRemainder(dividingBy: 30) < 5 ? SIMD3<Double>.zero
                : SIMD3(1.2 * Double.sin(0.3 * t), 0.8 * Double.cos(0.21 * t), 1.0 * Double.sin(0.17 * t + 1))
            truth = (truth * Quaternion(rotationVector: w / 100)).normalized
            samples.append(MotionSample(time: t, acceleration: truth.conjugate.act(SIMD3(0, 0, 1)), rotationRate: w,
                                        magneticField: truth.conjugate.act(SIMD3(0, 20, -45))))
        }
        let storage = CountingStorage()
        smoother.smooth(samples, gyroscopeCalibration: nil, storage: storage) { _, _ in }
        #expect(storage.liveBytes == 0)
        #expect(storage.peakBytes == bytes * n)
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

    /// 100 Hz with a magnetometer: 3 s still, then `turns` turns of 60–150° about varied axes
    /// (rate ∝ sin² over 2 s), each followed by 0.6 s still; the gyroscope with scale errors,
    /// misalignment and a bias, the accelerometer up in the device frame with a little noise.
    /// Quasi-still moments give the gyroscope fit its anchors.
    static func turnsAndRests(turns: Int) -> [MotionSample] {
        let a = Matrix3(SIMD3(1.004, 0.001, -0.0008), SIMD3(0.001, 0.997, 0.0005), SIMD3(-0.0008, 0.0005, 1.002))
        let axes: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0), SIMD3(0, 1, 1), SIMD3(-1, 1, 1)]
        var rates = [SIMD3<Double>](repeating: .zero, count: 300)
        for turn in 0..<turns {
            var axis = axes[turn % axes.count] * (turn % 4 == 1 ? -1 : 1)
            axis /= (axis * axis).sum().squareRoot()
            let angle = Double(60 + (turn * 37) % 90) * .pi / 180
            for k in 1...200 {
                let x = Double.sin(Double.pi * Double(k) / 200)
                rates.append(axis * (angle * x * x))
            }
            rates.append(contentsOf: [SIMD3<Double>](repeating: .zero, count: 60))
        }
        var q = Quaternion<Double>(w: 1, x: 0, y: 0, z: 0)
        return rates.enumerated().map { k, w in
            if k > 0 { q = (q * Quaternion(rotationVector: w * 0.01)).normalized }
            let noise = 0.001 * Double.sin(Double(k) * 1.7)
            return MotionSample(time: Double(k) * 0.01, acceleration: q.conjugate.act(SIMD3(0, 0, 1)) + SIMD3(noise, -noise, noise),
                                rotationRate: a * w + SIMD3(0.004, -0.003, 0.002) + SIMD3(noise, noise, -noise),
                                magneticField: q.conjugate.act(SIMD3(0, 20, -40)))
        }
    }

    /// The gyroscope fit with its anchors in files (here more than a 256 KB block of them) equals
    /// the fit in the heap, and the smoother with that fit and its values in files gives the
    /// heap's output, with and without the zero-phase heading.
    @Test func gyroscopeFitAndSmootherWithRestsEqualThoseInMemory() {
        let samples = Self.turnsAndRests(turns: 110)
        let expected = GyroscopeSelfCalibration.fit(samples)
        #expect(expected.accepted && expected.anchors * 432 > BlockRecordFile.blockBytes)
        let storage = SmootherFileStorage()
        #expect(GyroscopeSelfCalibration.fit(samples, storage: storage) == expected)
        #expect(storage.failure == nil && storage.openArrays == 0)
        for options in [DeviceMotionSmoother.Options(), .init(headingLowPassTime: 10)] {
            let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: 100, reference: .magneticNorthZVertical),
                                                options: options)
            let inMemory = smoother.smooth(samples)
            var got: [DeviceMotion] = []
            let files = SmootherFileStorage()
            smoother.smooth(samples, gyroscopeCalibration: smoother.gyroscopeCalibration(for: samples, storage: files), storage: files) { _, m in got.append(m) }
            #expect(files.failure == nil)
            #expect(got == inMemory)
        }
    }

    /// Storage in the heap that counts the bytes the estimators ask for (`bytes`), those of the
    /// arrays alive (`liveBytes`) and the most alive at once (`peakBytes`).
    final class CountingStorage: SmootherStorage {
        let heap = InMemorySmootherStorage()
        var bytes = 0, liveBytes = 0, peakBytes = 0
        final class Records: SmootherRecords {
            let base: any SmootherRecords, bytes: Int
            unowned let owner: CountingStorage
            init(_ base: any SmootherRecords, bytes: Int, owner: CountingStorage) {
                (self.base, self.bytes, self.owner) = (base, bytes, owner)
            }
            deinit { owner.liveBytes -= bytes }
            func record(_ index: Int, writing: Bool) -> UnsafeMutableRawPointer { base.record(index, writing: writing) }
        }
        func makeRecords(count: Int, size: Int, alignment: Int) -> any SmootherRecords {
            bytes += count * size
            liveBytes += count * size
            peakBytes = max(peakBytes, liveBytes)
            return Records(heap.makeRecords(count: count, size: size, alignment: alignment), bytes: count * size, owner: self)
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
        // The zero-phase heading: 128 bytes per sample more (its medians' norms and dips included).
        let heading = CountingStorage()
        DeviceMotionSmoother(configuration: smoother.configuration, options: .init(headingLowPassTime: 10))
            .smooth(samples, gyroscopeCalibration: nil, storage: heading) { _, _ in }
        #expect(heading.bytes == counting.bytes + 128 * n)
    }

    /// The gyroscope fit keeps its anchors (432 bytes each) and its pairs' residual norms (8
    /// bytes each) in the storage; a still recording has an anchor in every 0.1-s window.
    @Test func gyroscopeFitAnchorsGoThroughTheStorage() {
        let n = 30_000
        let still = (0..<n).map { k in
            MotionSample(time: Double(k) * 0.01, acceleration: SIMD3(0.001 * Double.sin(Double(k)), 0, 1), rotationRate: SIMD3(0.001, 0, -0.002))
        }
        let counting = CountingStorage()
        let fit = GyroscopeSelfCalibration.fit(still, storage: counting)
        #expect(fit.anchors == n / 10)
        #expect(fit.pairs == 4 * fit.anchors - (1 + 4 + 16 + 64))
        #expect(counting.bytes == 432 * fit.anchors + 8 * fit.pairs)
        #expect(fit == GyroscopeSelfCalibration.fit(still))
    }
}
