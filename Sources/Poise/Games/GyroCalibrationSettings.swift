/// Settings of `GyroCalibration` (user units: °/s, g, seconds).
///
/// The defaults follow the advice of GyroWiki and GamepadMotionHelpers (calibrate only while the
/// gyroscope *and* the accelerometer are steady for a while, and never accept a bias that a slow,
/// deliberate turn could explain), with numbers chosen on the recordings in `data/` and the BROAD
/// trials: rest there has a gyroscope spread of 0.05–0.3 °/s and an accelerometer spread of
/// 0.002–0.01 g.
public struct GyroCalibrationSettings: Sendable, Hashable, Codable {
    /// Learn the bias continuously whenever the device is still. Default true.
    public var continuous: Bool = true
    /// Largest standard deviation of the rotation rate (norm of the per-axis deviations) within a
    /// still period, °/s. Default 0.6.
    public var gyroscopeSteadiness: Double = 0.6
    /// Largest standard deviation of the acceleration within a still period, g. Default 0.015.
    public var accelerationSteadiness: Double = 0.015
    /// How long the device must be steady before its mean rate is taken as the bias, s. Default 1.
    public var stillTime: Double = 1
    /// Largest bias accepted, °/s: a steady rate above it is a turn, not a bias. Default 3
    /// (consumer gyroscopes are specified to about ±1–3 °/s of zero-rate offset).
    public var maximumBias: Double = 3
    /// Once calibrated, a still period's mean must lie within this many standard uncertainties
    /// of the current estimate to replace it (a slow turn at a steady rate is not a new bias).
    /// Default 3.
    public var uncertaintyMultiple: Double = 3
    /// How fast the estimate's uncertainty grows after a calibration, °/s per second (the bias
    /// drifts with temperature). Default 0.01, so after a minute a 0.6 °/s change is accepted.
    public var driftRate: Double = 0.01
    /// Smallest uncertainty of an estimate, °/s (the tolerance right after a calibration).
    /// Default 0.05.
    public var minimumUncertainty: Double = 0.05

    /// The defaults listed on each property.
    public init() {}

    /// A message naming the first bad field, or nil.
    public var problem: String? {
        let positive: [(String, Double)] = [("gyroscopeSteadiness", gyroscopeSteadiness), ("accelerationSteadiness", accelerationSteadiness),
                                            ("stillTime", stillTime), ("maximumBias", maximumBias),
                                            ("uncertaintyMultiple", uncertaintyMultiple), ("minimumUncertainty", minimumUncertainty)]
        for (name, value) in positive where !(value > 0 && value.isFinite) {
            return "calibration \(name) must be a finite number > 0, got \(value)"
        }
        if !(driftRate >= 0 && driftRate.isFinite) { return "calibration driftRate must be a finite number ≥ 0, got \(driftRate)" }
        return nil
    }
}
