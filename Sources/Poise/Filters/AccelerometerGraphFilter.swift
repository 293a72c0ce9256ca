/// Apple's AccelerometerGraph sample filters (`AccelerometerFilter.m`, version 2.5), reproduced
/// exactly: the same constants, the same arithmetic order.
///
/// The sample defines `RC = 1 / cutoff` (not `1 / (2π·cutoff)`, so "5 Hz" there is an RC
/// low-pass with a 0.8 Hz corner) and
/// - low-pass: `α = dt / (dt + RC)`, `y ← x·α + y·(1 − α)`;
/// - high-pass: `α = RC / (dt + RC)`, `y ← α·(y + x − x_previous)`.
///
/// With `adaptive`, `d = clamp(| |y| − |x| | / 0.02 − 1, 0, 1)` compares the Euclidean norms of
/// the filter's state and the new input (in g: `minimumStep` = 0.02 g,
/// `noiseAttenuation` = 3) and
/// - low-pass: `α ← (1 − d)·α/3 + d·α` (smooths 3× harder unless the norm jumps);
/// - high-pass: `α ← d·α/3 + (1 − d)·α`.
/// Note the detection looks only at the norm: a pure rotation of gravity (the tilt step) keeps
/// the norm and is filtered at the slow rate.
///
/// Vector values use the norm of the whole vector (the sample's x, y, z); a scalar uses its
/// magnitude. `start: .zero` reproduces the sample from its first call (its state starts at
/// zero); `.firstInput` (default) starts in the steady state. `dt` from `process(_:dt:)`
/// recomputes α (the sample used a fixed update interval). Recovery policy: see ``Filter``.
public struct AccelerometerGraphFilter<Value: SignalValue>: TimeAwareFilter {
    public typealias Scalar = Value.Scalar

    /// The sample's `kAccelerometerMinStep`, in g.
    public static var minimumStep: Scalar { 0.02 }
    /// The sample's `kAccelerometerNoiseAttenuation`.
    public static var noiseAttenuation: Scalar { 3 }

    /// Low-pass or high-pass.
    public let kind: FilterPass
    /// Adaptive mode as in the sample.
    public let adaptive: Bool
    /// `RC = 1 / cutoff`, seconds.
    public let timeConstant: Scalar
    /// The filter constant at the nominal samplePeriod.
    public let filterConstant: Scalar
    /// How the state is initialised.
    public let start: FilterStart
    public var samplePeriod: SamplePeriod<Scalar>
    @usableFromInline var state: Value = .zero
    @usableFromInline var previousInput: Value = .zero
    @usableFromInline var started = false

    /// - Parameters:
    ///   - kind: low-pass or high-pass.
    ///   - cutoffFrequency: the sample's "cutoff" in Hz (RC = 1/cutoff).
    ///   - sampleRate: nominal rate in Hz.
    ///   - adaptive: the sample's adaptive option.
    ///   - start: state initialisation (`.zero` is the sample's behaviour).
    /// - Throws: `FilterParameterError` for a non-positive or non-finite parameter.
    public init(kind: FilterPass, cutoffFrequency: Double, sampleRate: Double, adaptive: Bool,
                start: FilterStart = .firstInput) throws(FilterParameterError) {
        try requirePositive(cutoffFrequency, "cutoff")
        try requirePositive(sampleRate, "rate")
        self.kind = kind
        self.adaptive = adaptive
        self.start = start
        let dt = Scalar(1 / sampleRate)
        timeConstant = Scalar(1 / cutoffFrequency)
        filterConstant = kind == .lowPass ? dt / (dt + timeConstant) : timeConstant / (dt + timeConstant)
        samplePeriod = SamplePeriod(sampleRate: sampleRate)
    }

    /// `sqrt(x*x + y*y + z*z)` summed left to right like the sample's `Norm`.
    @inlinable
    static func norm(_ v: Value) -> Scalar {
        var sum: Scalar = 0
        for i in 0..<Value.laneCount {
            let lane = v.lane(i)
            sum += lane * lane
        }
        return sum.squareRoot()
    }

    @inlinable
    public mutating func advance(_ input: Value, dt: Scalar) -> Value {
        if _slowPath(!started) {
            started = true
            if start == .firstInput {
                state = kind == .lowPass ? input : .zero
                previousInput = input
                return state
            }
        }
        let constant: Scalar
        if dt == samplePeriod.nominal {
            constant = filterConstant
        } else {
            constant = kind == .lowPass ? dt / (dt + timeConstant) : timeConstant / (dt + timeConstant)
        }
        var alpha = constant
        if adaptive {
            let change = (Self.norm(state) - Self.norm(input)).magnitude / Self.minimumStep - 1
            let d = Swift.min(Swift.max(change, 0), 1)
            alpha = kind == .lowPass
                ? (1 - d) * constant / Self.noiseAttenuation + d * constant
                : d * constant / Self.noiseAttenuation + (1 - d) * constant
        }
        let next = kind == .lowPass
            ? alpha * input + (1 - alpha) * state
            : alpha * (state + input - previousInput)
        guard next.isFinite else { return restart(input) }
        state = next
        previousInput = input
        return next
    }

    @inline(never) @usableFromInline
    mutating func restart(_ input: Value) -> Value {
        state = kind == .lowPass ? input : .zero
        previousInput = input
        return state
    }

    @inlinable
    public var lastOutput: Value { state }

    public mutating func reset() {
        state = .zero
        previousInput = .zero
        started = false
        samplePeriod.reset()
    }
}
