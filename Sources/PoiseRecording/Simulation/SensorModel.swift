/// Error model of one three-axis sensor. Units are the sensor's core unit `u`: g for the
/// accelerometer, rad/s for the gyroscope, µT for the magnetometer.
///
/// Reading = saturate(M · (1 + S) · truth + bias(t) + noise), where M is a fixed small-angle
/// misalignment (I + skew-free random off-diagonal terms), S a fixed per-axis scale error,
/// bias(t) = constant bias + a first-order Gauss–Markov process (the bias instability), and noise
/// white Gaussian with per-sample standard deviation `noiseDensity · √rate`. Optionally the bias
/// also holds a rate random walk and a flicker bias instability of known Allan-deviation
/// parameters (`BiasNoiseProcesses`; docs/noise.md).
public struct SensorErrorModel: Sendable, Codable, Equatable {
    /// White-noise density, u/√Hz (per-sample σ = density · √(sample rate)).
    public var noiseDensity: Double
    /// Standard deviation of the constant per-axis bias, drawn once per recording, u.
    public var biasStandardDeviation: Double
    /// Bias instability: stationary standard deviation of the Gauss–Markov bias drift, u.
    public var biasInstability: Double
    /// Correlation time of the bias drift, seconds.
    public var biasCorrelationTime: Double
    /// Standard deviation of the per-axis scale-factor error (0.01 = 1 %).
    public var scaleErrorStandardDeviation: Double
    /// Standard deviation of each off-diagonal misalignment term, radians.
    public var misalignmentStandardDeviation: Double
    /// Full-scale range: readings are clipped to ±range, u.
    public var range: Double
    /// Rate random walk K of the bias (Allan deviation K·√(τ/3)), u/√s (= u/s/√Hz); 0: none.
    public var rateRandomWalk: Double = 0
    /// Bias instability B as flicker noise (Allan deviation floor 0.664·B), u; 0: none.
    public var flickerBiasInstability: Double = 0

    public init(noiseDensity: Double, biasStandardDeviation: Double, biasInstability: Double,
                biasCorrelationTime: Double = 100, scaleErrorStandardDeviation: Double,
                misalignmentStandardDeviation: Double, range: Double,
                rateRandomWalk: Double = 0, flickerBiasInstability: Double = 0) {
        self.rateRandomWalk = rateRandomWalk
        self.flickerBiasInstability = flickerBiasInstability
        self.noiseDensity = noiseDensity
        self.biasStandardDeviation = biasStandardDeviation
        self.biasInstability = biasInstability
        self.biasCorrelationTime = biasCorrelationTime
        self.scaleErrorStandardDeviation = scaleErrorStandardDeviation
        self.misalignmentStandardDeviation = misalignmentStandardDeviation
        self.range = range
    }

    /// No errors at all (range unlimited).
    public static let ideal = SensorErrorModel(noiseDensity: 0, biasStandardDeviation: 0, biasInstability: 0,
                                               scaleErrorStandardDeviation: 0, misalignmentStandardDeviation: 0,
                                               range: .infinity)
}

/// The sensor model of a simulated device: three sensors plus timing. Defaults resemble a
/// current phone IMU (BMI160/LSM6DS-class accelerometer and gyroscope, AK09918-class magnetometer).
public struct SensorModel: Sendable, Codable, Equatable {
    /// Accelerometer, g. Default: 150 µg/√Hz noise, 20 mg bias, 0.5 mg instability, 0.5 % scale,
    /// 0.1° misalignment, ±8 g range.
    public var accelerometer: SensorErrorModel
    /// Gyroscope, rad/s. Default: 0.007 °/s/√Hz noise, 0.5 °/s bias, 0.02 °/s instability,
    /// 0.5 % scale, 0.1° misalignment, ±2000 °/s range.
    public var gyroscope: SensorErrorModel
    /// Magnetometer, µT. Default: 0.04 µT/√Hz noise (0.4 µT per sample at 100 Hz), 2 µT residual
    /// hard-iron bias, 0.1 µT instability, 1 % scale, 0.3° misalignment, ±4900 µT range.
    public var magnetometer: SensorErrorModel
    /// Standard deviation of each sample instant's offset from the nominal grid, as a fraction of
    /// the nominal period (default 0.05; offsets are clipped to ±0.45 so time never runs backwards).
    /// Timestamps are the true (irregular) instants.
    public var timestampJitter: Double
    /// Probability that a sample is lost (default 0.002): the row is missing, leaving a gap.
    public var dropProbability: Double

    public init(accelerometer: SensorErrorModel, gyroscope: SensorErrorModel, magnetometer: SensorErrorModel,
                timestampJitter: Double, dropProbability: Double) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.timestampJitter = timestampJitter
        self.dropProbability = dropProbability
    }

    static let degree = Double.pi / 180

    /// A phone-like IMU (see the property documentation for each value).
    public static let phone = SensorModel(
        accelerometer: SensorErrorModel(noiseDensity: 150e-6, biasStandardDeviation: 0.02, biasInstability: 0.0005,
                                        scaleErrorStandardDeviation: 0.005, misalignmentStandardDeviation: 0.1 * degree,
                                        range: 8),
        gyroscope: SensorErrorModel(noiseDensity: 0.007 * degree, biasStandardDeviation: 0.5 * degree,
                                    biasInstability: 0.02 * degree, scaleErrorStandardDeviation: 0.005,
                                    misalignmentStandardDeviation: 0.1 * degree, range: 2000 * degree),
        magnetometer: SensorErrorModel(noiseDensity: 0.04, biasStandardDeviation: 2, biasInstability: 0.1,
                                       scaleErrorStandardDeviation: 0.01, misalignmentStandardDeviation: 0.3 * degree,
                                       range: 4900),
        timestampJitter: 0.05, dropProbability: 0.002)

    /// Perfect sensors on a perfect clock.
    public static let ideal = SensorModel(accelerometer: .ideal, gyroscope: .ideal, magnetometer: .ideal,
                                          timestampJitter: 0, dropProbability: 0)
}

/// The earth at the simulated place.
public struct EarthModel: Sendable, Codable, Equatable {
    /// Magnetic field strength, µT (default 50).
    public var magneticFieldStrength: Double
    /// Inclination (dip) of the field below the horizon, degrees (default 60, mid-northern latitudes).
    public var inclinationDegrees: Double

    public init(magneticFieldStrength: Double = 50, inclinationDegrees: Double = 60) {
        self.magneticFieldStrength = magneticFieldStrength
        self.inclinationDegrees = inclinationDegrees
    }

    /// The field in the earth (ENU) frame, µT: pointing north and down.
    public var magneticField: SIMD3<Double> {
        let i = inclinationDegrees * Double.pi / 180
        return magneticFieldStrength * SIMD3(0, _cos(i), -_sin(i))
    }
}

/// A magnetic disturbance: an extra field (earth frame, µT) present between two times, faded in
/// and out over `ramp` seconds (a phone passing a loudspeaker or a steel table leg).
public struct MagneticDisturbance: Sendable, Codable, Equatable {
    public var start: Double
    public var end: Double
    public var ramp: Double
    /// Extra field in the earth frame, µT.
    public var field: SIMD3<Double>

    public init(start: Double, end: Double, ramp: Double = 0.5, field: SIMD3<Double>) {
        self.start = start; self.end = end; self.ramp = ramp; self.field = field
    }

    /// The extra field at time `t`.
    public func field(at t: Double) -> SIMD3<Double> {
        guard t > start, t < end else { return .zero }
        return Trajectory.Profile.window(t, start: start, end: end, ramp: ramp).0 * field
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { sin(x) }
