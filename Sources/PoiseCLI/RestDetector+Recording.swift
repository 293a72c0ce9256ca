import Poise
import PoiseRecording

extension RestDetector {
    /// The default rest detector using only the tests whose sensor `schema` has.
    ///
    /// - Throws: `RecordingError` when the file has neither an accelerometer nor a gyroscope.
    static func forRecording(_ schema: RecordingSchema, file: String, purpose: String) throws -> RestDetector {
        var detector = RestDetector()
        detector.useGyroscope = schema.hasGyroscope
        detector.useAccelerometer = schema.hasAccelerometer
        if !schema.hasGyroscope { try schema.require([.accelerometer], file: file, for: purpose) }
        return detector
    }
}
