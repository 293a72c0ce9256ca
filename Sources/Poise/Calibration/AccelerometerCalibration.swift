/// The result of ``AccelerometerCalibrator/calibrate(_:model:detector:)``: offset and
/// scale/cross-axis matrix of an accelerometer, g, and the evidence for them.
public struct AccelerometerCalibration: Sendable, Equatable {
    /// calibrated = matrix · (raw − offset); offset in g, matrix dimensionless and symmetric.
    public var correction: SensorCorrection
    /// The model fitted: `.full` (scale and cross-axis terms) when at least nine distinct
    /// orientations determine it, else `.diagonal` (scale per axis).
    public var model: EllipsoidModel
    /// Distinct orientations among the still segments (mean directions at least
    /// ``AccelerometerCalibrator/distinctAngle`` apart).
    public var orientations: Int
    /// Still segments used.
    public var segments: Int
    /// Still segments left out because a reading in them is not finite.
    public var nonFiniteSegments: Int
    /// RMS of (|raw segment mean| − 1 g) over the segments, g.
    public var residualBefore: Double
    /// RMS of (|calibrated segment mean| − 1 g) over the segments, g.
    public var residual: Double

    /// The calibration as a ``SensorCalibration`` with only the accelerometer.
    public func sensorCalibration() -> SensorCalibration {
        SensorCalibration(accelerometer: correction, facts: ["accelerometer": [
            "orientations": Double(orientations), "segments": Double(segments),
            "residual_rms_g": residual, "residual_rms_before_g": residualBefore,
        ]])
    }
}
