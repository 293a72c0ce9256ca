import Poise

/// Hard- and soft-iron distortion of a simulated magnetometer, from the device's own magnetised
/// and magnetically soft parts: the sensor sees softIron · B + hardIron, µT, device frame, before
/// its ``SensorErrorModel`` (noise, bias, scale, misalignment) is applied.
///
/// A calibration (``MagnetometerCalibrator``) undoes it up to a rotation and a common scale: with
/// a symmetric `softIron`, its matrix times `softIron` is a multiple of the identity and its
/// offset is `hardIron`.
public struct MagnetometerDistortion: Sendable, Equatable {
    /// Field of the device's magnetised parts, µT, device frame.
    public var hardIron: SIMD3<Double>
    /// How the device's soft iron bends and scales the outside field (dimensionless).
    public var softIron: Matrix3

    /// A distortion; the default is none (zero offset, identity matrix).
    public init(hardIron: SIMD3<Double> = .zero, softIron: Matrix3 = .scaledIdentity(1)) {
        self.hardIron = hardIron
        self.softIron = softIron
    }

    /// No distortion.
    public static let none = MagnetometerDistortion()

    /// The field the sensor sees for a device-frame field `field`, µT.
    @inlinable
    public func apply(_ field: SIMD3<Double>) -> SIMD3<Double> { softIron * field + hardIron }
}
