/// Settings of `GyroAim` (user units: degrees, °/s, seconds, Hz). Defaults are listed on each
/// property and explained in docs/games.md.
public struct GyroAimSettings: Sendable, Hashable, Codable {
    /// How the device rotation maps to camera yaw and pitch. Default `.player`.
    public var space: GyroSpace = .player
    /// The yaw axis in local space. Default `.flat`.
    public var hold: GyroHold = .flat
    /// Camera degrees per device degree, with an optional acceleration curve. Default 1 (1:1).
    public var sensitivity = GyroSensitivity()
    /// Multiplier of pitch relative to yaw (the camera's vertical sensitivity ratio). Default 1.
    public var pitchRatio: Double = 1
    /// Invert pitch (positive device pitch looks down). Default false.
    public var invertPitch = false
    /// Tiered smoothing threshold, °/s of device turn speed (`TieredSmoothing`): slower turns are
    /// smoothed, turns faster than twice it are not. 0 disables smoothing. Default 5.
    public var smoothingThreshold: Double = 5
    /// Time constant of the smoothing, s. Default 0.0625 (the same mean delay as
    /// JoyShockMapper's 0.125 s averaging window).
    public var smoothingTimeConstant: Double = 0.0625
    /// Gyroscope bias calibration.
    public var calibration = GyroCalibrationSettings()
    /// Nominal sensor rate, Hz: the gravity estimator's design rate and the period assumed for the
    /// first sample. Default 100.
    public var sampleRate: Double = 100
    /// Longest time step integrated, s: a longer one (dropped samples, a stalled sensor) is
    /// integrated over this long only and flagged `gap`, so a gap cannot jump the camera.
    /// Default 0.05.
    public var maximumTimeStep: Double = 0.05
    /// The gyroscope's full-scale range, °/s: a reading at or above 99.5 % of it on any axis is
    /// flagged `saturated` (the true rate is unknown, at least that). Default 2000.
    public var gyroscopeRange: Double = 2000
    /// Largest device turn speed used, °/s: faster readings are scaled down to it (bounded camera
    /// deltas whatever the input). Default 2000.
    public var maximumSpeed: Double = 2000
    /// Camera counts per camera degree for mouse output (`GyroAimOutput.counts`): the number of
    /// mouse counts that turn the game 360°, divided by 360. Default 1.
    public var countsPerDegree: Double = 1

    /// The defaults listed on each property.
    public init() {}

    /// A message naming the first bad field, or nil.
    public var problem: String? {
        if let problem = sensitivity.problem { return problem }
        if let problem = calibration.problem { return problem }
        if !pitchRatio.isFinite { return "pitch ratio must be finite, got \(pitchRatio)" }
        if !(smoothingThreshold >= 0 && smoothingThreshold.isFinite) { return "smoothing threshold must be ≥ 0 °/s, got \(smoothingThreshold)" }
        if !(smoothingTimeConstant >= 0 && smoothingTimeConstant.isFinite) { return "smoothing time constant must be ≥ 0 s, got \(smoothingTimeConstant)" }
        if !(sampleRate > 0 && sampleRate.isFinite) { return "sample rate must be a finite number > 0 Hz, got \(sampleRate)" }
        if !(maximumTimeStep > 0 && maximumTimeStep.isFinite) { return "maximum time step must be a finite number > 0 s, got \(maximumTimeStep)" }
        if !(gyroscopeRange > 0 && gyroscopeRange.isFinite) { return "gyroscope range must be a finite number > 0 °/s, got \(gyroscopeRange)" }
        if !(maximumSpeed > 0 && maximumSpeed.isFinite) { return "maximum speed must be a finite number > 0 °/s, got \(maximumSpeed)" }
        if !(countsPerDegree > 0 && countsPerDegree.isFinite) { return "counts per degree must be a finite number > 0, got \(countsPerDegree)" }
        return nil
    }
}
