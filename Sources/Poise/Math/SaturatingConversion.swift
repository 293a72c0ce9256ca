extension FixedWidthInteger {
    /// The value of `x` rounded toward zero, like `init(_:)`, but never trapping: values beyond
    /// the type's range give `max` or `min`, and NaN gives 0.
    ///
    /// For conversions of measured or user-given numbers (times, rates, ratios), where a
    /// nonsensical input must give a bounded number and an error message later, not a crash.
    @inlinable
    public init<Source: BinaryFloatingPoint>(saturating x: Source) {
        if x.isNaN { self = 0; return }
        if let exact = Self(exactly: x.rounded(.towardZero)) { self = exact; return }
        self = x < 0 ? .min : .max
    }
}
