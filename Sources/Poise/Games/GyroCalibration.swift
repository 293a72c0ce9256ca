/// Gyroscope bias (zero-rate offset) calibration for aiming: continuous while the device is
/// still, manual on request, saved and restored.
///
/// **Continuous.** Samples are gathered in blocks of `stillTime` seconds. A block grows while the
/// running standard deviations of the rotation rate and of the acceleration stay within
/// `gyroscopeSteadiness` and `accelerationSteadiness` (a sample that breaks either, or a time step
/// longer than 0.1 s, starts a new block). A complete block's mean rate m is a bias candidate,
/// with uncertainty σ_m = sd/√n. It is
/// accepted when |m| ≤ `maximumBias` and, if a bias b is already known, when
/// |m − b| ≤ k·√(σ_b² + σ_m²) with σ_b = max(`minimumUncertainty`, σ at calibration) +
/// `driftRate`·(time since). A slow deliberate turn at a steady rate about the vertical keeps
/// both sensors steady; these two bounds are what keep it from being calibrated away (a first
/// calibration has only the `maximumBias` bound). An accepted block replaces the bias
/// (`acceptedPeriods`); a rejected one is counted in `rejectedPeriods`. Judging whole blocks,
/// never a running mean, keeps a turn that starts during a still period out of the estimate.
///
/// **Manual.** `beginManualCalibration()` … `endManualCalibration()` averages every sample in
/// between (the player puts the controller down and presses a button); `setBias(_:)` sets it.
/// Continuous calibration pauses meanwhile. `reset()` forgets the bias.
///
/// Units: rad/s in the device frame for rates and the bias (settings in °/s), g for acceleration,
/// seconds. Non-finite samples are not used (they neither extend nor break a still period).
public struct GyroCalibration: Sendable, Equatable {
    /// The settings (validated at init).
    public let settings: GyroCalibrationSettings
    /// The saved and restored part: the bias estimate and its uncertainty.
    public struct State: Sendable, Codable, Equatable {
        /// Estimated bias, rad/s, device frame (zero before any calibration).
        public var bias: SIMD3<Double> = .zero
        /// Whether `bias` comes from a calibration.
        public var calibrated = false
        /// Uncertainty (standard) of `bias` when it was set, rad/s.
        public var uncertainty: Double = 0
        /// Sample time when it was set, s.
        public var time: Double = 0
        public init() {}
        public init(bias: SIMD3<Double>, uncertainty: Double, time: Double) {
            self.bias = bias; self.calibrated = true; self.uncertainty = uncertainty; self.time = time
        }
    }
    /// The current estimate.
    public private(set) var state = State()
    /// Still periods whose mean was refused (too large, or too far from the current estimate).
    public private(set) var rejectedPeriods = 0
    /// Still periods accepted (continuous calibrations).
    public private(set) var acceptedPeriods = 0
    /// Whether a manual calibration is collecting samples.
    public private(set) var isManual = false

    // The running still period (Welford sums).
    var count = 0
    var start = 0.0
    var rateMean = SIMD3<Double>.zero
    var rateM2 = SIMD3<Double>.zero
    var accelerationMean = SIMD3<Double>.zero
    var accelerationM2 = SIMD3<Double>.zero
    var lastSample = 0.0
    var manualSum = SIMD3<Double>.zero
    var manualCount = 0
    // Derived, rad/s.
    let gyroscopeLimit: Double
    let maximumBias: Double
    let driftRate: Double
    let minimumUncertainty: Double

