/// Gravity and user acceleration from an accelerometer alone (no gyroscope), by low-pass
/// filtering: the slow part of the specific force is taken as gravity, the rest as user
/// acceleration — the approach of Apple's AccelerometerGraph sample and of devices without a
/// gyroscope.
///
/// Trade-offs against `DeviceMotionEstimator` (which uses the gyroscope):
/// - **Lag on rotation.** When the device turns, gravity moves in the device frame at once, but
///   the low-pass follows with its own delay (one-pole at `fc`: time constant 1/(2π·fc), 90 %
///   after ≈ 2.3 time constants — 0.73 s at the default 0.5 Hz). Until then the turn shows up
///   as user acceleration. Fusion follows a turn within one sample.
/// - **Slow user acceleration is lost.** Any acceleration below `fc` (a slow push, a lift) is
///   counted as gravity; raising `fc` keeps more of it but lets more fast motion leak into
///   gravity (ripple attenuated only 1/√(1 + (f/fc)²) for a one-pole).
/// - **Magnitude.** The low-passed vector is not exactly 1 g during motion; `gravity` is that
///   vector scaled to 1 g (the reaction direction), so `gravity + userAcceleration` always
///   equals the input exactly.
///
/// Any Poise `Filter` over `SIMD4<Double>` (lanes x, y, z, 0) can be the low-pass: a one-pole
/// (default), Butterworth, One Euro or adaptive filter from the filter core.
public struct GravitySeparator<LowPass: Filter>: Sendable where LowPass.Value == SIMD4<Double> {
    /// The low-pass applied to the specific force (state included).
    public var lowPass: LowPass
    @usableFromInline var lastTime: Double?
    @usableFromInline var lastGravity = SIMD3<Double>(0, 0, 1)

    /// Separates with `lowPass` (its state is kept as given).
    public init(lowPass: LowPass) { self.lowPass = lowPass }

    /// One sample's result.
    public struct Separation: Sendable, Equatable {
        /// Up in the device frame, unit length = the gravity reaction in g (specific-force sign:
        /// +1 g on the up axis at rest).
        public var gravity: SIMD3<Double>
        /// Input minus `gravity`, g, device frame.
        public var userAcceleration: SIMD3<Double>
    }

    /// Processes one sample.
    ///
    /// - Parameters:
    ///   - time: timestamp in seconds; the low-pass gets the real step (`nil` or a repeated
    ///     timestamp: one nominal period, per the `Filter` rules).
    ///   - acceleration: specific force in g, device frame. A non-finite sample is ignored by the
    ///     filter; the previous gravity is returned and user acceleration is zero.
    public mutating func process(time: Double? = nil, acceleration: SIMD3<Double>) -> Separation {
        let input = SIMD4(acceleration, 0)
        let filtered: SIMD4<Double>
        if let time, let last = lastTime {
            filtered = lowPass.process(input, dt: time - last)
        } else {
            filtered = lowPass.process(input)
        }
        if let time, time.isFinite { lastTime = time }
        let g = SIMD3(filtered.x, filtered.y, filtered.z)
        let n = (g * g).sum().squareRoot()
        if n > 1e-9 && n.isFinite { lastGravity = g / n }
        guard acceleration.isFinite else { return Separation(gravity: lastGravity, userAcceleration: .zero) }
        return Separation(gravity: lastGravity, userAcceleration: acceleration - lastGravity)
    }

    /// Returns the separator to its initial state.
    public mutating func reset() {
        lowPass.reset(); lastTime = nil; lastGravity = SIMD3(0, 0, 1)
    }
}

extension GravitySeparator where LowPass == OnePoleLowPass<SIMD4<Double>> {
    /// A one-pole low-pass separator.
    ///
    /// - Parameters:
    ///   - cutoffFrequency: Hz (> 0). Default 0.5.
    ///   - sampleRate: nominal rate in Hz (> 0).
    /// - Throws: `FilterParameterError` for a non-positive or non-finite parameter.
    public init(cutoffFrequency: Double = 0.5, sampleRate: Double) throws(FilterParameterError) {
        self.init(lowPass: try OnePoleLowPass(cutoffFrequency: cutoffFrequency, sampleRate: sampleRate))
    }
}
