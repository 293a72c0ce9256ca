/// Poise's adaptive low-pass (spec name `adaptive`): very smooth at rest, a two-sample response
/// to real steps, and immune to single-sample spikes.
///
/// How it works (see docs/filters.md for the reasoning and measurements):
/// - **At rest** it is two cascaded one-pole RC low-passes (critically damped second order) with
///   cutoff `restCutoff` (default 0.5 Hz): `α_rest = dt / (dt + RC)`, `RC = 1/(2π·restCutoff)`.
///   The second pole removes the high-frequency noise a single pole lets through.
/// - **Step detection** uses the vector distance between the input and the output, not the
///   norm (Apple's adaptive filter compares norms, so it never notices a tilt, which keeps the
///   norm). The detector takes the *smaller* of the distances of the current and the previous
///   input to the output: one outlier sample cannot trigger it, two consecutive ones can.
/// - With `r = min(|x_n − y|, |x_{n−1} − y|) / threshold`, the blend
///   `g = clamp(r − 1, 0, 1)` rises from 0 (distance ≤ threshold) to 1 (≥ 2× threshold), and both
///   stages use `α = α_rest + (1 − α_rest)·g`. A step larger than twice the threshold snaps the
///   output to the input on its second sample: 2 samples to 90 % on the tilt and shake steps.
///   Slow motion is followed with a lag of about one threshold.
///
/// Units: `threshold` is in the input's unit (default 0.03, meant for accelerometer data in g:
/// about 5× the noise of a phone or IMU accelerometer at rest). Vector values use the Euclidean
/// distance of the whole vector (for independent channels, filter them as scalars). `dt` from
/// `process(_:dt:)` recomputes `α_rest`. Starts in the steady state at the first input.
/// Recovery policy: see ``Filter``.
public struct AdaptiveFilter<Value: SignalValue>: TimeAwareFilter {
    public typealias Scalar = Value.Scalar

    /// Default rest cutoff, Hz.
    public static var defaultRestCutoff: Double { 0.5 }
    /// Default step threshold, input units (g for accelerometer data).
    public static var defaultThreshold: Double { 0.03 }

    /// Cutoff of each rest stage in Hz.
    public let restCutoff: Scalar
    /// Distance below which the input counts as noise, input units.
    public let threshold: Scalar
    /// `RC = 1/(2π·restCutoff)`, seconds.
    @usableFromInline let timeConstant: Scalar
    @usableFromInline let restAlpha: Scalar
    public var samplePeriod: SamplePeriod<Scalar>
    @usableFromInline var first: Value = .zero
    @usableFromInline var output: Value = .zero
    @usableFromInline var previousInput: Value = .zero
    @usableFromInline var started = false

    /// - Parameters:
    ///   - restCutoff: Hz (> 0), default 0.5.
    ///   - threshold: input units (> 0), default 0.03.
    ///   - sampleRate: nominal rate in Hz (> 0).
    /// - Throws: `FilterParameterError` naming the bad parameter.
    public init(restCutoff: Double = defaultRestCutoff, threshold: Double = defaultThreshold,
                sampleRate: Double) throws(FilterParameterError) {
        try requirePositive(restCutoff, "cutoff")
        try requirePositive(threshold, "threshold")
        try requirePositive(sampleRate, "rate")
        self.restCutoff = Scalar(restCutoff)
        self.threshold = Scalar(threshold)
        let rc = 1 / (2 * Double.pi * restCutoff)
        timeConstant = Scalar(rc)
        restAlpha = Scalar((1 / sampleRate) / (1 / sampleRate + rc))
        samplePeriod = SamplePeriod(sampleRate: sampleRate)
    }

    @inlinable
    public mutating func advance(_ input: Value, dt: Scalar) -> Value {
        if _slowPath(!started) {
            started = true
            first = input
            output = input
            previousInput = input
            return input
        }
        let base = dt == samplePeriod.nominal ? restAlpha : dt / (dt + timeConstant)
        let distance = Swift.min((input - output).lengthSquared, (previousInput - output).lengthSquared).squareRoot()
        let blend = Swift.min(Swift.max(distance / threshold - 1, 0), 1)
        let alpha = base + (1 - base) * blend
        let nextFirst = first.addingProductFast(alpha, input - first)
        let nextOutput = output.addingProductFast(alpha, nextFirst - output)
        guard nextOutput.isFinite, nextFirst.isFinite else { return restart(input) }
        first = nextFirst
        output = nextOutput
        previousInput = input
        return nextOutput
    }

    @inline(never) @usableFromInline
    mutating func restart(_ input: Value) -> Value {
        first = input
        output = input
        previousInput = input
        return input
    }

    @inlinable
    public var lastOutput: Value { output }

    public mutating func reset() {
        first = .zero
        output = .zero
        previousInput = .zero
        started = false
        samplePeriod.reset()
    }
}