    /// - Throws: `OrientationSettingsError` naming the bad setting.
    public init(settings: GyroCalibrationSettings = GyroCalibrationSettings()) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        let r = Units.radiansPerDegree
        gyroscopeLimit = settings.gyroscopeSteadiness * r
        maximumBias = settings.maximumBias * r
        driftRate = settings.driftRate * r
        minimumUncertainty = settings.minimumUncertainty * r
    }

    /// The current bias estimate, rad/s.
    public var bias: SIMD3<Double> { state.bias }

    /// The estimate's uncertainty at `time` (grows by `driftRate` after a calibration), rad/s;
    /// infinite before any calibration.
    public func uncertainty(at time: Double) -> Double {
        guard state.calibrated else { return .infinity }
        return Swift.max(state.uncertainty, minimumUncertainty) + driftRate * Swift.max(0, time - state.time)
    }

    /// Feeds one sample; returns the rate minus the bias (rad/s), or nil for a non-finite rate.
    ///
    /// - Parameters:
    ///   - time: seconds.
    ///   - rotationRate: raw rad/s, device frame.
    ///   - acceleration: g, device frame, or nil without an accelerometer (the steadiness test
    ///     then uses the gyroscope alone).
    public mutating func process(time: Double, rotationRate: SIMD3<Double>, acceleration: SIMD3<Double>?) -> SIMD3<Double>? {
        guard rotationRate.isFinite, time.isFinite else { return nil }
        let a = acceleration.flatMap { $0.isFinite ? $0 : nil }
        if isManual {
            manualSum += rotationRate; manualCount += 1
        } else if settings.continuous {
            track(time: time, rate: rotationRate, acceleration: a ?? .zero)
        }
        return rotationRate - state.bias
    }

    mutating func track(time: Double, rate: SIMD3<Double>, acceleration: SIMD3<Double>) {
        // A time step longer than the gap limit, or backwards, starts a new block.
        if count > 0, !(time >= lastSample && time - lastSample <= Self.longestStep) { count = 0 }
        lastSample = time
        // Welford update of the block with this sample; restart when it breaks steadiness.
        let n = count + 1
        let dr = rate - rateMean
        let rm = rateMean + dr / Double(n)
        let r2 = rateM2 + dr * (rate - rm)
        let da = acceleration - accelerationMean
        let am = accelerationMean + da / Double(n)
        let a2 = accelerationM2 + da * (acceleration - am)
        if n == 1 || (r2.sum() / Double(n - 1)).squareRoot() > gyroscopeLimit
            || (a2.sum() / Double(n - 1)).squareRoot() > settings.accelerationSteadiness {
            count = 1; start = time
            rateMean = rate; rateM2 = .zero; accelerationMean = acceleration; accelerationM2 = .zero
            return
        }
        count = n; rateMean = rm; rateM2 = r2; accelerationMean = am; accelerationM2 = a2
        guard time - start >= settings.stillTime else { return }
        // A complete steady block: its mean is a bias candidate.
        count = 0
        let candidateUncertainty = (r2.sum() / Double(n - 1) / Double(n)).squareRoot()
        let change = rm - state.bias
        let u = uncertainty(at: time)
        let tolerance = settings.uncertaintyMultiple * (u * u + candidateUncertainty * candidateUncertainty).squareRoot()
        let accept = (rm * rm).sum().squareRoot() <= maximumBias
            && (!state.calibrated || (change * change).sum().squareRoot() <= tolerance)
        if accept {
            acceptedPeriods += 1
            state = State(bias: rm, uncertainty: candidateUncertainty, time: time)
        } else {
            rejectedPeriods += 1
        }
    }

    /// Longest time step inside a still block, s.
    static let longestStep = 0.1

    /// Starts averaging every sample as the bias (continuous calibration pauses).
    public mutating func beginManualCalibration() {
        isManual = true; manualSum = .zero; manualCount = 0
    }

    /// Ends a manual calibration: the bias becomes the mean rate of the samples since
    /// `beginManualCalibration()` (unchanged when there were none). Returns whether it was set.
    @discardableResult
    public mutating func endManualCalibration(time: Double) -> Bool {
        defer { isManual = false; manualSum = .zero; manualCount = 0; count = 0 }
        guard isManual, manualCount > 0 else { return false }
        state = State(bias: manualSum / Double(manualCount), uncertainty: 0, time: time)
        return true
    }

    /// Sets the bias (rad/s) explicitly, as known at `time`.
    public mutating func setBias(_ bias: SIMD3<Double>, time: Double) {
        guard bias.isFinite else { return }
        state = State(bias: bias, uncertainty: 0, time: time)
        count = 0
    }

    /// Restores a saved estimate (`state`); a non-finite one is ignored.
    public mutating func restore(_ saved: State) {
        guard saved.bias.isFinite, saved.uncertainty.isFinite, saved.time.isFinite else { return }
        state = saved
        count = 0
    }

    /// Forgets the bias and any still period, as a fresh calibration.
    public mutating func reset() {
        state = State(); count = 0; isManual = false; manualSum = .zero; manualCount = 0
        rejectedPeriods = 0; acceptedPeriods = 0
    }
}
