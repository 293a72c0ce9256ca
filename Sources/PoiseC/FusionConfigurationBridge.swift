import CPoise
import Poise

/// Conversion between `poise_fusion_config` and `DeviceMotionConfiguration`, with the range
/// checks the C API makes before an estimator is built.
enum FusionConfigurationBridge {
    static let frames: [EarthFrame] = [.eastNorthUp, .northEastDown, .northWestUp]
    static let references: [AttitudeReference] = [.arbitraryZVertical, .arbitraryCorrectedZVertical,
                                                  .magneticNorthZVertical, .trueNorthZVertical]

    static func cConfig(_ c: DeviceMotionConfiguration) -> poise_fusion_config {
        var o = poise_fusion_config()
        o.sample_rate = c.sampleRate
        o.earth_frame = Int32(frames.firstIndex(of: c.earthFrame) ?? 0)
        o.reference = Int32(references.firstIndex(of: c.reference) ?? 2)
        o.declination = c.declination
        o.accelerometer_time_constant = c.accelerometerTimeConstant
        o.magnetometer_time_constant = c.magnetometerTimeConstant
        o.motion_bias_estimation = c.motionBiasEstimation ? 1 : 0
        o.rest_bias_estimation = c.restBiasEstimation ? 1 : 0
        o.magnetic_disturbance_rejection = c.magneticDisturbanceRejection ? 1 : 0
        o.bias_sigma_initial = c.biasSigmaInitial
        o.bias_forgetting_time = c.biasForgettingTime
        o.bias_clip = c.biasClip
        o.bias_sigma_motion = c.biasSigmaMotion
        o.bias_vertical_forgetting_factor = c.biasVerticalForgettingFactor
        o.bias_sigma_rest = c.biasSigmaRest
        o.rest_minimum_time = c.restMinimumTime
        o.rest_filter_time_constant = c.restFilterTimeConstant
        o.rest_gyroscope_threshold = c.restGyroscopeThreshold
        o.rest_accelerometer_threshold = c.restAccelerometerThreshold
        o.magnetic_current_time_constant = c.magneticCurrentTimeConstant
        o.magnetic_reference_time_constant = c.magneticReferenceTimeConstant
        o.magnetic_norm_threshold = c.magneticNormThreshold
        o.magnetic_dip_threshold = c.magneticDipThreshold
        o.magnetic_new_field_time = c.magneticNewFieldTime
        o.magnetic_new_first_field_time = c.magneticNewFirstFieldTime
        o.magnetic_new_field_minimum_rate = c.magneticNewFieldMinimumRate
        o.magnetic_minimum_undisturbed_time = c.magneticMinimumUndisturbedTime
        o.magnetic_maximum_rejection_time = c.magneticMaximumRejectionTime
        o.magnetic_rejection_factor = c.magneticRejectionFactor
        o.skip_held_magnetometer_samples = c.skipHeldMagnetometerSamples ? 1 : 0
        o.acceleration_rejection_threshold = c.accelerationRejectionThreshold
        o.maximum_time_step = c.maximumTimeStep
        o.correction_rate = c.correctionRate
        o.magnetic_offset_estimation = c.magneticOffsetEstimation ? 1 : 0
        o.magnetic_offset_time_constant = c.magneticOffsetTimeConstant
        o.magnetic_offset_minimum_coverage = c.magneticOffsetMinimumCoverage
        o.magnetic_offset_maximum_residual = c.magneticOffsetMaximumResidual
        o.magnetic_direction_threshold = c.magneticDirectionThreshold
        o.magnetic_direction_time_constant = c.magneticDirectionTimeConstant
        o.magnetic_direction_gain_factor = c.magneticDirectionGainFactor
        o.output_prediction = c.outputPrediction
        o.fixed_time_step = c.fixedTimeStep ? 1 : 0
        return o
    }

    /// Times and time constants, s: finite, in [0 or >0, 1e7] (about four months; far longer
    /// ones make the low-pass coefficients subnormal, and updates thousands of times slower).
    static func duration(_ value: Double, _ name: String, zeroAllowed: Bool = false) throws(CError) -> Double {
        guard value.isFinite, zeroAllowed ? value >= 0 : value > 0, value <= 1e7 else {
            throw .invalid("\(name) must be a finite number \(zeroAllowed ? ">=" : ">") 0 and <= 1e7 s, got \(value)")
        }
        return value
    }

