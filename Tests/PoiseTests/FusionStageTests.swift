import Testing
@testable import Poise

@Suite struct FusionStageTests {
    /// A short deterministic stream: device turning about a tilted axis, with a magnetic field.
    func samples(count: Int = 400, rate: Double = 100) -> [MotionSample] {
        var random = SplitMix(seed: 7)
        return (0..<count).map { i in
            let t = Double(i) / rate
            let turn = Quaternion<Double>(axis: SIMD3(0.3, 0.2, 1), angle: 0.8 * Double.sin(t))
            let up = turn.conjugate.act(SIMD3(0, 0, 1))
            let north = turn.conjugate.act(SIMD3(0, 25, -43))
            let noise = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
            return MotionSample(time: t, acceleration: up + 0.002 * noise,
                                rotationRate: SIMD3(0.3, 0.2, 1) * 0.8 * Double.cos(t) / (1.13).squareRoot(),
                                magneticField: north)
        }
    }

    @Test func fusionStageWritesTheEstimatorsOutputs() throws {
        let input = samples()
        let pipeline = try StageCatalog.standard.pipeline("fusion",
                                    context: StageContext(sampleRate: 100, hasMagnetometer: true))
        #expect(pipeline.description == "fusion:9d")
        var running = pipeline
        var configuration = DeviceMotionConfiguration()
        configuration.sampleRate = 100
        configuration.reference = .magneticNorthZVertical
        var estimator = DeviceMotionEstimator(configuration: configuration)
        for sample in input {
            var record = ProcessedSample(sample)
            running.process(&record)
            let expected = estimator.process(sample)
            #expect(record.attitude == expected.attitude)
            #expect(record.gravity == expected.gravity)
            #expect(record.userAcceleration == expected.userAcceleration)
            #expect(record.rotationRate == expected.rotationRate)
            #expect(record.acceleration == sample.acceleration)   // fusion leaves the signal alone
        }
    }

    @Test func fusionDefaultsToSixAxesWithoutMagnetometerAndRefusesNineAxes() throws {
        let context = StageContext(sampleRate: 100, hasMagnetometer: false)
        #expect(try StageCatalog.standard.pipeline("fusion", context: context).description == "fusion:6d")
        #expect(throws: SpecError.self) {
            _ = try StageCatalog.standard.pipeline("fusion:9d", context: context)
        }
        #expect(throws: SpecError.self) {
            _ = try StageCatalog.standard.pipeline("fusion:7d", context: context)
        }
    }

    @Test func gravityStageIsTheLowPassSeparatorAndResetsToFresh() throws {
        let input = samples()
        var stage = try GravityStage(cutoffFrequency: 2, sampleRate: 100)
        var separator = try GravitySeparator(cutoffFrequency: 2, sampleRate: 100)
        var first: [SIMD3<Double>] = []
        for sample in input {
            var record = ProcessedSample(sample)
            stage.process(&record)
            let expected = separator.process(time: sample.time, acceleration: sample.acceleration)
            #expect(record.gravity == expected.gravity)
            #expect(record.userAcceleration == expected.userAcceleration)
            first.append(record.gravity ?? .zero)
        }
        stage.reset()
        for (sample, previous) in zip(input, first) {
            var record = ProcessedSample(sample)
            stage.process(&record)
            #expect(record.gravity == previous)
        }
        #expect(throws: SpecError.self) {
            _ = try StageCatalog.standard.pipeline("gravity:cutoff=-1", context: StageContext(sampleRate: 100))
        }
    }
}
