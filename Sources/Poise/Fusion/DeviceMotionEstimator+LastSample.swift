extension DeviceMotionEstimator {
    /// What `deviceMotion` reports of the last sample besides the state: its inputs and flags.
    /// Outputs only: the estimation never reads them, so they are not part of the saved
    /// `State` (after assigning a saved state they are those of this estimator's last update,
    /// until the next one).
    public struct LastSample: Sendable, Equatable {
        /// The last accelerometer sample, specific force in g, device frame (+1 g on the up axis
        /// at rest); zero when it was not finite.
        public var acceleration = SIMD3<Double>.zero
        /// The last gyroscope sample as measured (bias not removed), rad/s, device frame,
        /// right-handed (counter-clockwise positive seen from the tip of the axis).
        public var rotationRate = SIMD3<Double>.zero
        /// The last gyroscope sample that was integrated (finite, with a usable bias), as
        /// measured, rad/s, device frame: less the bias, the rate with which the outputs are
        /// carried `outputPrediction` ahead, so a sample that is not integrated moves no output.
        /// Zero before the first.
        public var integratedRotationRate = SIMD3<Double>.zero
        /// What the estimator did with the last sample.
        public var flags: DeviceMotion.Flags = []

        /// Before any sample: zero inputs, no flags.
        public init() {}
    }
}
