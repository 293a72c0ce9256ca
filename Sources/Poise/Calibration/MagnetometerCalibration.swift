/// The result of ``MagnetometerCalibrator/calibrate(_:options:)-([SIMD3<Double>],_)``: the hard-iron offset and
/// soft-iron matrix, and the evidence for them.
public struct MagnetometerCalibration: Sendable, Equatable {
    /// calibrated = matrix · (raw − offset): offset = hard iron (the field's unit), matrix = soft
    /// iron (symmetric, determinant 1, so it changes the shape of the ellipsoid, not its volume).
    public var correction: SensorCorrection
    /// The model fitted.
    public var model: EllipsoidModel
    /// Strength of the field the calibrated sensor reads in every direction, the field's unit
    /// (the geometric mean radius of the fitted ellipsoid).
    public var fieldStrength: Double
    /// RMS of (|calibrated| − fieldStrength) over the samples kept, the field's unit.
    public var residual: Double
    /// |B| of the samples kept, as read.
    public var before: MagnitudeSpread
    /// |B| of the samples kept, calibrated.
    public var after: MagnitudeSpread
    /// |B| of every finite sample, calibrated (disturbed samples included).
    public var afterAll: MagnitudeSpread
    /// Coverage of the calibrated field directions of the samples kept.
    public var coverage: DirectionCoverage
    /// Samples given.
    public var samples: Int
    /// Samples left out as disturbed (|calibrated| too far from the field strength).
    public var rejected: Int
    /// Samples left out as not finite.
    public var nonFinite: Int
    /// Samples left out as saturated (at an axis's extreme reading, repeated; see the calibrator).
    public var saturated: Int
    /// Fits run (the first, then one after each outlier-rejection pass that changed the kept set).
    public var iterations: Int
    /// Advice about a weak but determined fit (low coverage, many rejected samples), in sentences.
    public var warnings: [String]

    /// The calibration as a ``SensorCalibration`` with only the magnetometer, and the fit's
    /// numbers as facts; `unit` "uT" or "au".
    public func sensorCalibration(unit: String = "uT") -> SensorCalibration {
        SensorCalibration(magnetometer: correction, magnetometerUnit: unit, facts: ["magnetometer": [
            "field_strength": fieldStrength, "residual_rms": residual,
            "magnitude_std_before": before.standardDeviation, "magnitude_std_after": after.standardDeviation,
            "sphere_coverage": coverage.sphereFraction, "samples": Double(samples), "rejected": Double(rejected),
        ]])
    }
}
