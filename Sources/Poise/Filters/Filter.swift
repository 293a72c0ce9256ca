/// A causal filter over a stream of samples: one output per input.
///
/// Filters are value types: copying a filter forks its state, and `reset()` returns it to the
/// state of a freshly made filter. `process` allocates nothing.
///
/// ## Time
/// Every filter is designed for a nominal sample rate. `process(_:)` assumes one nominal sample
/// period has passed since the previous input; `process(_:dt:)` passes the real period in
/// seconds (irregular timestamps). Filters whose design depends on time (one-pole by cutoff,
/// AccelerometerGraph, One Euro, Poise adaptive) recompute their coefficient from `dt`;
/// fixed-rate designs (Butterworth, the fixed-factor forms) ignore it and say so. A `dt` that is
/// not finite or not positive (a repeated or backwards timestamp) counts as one nominal period:
/// the sensor still delivered a new measurement.
///
/// ## Non-finite input (recovery policy, shared by every Poise filter)
/// An input with a NaN or infinite lane is rejected: the state is left untouched and the
/// previous output is returned again (zero before the first accepted input). For time-aware
/// filters the rejected sample's time is carried over to the next accepted one. If a finite
/// input would drive the output to infinity (overflow near the type's largest value), the filter
/// restarts from that input as if it were the first one; if even that overflows, it restarts from
/// zero and returns zero. A filter therefore never emits NaN or infinity for finite input.
public protocol Filter<Value>: Sendable {
    /// The sample type: a scalar or a SIMD vector of `Float`/`Double`, filtered lane by lane.
    associatedtype Value: SignalValue

    /// Filters one sample taken one nominal sample period after the previous one.
    mutating func process(_ input: Value) -> Value

    /// Filters one sample taken `dt` seconds after the previous one.
    mutating func process(_ input: Value, dt: Double) -> Value

    /// Returns the filter to the state of a freshly made one.
    mutating func reset()

    /// Filters a buffer, one nominal period per sample: `output[i]` is exactly what
    /// `process(input[i])` would return in a loop (a default implementation is that loop;
    /// filters may provide a faster one with identical results).
    ///
    /// - Precondition: `output.count >= input.count`.
    /// - Complexity: O(n), no allocation.
    mutating func process(_ input: UnsafeBufferPointer<Value>, into output: UnsafeMutableBufferPointer<Value>)

    /// Filters a buffer with per-sample periods in seconds: `output[i]` is exactly what
    /// `process(input[i], dt: dt[i])` would return in a loop (a default implementation is that
    /// loop; filters may provide a faster one with identical results).
    ///
    /// - Precondition: `dt.count >= input.count` and `output.count >= input.count`.
    /// - Complexity: O(n), no allocation.
    mutating func process(_ input: UnsafeBufferPointer<Value>, dt: UnsafeBufferPointer<Double>,
                          into output: UnsafeMutableBufferPointer<Value>)
}

/// How a filter's memory is initialised before the first input.
public enum FilterStart: String, Sendable, Codable, CaseIterable {
    /// The first accepted input initialises the state to the steady state for that constant
    /// input (a low-pass outputs it unchanged, a high-pass outputs zero). Default: no start-up
    /// transient.
    case firstInput = "first"
    /// The state starts at zero, as in Apple's AccelerometerGraph and `scipy.signal.sosfilt`
    /// without `zi`: the output rises from zero.
    case zero = "zero"
}

/// Which side of the cutoff a filter passes.
public enum FilterPass: String, Sendable, Codable, CaseIterable {
    /// Passes slow changes (gravity, posture), removes fast ones (noise, shake).
    case lowPass = "lowpass"
    /// Passes fast changes (user acceleration), removes slow ones (gravity).
    case highPass = "highpass"
}

