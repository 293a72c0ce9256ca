/// The calibration of a device's sensors: for each sensor it calibrates, calibrated =
/// matrix · (raw − offset) (``SensorCorrection``). A sensor without an entry is left as read.
///
/// Units: accelerometer g, gyroscope rad/s, magnetometer µT (or the recording's arbitrary unit,
/// `magnetometerUnit` "au"); the device frame of the recording (+X right, +Y toward the top edge,
/// +Z out of the screen).
///
/// Stored as JSON (``json``, ``init(json:)``; the schema is in docs/calibration.md):
/// ```json
/// {
///   "format": "poise-calibration",
///   "version": 1,
///   "magnetometer": { "unit": "uT", "offset": [x, y, z], "matrix": [[…], […], […]], "field_strength": 48.9 },
///   "gyroscope": { "unit": "rad/s", "offset": [x, y, z] },
///   "accelerometer": { "unit": "g", "offset": [x, y, z], "matrix": [[…], […], […]] }
/// }
/// ```
/// `matrix` is optional (the identity when absent). Other numeric members of a sensor's object
/// (field strength, residuals, sample counts) describe the fit; they are kept in ``facts`` and do
/// not change what is applied.
public struct SensorCalibration: Sendable, Equatable {
    /// Accelerometer correction (g), if calibrated.
    public var accelerometer: SensorCorrection?
    /// Gyroscope correction (rad/s; the offset is the bias), if calibrated.
    public var gyroscope: SensorCorrection?
    /// Magnetometer correction (hard-iron offset and soft-iron matrix), if calibrated.
    public var magnetometer: SensorCorrection?
    /// Unit of the magnetometer's offset: "uT" (µT) or "au" (a recording in arbitrary units).
    public var magnetometerUnit: String
    /// Descriptive numbers per sensor ("magnetometer" → "field_strength" → 48.9), written next to
    /// the correction in the JSON.
    public var facts: [String: [String: Double]]

    /// A calibration; sensors left `nil` are not changed.
    public init(accelerometer: SensorCorrection? = nil, gyroscope: SensorCorrection? = nil,
                magnetometer: SensorCorrection? = nil, magnetometerUnit: String = "uT",
                facts: [String: [String: Double]] = [:]) {
        self.accelerometer = accelerometer; self.gyroscope = gyroscope; self.magnetometer = magnetometer
        self.magnetometerUnit = magnetometerUnit; self.facts = facts
    }

    /// The value of `format` in the JSON.
    public static let format = "poise-calibration"
    /// The schema version this library writes and reads.
    public static let version = 1

    /// Whether no sensor is calibrated.
    public var isEmpty: Bool { accelerometer == nil && gyroscope == nil && magnetometer == nil }

    /// Applies the corrections to a sample's acceleration, rotation rate and magnetic field. A
    /// sensor the calibration does not cover, and a magnetic field the sample lacks, are left as
    /// they are; `hasGyroscope` false leaves the rotation rate (then not a reading) untouched.
    @inlinable
    public func apply(to sample: inout MotionSample, hasGyroscope: Bool = true) {
        if let accelerometer { sample.acceleration = accelerometer.apply(sample.acceleration) }
        if hasGyroscope, let gyroscope { sample.rotationRate = gyroscope.apply(sample.rotationRate) }
        if let magnetometer, let field = sample.magneticField { sample.magneticField = magnetometer.apply(field) }
    }

    /// This calibration with the sensors `other` calibrates replaced by `other`'s (for updating a
    /// file with one sensor's new calibration).
    public func merging(_ other: SensorCalibration) -> SensorCalibration {
        var result = self
        if let a = other.accelerometer { result.accelerometer = a; result.facts["accelerometer"] = other.facts["accelerometer"] }
        if let g = other.gyroscope { result.gyroscope = g; result.facts["gyroscope"] = other.facts["gyroscope"] }
        if let m = other.magnetometer {
            result.magnetometer = m; result.magnetometerUnit = other.magnetometerUnit
            result.facts["magnetometer"] = other.facts["magnetometer"]
        }
        return result
    }
}
