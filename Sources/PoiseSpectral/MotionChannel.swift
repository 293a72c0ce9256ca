import Poise

/// A scalar signal taken from motion samples, by the short names the `spectrum` command uses.
///
/// | name | quantity | unit |
/// |---|---|---|
/// | `acc_x`, `acc_y`, `acc_z` | specific force along a device axis | g |
/// | `acc_norm` | magnitude of specific force (orientation-free, ≈ 1 g at rest) | g |
/// | `gyr_x`, `gyr_y`, `gyr_z` | angular rate about a device axis (right-hand rule) | rad/s |
/// | `gyr_norm` | magnitude of angular rate | rad/s |
/// | `mag_x`, `mag_y`, `mag_z` | magnetic field along a device axis | µT |
/// | `mag_norm` | magnitude of the magnetic field | µT |
///
/// Device axes: +X right, +Y toward the top edge, +Z out of the screen (see `MotionSample`).
public enum MotionChannel: String, CaseIterable, Sendable, Codable {
    case accelerationX = "acc_x", accelerationY = "acc_y", accelerationZ = "acc_z", accelerationNorm = "acc_norm"
    case rotationRateX = "gyr_x", rotationRateY = "gyr_y", rotationRateZ = "gyr_z", rotationRateNorm = "gyr_norm"
    case magneticFieldX = "mag_x", magneticFieldY = "mag_y", magneticFieldZ = "mag_z", magneticFieldNorm = "mag_norm"

    /// The channels analysed when none are named: the six inertial axes.
    public static let defaults: [MotionChannel] = [.accelerationX, .accelerationY, .accelerationZ,
                                                   .rotationRateX, .rotationRateY, .rotationRateZ]

    /// The signal's unit: `g`, `rad/s` or `µT`.
    public var unit: String {
        switch self {
        case .accelerationX, .accelerationY, .accelerationZ, .accelerationNorm: "g"
        case .rotationRateX, .rotationRateY, .rotationRateZ, .rotationRateNorm: "rad/s"
        case .magneticFieldX, .magneticFieldY, .magneticFieldZ, .magneticFieldNorm: "µT"
        }
    }

    /// The channel's values over `samples`, in order.
    /// - Throws: `SpectralError.invalidParameter` for a magnetometer channel without magnetometer data.
    public func signal(from samples: [MotionSample]) throws -> [Double] {
        var signal: [Double] = []
        signal.reserveCapacity(samples.count)
        for sample in samples {
            guard let value = value(of: sample) else {
                throw SpectralError.invalidParameter(name: "column", value: rawValue, rule: "the recording has no magnetometer data")
            }
            signal.append(value)
        }
        return signal
    }

    /// Whether the channel needs a magnetometer.
    public var needsMagnetometer: Bool { unit == "µT" }

    /// The channel's value in `sample`; `nil` for a magnetometer channel without magnetometer data.
    public func value(of sample: MotionSample) -> Double? {
        func norm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        switch self {
        case .accelerationX: return sample.acceleration.x
        case .accelerationY: return sample.acceleration.y
        case .accelerationZ: return sample.acceleration.z
        case .accelerationNorm: return norm(sample.acceleration)
        case .rotationRateX: return sample.rotationRate.x
        case .rotationRateY: return sample.rotationRate.y
        case .rotationRateZ: return sample.rotationRate.z
        case .rotationRateNorm: return norm(sample.rotationRate)
        case .magneticFieldX: return sample.magneticField?.x
        case .magneticFieldY: return sample.magneticField?.y
        case .magneticFieldZ: return sample.magneticField?.z
        case .magneticFieldNorm: return sample.magneticField.map(norm)
        }
    }
}

/// How regularly a recording was sampled, from its timestamps.
public struct SamplingEstimate: Sendable, Hashable, Codable {
    /// 1 / median positive sample period, in Hz.
    public var sampleRate: Double
    /// Periods longer than 1.5 × the median (gaps), as a count.
    public var gaps: Int
    /// Periods that are zero or negative (repeated or backwards timestamps).
    public var nonIncreasing: Int
    /// Largest |period − median| / median over all periods (0 for perfectly regular timing).
    public var largestPeriodDeviation: Double

    /// An estimate from figures found elsewhere (for example while streaming a recording).
    public init(sampleRate: Double, gaps: Int, nonIncreasing: Int, largestPeriodDeviation: Double) {
        self.sampleRate = sampleRate; self.gaps = gaps
        self.nonIncreasing = nonIncreasing; self.largestPeriodDeviation = largestPeriodDeviation
    }

    /// Estimates the sample rate of `times` (seconds). `nil` with fewer than two timestamps or no
    /// positive period.
    public init?(times: [Double]) {
        let periods = zip(times, times.dropFirst()).map { $1 - $0 }
        let positive = periods.filter { $0 > 0 && $0.isFinite }.sorted()
        guard !positive.isEmpty else { return nil }
        let median = positive[positive.count / 2]
        sampleRate = 1 / median
        gaps = periods.filter { $0 > 1.5 * median }.count
        nonIncreasing = periods.filter { $0 <= 0 }.count
        largestPeriodDeviation = periods.reduce(0) { Swift.max($0, abs($1 - median) / median) }
    }

    /// Whether FFT-based analysis that assumes uniform sampling is sound: no gaps, no repeated
    /// timestamps, periods within 10 % of the median.
    public var isRegular: Bool { gaps == 0 && nonIncreasing == 0 && largestPeriodDeviation <= 0.1 }
}