extension Filter {
    /// The per-sample loop (default for ``Filter/process(_:into:)``).
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, into output: UnsafeMutableBufferPointer<Value>) {
        precondition(output.count >= input.count, "output buffer shorter than input")
        for i in 0..<input.count { output[i] = process(input[i]) }
    }

    /// The per-sample loop with periods (default for ``Filter/process(_:dt:into:)``):
    /// `output[i] = process(input[i], dt: dt[i])`.
    ///
    /// - Precondition: `dt.count >= input.count` and `output.count >= input.count`.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Value>, dt: UnsafeBufferPointer<Double>,
                                 into output: UnsafeMutableBufferPointer<Value>) {
        precondition(output.count >= input.count && dt.count >= input.count, "buffer shorter than input")
        for i in 0..<input.count { output[i] = process(input[i], dt: dt[i]) }
    }

    /// Filters an array, one nominal period per sample. Equals the per-sample loop exactly.
    @inlinable
    public mutating func process(_ input: [Value]) -> [Value] {
        var output = [Value](repeating: .zero, count: input.count)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { process(source, into: $0) }
        }
        return output
    }

    /// Filters an array with per-sample periods in seconds (`dt[i]` precedes `input[i]`).
    /// Equals the per-sample loop exactly.
    ///
    /// - Precondition: `dt.count == input.count`.
    @inlinable
    public mutating func process(_ input: [Value], dt: [Double]) -> [Value] {
        precondition(dt.count == input.count, "one dt per input sample")
        var output = [Value](repeating: .zero, count: input.count)
        input.withUnsafeBufferPointer { source in
            dt.withUnsafeBufferPointer { periods in
                output.withUnsafeMutableBufferPointer { process(source, dt: periods, into: $0) }
            }
        }
        return output
    }
}

/// A filter whose update depends on the time step. Conformers implement `advance(_:dt:)` for a
/// finite input and get both `process` forms with the shared non-finite policy of ``Filter``:
/// a rejected input returns `lastOutput` and its time is carried to the next accepted input.
public protocol TimeAwareFilter: Filter {
    /// Period bookkeeping (nominal period, carried time of rejected samples).
    var samplePeriod: SamplePeriod<Value.Scalar> { get set }
    /// The most recent output (zero before the first input).
    var lastOutput: Value { get }
    /// Updates the state with a finite `input` taken `dt` seconds (> 0) after the previous one.
    mutating func advance(_ input: Value, dt: Value.Scalar) -> Value
}

extension TimeAwareFilter {
    @inlinable
    public mutating func process(_ input: Value) -> Value {
        guard input.isFinite else { samplePeriod.reject(.nan); return lastOutput }
        return advance(input, dt: samplePeriod.acceptNominal())
    }

    @inlinable
    public mutating func process(_ input: Value, dt: Double) -> Value {
        guard input.isFinite else { samplePeriod.reject(dt); return lastOutput }
        return advance(input, dt: samplePeriod.accept(dt))
    }
}

/// Sample-period bookkeeping shared by time-aware filters: validates `dt` and carries the time
/// of rejected (non-finite) samples over to the next accepted one.
@frozen
public struct SamplePeriod<Scalar: PoiseReal>: Sendable, Equatable {
    /// The nominal period in seconds (1 / sample rate).
    public let nominal: Scalar
    /// Time of rejected samples not yet accounted for, in seconds.
    @usableFromInline var carried: Scalar = 0

    /// - Parameter sampleRate: nominal rate in Hz (> 0).
    @inlinable
    public init(sampleRate: Double) {
        nominal = Scalar(1 / sampleRate)
    }

    /// The period to use for an accepted sample arriving `dt` seconds after the previous one.
    @inlinable @inline(__always)
    public mutating func accept(_ dt: Double) -> Scalar {
        let period = (dt > 0 && dt.isFinite) ? Scalar(dt) : nominal
        if carried == 0 { return period }
        let total = period + carried
        carried = 0
        return total
    }

    /// The period for an accepted sample one nominal period after the previous one.
    @inlinable @inline(__always)
    public mutating func acceptNominal() -> Scalar {
        if carried == 0 { return nominal }
        let total = nominal + carried
        carried = 0
        return total
    }

    /// Records a rejected sample that arrived `dt` seconds after the previous one.
    @inlinable
    public mutating func reject(_ dt: Double) {
        carried += (dt > 0 && dt.isFinite) ? Scalar(dt) : nominal
    }

    /// Forgets carried time.
    @inlinable
    public mutating func reset() { carried = 0 }
}

/// Validation errors for filter parameters (also reported by `FilterSpec` with the token).
public struct FilterParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parameter's name as written in a filter spec (for example `cutoff`).
    public var parameter: String
    /// What is wrong, in words.
    public var message: String

    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }

    public var description: String { "\(parameter): \(message)" }
}

func requirePositive(_ value: Double, _ name: String) throws(FilterParameterError) {
    guard value > 0, value.isFinite else {
        throw FilterParameterError(parameter: name, message: "must be a positive finite number, got \(value)")
    }
}

func requireBelowNyquist(_ frequency: Double, _ name: String, sampleRate: Double) throws(FilterParameterError) {
    try requirePositive(sampleRate, "rate")
    try requirePositive(frequency, name)
    guard frequency < sampleRate / 2 else {
        throw FilterParameterError(parameter: name,
                                   message: "\(frequency) Hz must be below the Nyquist frequency \(sampleRate / 2) Hz")
    }
}