    /// The Swift configuration of `o`, or `POISE_ERROR_INVALID_ARGUMENT` naming the first bad field.
    static func configuration(_ o: poise_fusion_config) throws(CError) -> DeviceMotionConfiguration {
        func positive(_ value: Double, _ name: String) throws(CError) -> Double {
            guard value.isFinite, value > 0 else { throw .invalid("\(name) must be a finite number > 0, got \(value)") }
            return value
        }
        func nonNegative(_ value: Double, _ name: String) throws(CError) -> Double {
            guard value.isFinite, value >= 0 else { throw .invalid("\(name) must be a finite number >= 0, got \(value)") }
            return value
        }
        func finite(_ value: Double, _ name: String) throws(CError) -> Double {
            guard value.isFinite else { throw .invalid("\(name) must be finite, got \(value)") }
            return value
        }
        func duration(_ value: Double, _ name: String, zeroAllowed: Bool = false) throws(CError) -> Double {
            try FusionConfigurationBridge.duration(value, name, zeroAllowed: zeroAllowed)
        }
        func flag(_ value: Int32, _ name: String) throws(CError) -> Bool {
            guard value == 0 || value == 1 else { throw .invalid("\(name) must be 0 or 1, got \(value)") }
            return value == 1
        }
        var c = DeviceMotionConfiguration()
        try requireInRange(o.sample_rate, .sampleRate, "sample_rate")
        c.sampleRate = o.sample_rate
        guard o.earth_frame >= 0, Int(o.earth_frame) < frames.count else {
            throw .invalid("earth_frame must be POISE_EARTH_ENU (0), NED (1) or NWU (2), got \(o.earth_frame)")
        }
        c.earthFrame = frames[Int(o.earth_frame)]
        guard o.reference >= 0, Int(o.reference) < references.count else {
            throw .invalid("reference must be a poise_reference 0…3, got \(o.reference)")
        }
        c.reference = references[Int(o.reference)]
        c.declination = try finite(o.declination, "declination")
        c.accelerometerTimeConstant = try duration(o.accelerometer_time_constant, "accelerometer_time_constant")
        c.magnetometerTimeConstant = try duration(o.magnetometer_time_constant, "magnetometer_time_constant")
        c.motionBiasEstimation = try flag(o.motion_bias_estimation, "motion_bias_estimation")
        c.restBiasEstimation = try flag(o.rest_bias_estimation, "rest_bias_estimation")
        c.magneticDisturbanceRejection = try flag(o.magnetic_disturbance_rejection, "magnetic_disturbance_rejection")
        c.biasSigmaInitial = try positive(o.bias_sigma_initial, "bias_sigma_initial")
        c.biasForgettingTime = try duration(o.bias_forgetting_time, "bias_forgetting_time")
        c.biasClip = try positive(o.bias_clip, "bias_clip")
        c.biasSigmaMotion = try positive(o.bias_sigma_motion, "bias_sigma_motion")
        c.biasVerticalForgettingFactor = try positive(o.bias_vertical_forgetting_factor, "bias_vertical_forgetting_factor")
        c.biasSigmaRest = try positive(o.bias_sigma_rest, "bias_sigma_rest")
        c.restMinimumTime = try duration(o.rest_minimum_time, "rest_minimum_time", zeroAllowed: true)
        c.restFilterTimeConstant = try duration(o.rest_filter_time_constant, "rest_filter_time_constant")
        c.restGyroscopeThreshold = try positive(o.rest_gyroscope_threshold, "rest_gyroscope_threshold")
        c.restAccelerometerThreshold = try positive(o.rest_accelerometer_threshold, "rest_accelerometer_threshold")
        c.magneticCurrentTimeConstant = try duration(o.magnetic_current_time_constant, "magnetic_current_time_constant")
        c.magneticReferenceTimeConstant = try duration(o.magnetic_reference_time_constant, "magnetic_reference_time_constant")
        c.magneticNormThreshold = try positive(o.magnetic_norm_threshold, "magnetic_norm_threshold")
        c.magneticDipThreshold = try positive(o.magnetic_dip_threshold, "magnetic_dip_threshold")
        c.magneticNewFieldTime = try duration(o.magnetic_new_field_time, "magnetic_new_field_time", zeroAllowed: true)
        c.magneticNewFirstFieldTime = try duration(o.magnetic_new_first_field_time, "magnetic_new_first_field_time", zeroAllowed: true)
        c.magneticNewFieldMinimumRate = try nonNegative(o.magnetic_new_field_minimum_rate, "magnetic_new_field_minimum_rate")
        c.magneticMinimumUndisturbedTime = try duration(o.magnetic_minimum_undisturbed_time, "magnetic_minimum_undisturbed_time", zeroAllowed: true)
        c.magneticMaximumRejectionTime = try duration(o.magnetic_maximum_rejection_time, "magnetic_maximum_rejection_time", zeroAllowed: true)
        c.magneticRejectionFactor = try nonNegative(o.magnetic_rejection_factor, "magnetic_rejection_factor")
        c.skipHeldMagnetometerSamples = try flag(o.skip_held_magnetometer_samples, "skip_held_magnetometer_samples")
        c.accelerationRejectionThreshold = try nonNegative(o.acceleration_rejection_threshold, "acceleration_rejection_threshold")
        c.maximumTimeStep = try duration(o.maximum_time_step, "maximum_time_step")
        c.correctionRate = try nonNegative(o.correction_rate, "correction_rate")
        c.magneticOffsetEstimation = try flag(o.magnetic_offset_estimation, "magnetic_offset_estimation")
        c.magneticOffsetTimeConstant = try duration(o.magnetic_offset_time_constant, "magnetic_offset_time_constant")
        c.magneticOffsetMinimumCoverage = try nonNegative(o.magnetic_offset_minimum_coverage, "magnetic_offset_minimum_coverage")
        c.magneticOffsetMaximumResidual = try nonNegative(o.magnetic_offset_maximum_residual, "magnetic_offset_maximum_residual")
        c.magneticDirectionThreshold = try nonNegative(o.magnetic_direction_threshold, "magnetic_direction_threshold")
        c.magneticDirectionTimeConstant = try duration(o.magnetic_direction_time_constant, "magnetic_direction_time_constant")
        c.magneticDirectionGainFactor = try nonNegative(o.magnetic_direction_gain_factor, "magnetic_direction_gain_factor")
        c.outputPrediction = try nonNegative(o.output_prediction, "output_prediction")
        c.fixedTimeStep = try flag(o.fixed_time_step, "fixed_time_step")
        // No field of its own (poise_fusion_set_saturation_bias_hold_off sets it on a handle):
        // VQF's fixed sample time goes with VQF's handling of a clipped gyroscope (none), the
        // defaults' time step with the defaults' hold-off.
        if c.fixedTimeStep { c.saturationBiasHoldOff = 0 }
        return c
    }
}

