import Testing
import Poise
@testable import PoiseRecording

/// The simulator's noise processes against the noise parameters `AllanNoiseParameters` reads
/// off the Allan deviation: one-hour still recordings at 100 Hz with known white noise, rate
/// random walk and bias instability.
@Suite struct SimulatedNoiseTests {
    /// Allan deviations of the six inertial axes (gyroscope rad/s, accelerometer g) of a still
    /// simulation with perfect sensors plus the given noise.
    static func allan(gyroscope: SensorErrorModel, accelerometer: SensorErrorModel, seed: UInt64,
                      duration: Double = 3600) -> AllanDeviation {
        var sensors = SensorModel.ideal
        sensors.gyroscope = gyroscope
        sensors.accelerometer = accelerometer
        let configuration = SimulationConfiguration(scenario: .still, rate: 100, duration: duration, seed: seed, sensors: sensors)
        var accumulator = AllanDeviationAccumulator(channelCount: 6, maximumClusterSize: 1 << 20)
        var row = [Double](repeating: 0, count: 6)
        for sample in Simulator(configuration) {
            let w = sample.rotationRate, a = sample.acceleration
            row[0] = w.x; row[1] = w.y; row[2] = w.z; row[3] = a.x; row[4] = a.y; row[5] = a.z
            accumulator.add(row)
        }
        return accumulator.result(sampleInterval: 0.01)
    }

    static func noise(_ density: Double, walk: Double = 0, instability: Double = 0) -> SensorErrorModel {
        var model = SensorErrorModel.ideal
        model.noiseDensity = density
        model.rateRandomWalk = walk
        model.flickerBiasInstability = instability
        return model
    }

    /// White noise and rate random walk: N and K within 10 % on every axis; B is not claimed (the
    /// minimum of a white + random-walk curve is their crossing, not a flicker floor).
    @Test func whiteNoiseAndRateRandomWalkAreRecovered() {
        let gyroN = 2e-4, gyroK = 3e-4, accelN = 150e-6, accelK = 2e-4
        let adev = Self.allan(gyroscope: Self.noise(gyroN, walk: gyroK), accelerometer: Self.noise(accelN, walk: accelK), seed: 7)
        for c in 0..<6 {
            let p = AllanNoiseParameters(adev, channel: c)
            let (n, k) = c < 3 ? (gyroN, gyroK) : (accelN, accelK)
            #expect(abs(p.whiteNoise! / n - 1) < 0.10, "axis \(c): N \(p.whiteNoise!) vs \(n)")
            #expect(abs(p.rateRandomWalk! / k - 1) < 0.10, "axis \(c): K \(p.rateRandomWalk!) vs \(k)")
        }
    }

    /// White noise and flicker bias instability: N within 10 %, and B from the minimum within
    /// 10 % (the sum of Gauss–Markov terms is flat at 0.664·B over τ ≈ 5 … 1000 s).
    @Test func biasInstabilityIsRecovered() {
        let gyroN = 1e-4, gyroB = 2e-4, accelN = 100e-6, accelB = 200e-6
        let adev = Self.allan(gyroscope: Self.noise(gyroN, instability: gyroB), accelerometer: Self.noise(accelN, instability: accelB), seed: 11)
        for c in 0..<6 {
            let p = AllanNoiseParameters(adev, channel: c)
            let (n, b) = c < 3 ? (gyroN, gyroB) : (accelN, accelB)
            #expect(abs(p.whiteNoise! / n - 1) < 0.10, "axis \(c): N \(p.whiteNoise!) vs \(n)")
            #expect(p.biasInstability.map { abs($0 / b - 1) < 0.10 } == true,
                    "axis \(c): B \(p.biasInstability ?? .nan) vs \(b) over \(p.biasInstabilityClusterTimes) s \(p.biasInstabilityReason ?? "") \(adev.deviations[c].map { $0 / b / AllanNoiseParameters.flickerFloor })")
        }
    }

    /// White noise only, 10 minutes: N is found; K and B are reported as not determined (the
    /// curve falls at −1/2 to the end), with reasons instead of numbers.
    @Test func whiteNoiseAloneLeavesBiasTermsUndetermined() {
        let adev = Self.allan(gyroscope: Self.noise(1e-4), accelerometer: Self.noise(1e-4), seed: 3, duration: 600)
        let p = AllanNoiseParameters(adev, channel: 0)
        #expect(abs(p.whiteNoise! / 1e-4 - 1) < 0.05)
        #expect(p.rateRandomWalk == nil && p.rateRandomWalkReason?.contains("too short") == true)
        #expect(p.biasInstability == nil && p.biasInstabilityReason?.contains("still falls") == true)
    }

    /// Adding the processes leaves the rest of a seed's recording as it was.
    @Test func slowBiasProcessesDrawTheirOwnRandomNumbers() {
        var with = SensorModel.phone
        with.gyroscope.rateRandomWalk = 1e-3
        let plain = Simulator.samples(SimulationConfiguration(scenario: .still, duration: 2, seed: 5))
        let noisy = Simulator.samples(SimulationConfiguration(scenario: .still, duration: 2, seed: 5, sensors: with))
        #expect(plain.map(\.acceleration) == noisy.map(\.acceleration))
        #expect(plain.map(\.rotationRate) != noisy.map(\.rotationRate))
    }
}
