/// A pipeline stage applying a ``SensorCalibration`` to the current acceleration, rotation rate
/// and magnetic field (calibrated = matrix · (raw − offset) per calibrated sensor).
///
/// Put it first, so every later stage (filters, fusion) sees calibrated signals; the raw sample
/// stays in `ProcessedSample.input`. It changes only the sensors the calibration covers, never
/// creates a magnetic field the sample lacks, and leaves the rotation rate alone when the
/// recording has no gyroscope. It is not a filtering stage (nothing is measured for it).
public struct CalibrationStage: PipelineStage {
    /// The calibration applied.
    public let calibration: SensorCalibration
    /// Whether the rotation rate is a reading (the recording has a gyroscope).
    public let hasGyroscope: Bool
    /// The spec that made the stage (`calibrate:file=cal.json`), or `calibrate`.
    public let description: String

    /// A stage applying `calibration`; `hasGyroscope` false leaves the rotation rate untouched.
    public init(calibration: SensorCalibration, hasGyroscope: Bool = true, description: String = "calibrate") {
        self.calibration = calibration
        self.hasGyroscope = hasGyroscope
        self.description = description
    }

    public var outputs: StageOutputs {
        var outputs: StageOutputs = []
        if calibration.accelerometer != nil { outputs.insert(.acceleration) }
        if calibration.magnetometer != nil || (hasGyroscope && calibration.gyroscope != nil) { outputs.insert(.rotation) }
        return outputs
    }

    public var measuredSignal: StageSignal? { nil }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        if let accelerometer = calibration.accelerometer { sample.acceleration = accelerometer.apply(sample.acceleration) }
        if hasGyroscope, let gyroscope = calibration.gyroscope { sample.rotationRate = gyroscope.apply(sample.rotationRate) }
        if let magnetometer = calibration.magnetometer, let field = sample.magneticField {
            sample.magneticField = magnetometer.apply(field)
        }
    }

    public mutating func reset() {}
}

extension StageCatalog {
    /// The catalog entry `calibrate:file=PATH`.
    public static var calibrationEntries: [Entry] {
        [
            Entry(name: "calibrate", usage: "calibrate:file=CAL.json",
                  summary: "apply a sensor calibration (poise calibrate): offset and matrix per calibrated sensor") { stage, context in
                try stage.requireKnown(keys: ["file"])
                guard let path = stage.value("file") else {
                    throw stage.error("calibrate needs the calibration file: calibrate:file=cal.json (made by poise calibrate)")
                }
                do throws(CalibrationError) {
                    let calibration = try SensorCalibration(contentsOf: path)
                    return CalibrationStage(calibration: calibration, hasGyroscope: context.hasGyroscope,
                                            description: "calibrate:file=\(path)")
                } catch {
                    throw stage.error(error.message, key: "file")
                }
            },
        ]
    }
}