@_cdecl("poise_fusion_config_default")
public func cFusionConfigDefault(_ config: UnsafeMutablePointer<poise_fusion_config>?, _ sampleRate: Double,
                                 _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let config else { throw .null("config") }
        try requireInRange(sampleRate, .sampleRate, "sample_rate")
        config.pointee = FusionConfigurationBridge.cConfig(DeviceMotionConfiguration(sampleRate: sampleRate))
    }
}

@_cdecl("poise_fusion_config_vqf")
public func cFusionConfigVQF(_ config: UnsafeMutablePointer<poise_fusion_config>?, _ sampleRate: Double, _ reference: Int32,
                             _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    FusionConfigurationBridge.fillPreset(config, sampleRate, reference, error) { .vqfDefaults(sampleRate: $0, reference: $1) }
}

@_cdecl("poise_fusion_config_fast")
public func cFusionConfigFast(_ config: UnsafeMutablePointer<poise_fusion_config>?, _ sampleRate: Double, _ reference: Int32,
                              _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    FusionConfigurationBridge.fillPreset(config, sampleRate, reference, error) { .fast(sampleRate: $0, reference: $1) }
}

extension FusionConfigurationBridge {
    /// Fills `config` with a preset at `sampleRate` Hz for the `reference` (a poise_reference).
    static func fillPreset(_ config: UnsafeMutablePointer<poise_fusion_config>?, _ sampleRate: Double, _ reference: Int32,
                           _ error: UnsafeMutablePointer<poise_error>?,
                           _ preset: (Double, AttitudeReference) -> DeviceMotionConfiguration) -> poise_status {
        guarded(error) { () throws(CError) in
            guard let config else { throw .null("config") }
            try requireInRange(sampleRate, .sampleRate, "sample_rate")
            guard reference >= 0, Int(reference) < references.count else { throw .invalid("reference must be a poise_reference 0…3, got \(reference)") }
            config.pointee = cConfig(preset(sampleRate, references[Int(reference)]))
        }
    }
}
