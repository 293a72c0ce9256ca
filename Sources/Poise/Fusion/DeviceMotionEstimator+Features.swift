extension DeviceMotionEstimator {
    /// The configuration switches the per-sample update tests, one bit each, so the update's
    /// copy for the default 9D configuration has them as constants and a single byte compare
    /// selects it.
    @usableFromInline
    struct Features: OptionSet, Sendable {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The rest detector runs (`restBiasEstimation` or `magneticDisturbanceRejection`).
        @inlinable static var restDetection: Features { Features(rawValue: 1 << 0) }
        /// The accelerometer takes part in the rest test and the bias is learned at rest.
        @inlinable static var restBiasEstimation: Features { Features(rawValue: 1 << 1) }
        /// A 9D reference: the magnetometer is used.
        @inlinable static var magnetometer: Features { Features(rawValue: 1 << 2) }
        /// A magnetometer sample equal to the last one applied is skipped.
        @inlinable static var skipHeldMagnetometerSamples: Features { Features(rawValue: 1 << 3) }
        /// `correctionInterval` 1 (VQF's schedule): every sample completes a block, so its rest
        /// low-passes run before its rest test.
        @inlinable static var correctionEverySample: Features { Features(rawValue: 1 << 4) }

        /// The default configuration's, with a magnetometer.
        @inlinable static var default9D: Features { [.restDetection, .restBiasEstimation, .magnetometer] }

        /// The switches of `configuration` with `correctionInterval` samples per correction step.
        init(configuration p: DeviceMotionConfiguration, correctionInterval: Int) {
            var features: Features = []
            if p.restBiasEstimation || p.magneticDisturbanceRejection { features.insert(.restDetection) }
            if p.restBiasEstimation { features.insert(.restBiasEstimation) }
            if p.reference.usesMagnetometer { features.insert(.magnetometer) }
            if p.skipHeldMagnetometerSamples { features.insert(.skipHeldMagnetometerSamples) }
            if correctionInterval == 1 { features.insert(.correctionEverySample) }
            self = features
        }
    }
}
