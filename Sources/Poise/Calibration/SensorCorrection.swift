/// The correction of one three-axis sensor: calibrated = matrix · (raw − offset).
///
/// Units are the sensor's: for the magnetometer the offset is the hard-iron offset in µT (or the
/// recording's arbitrary unit) and the matrix the soft-iron matrix (dimensionless, symmetric,
/// determinant 1 from ``MagnetometerCalibrator``); for the gyroscope the offset is the bias in
/// rad/s and the matrix the identity; for the accelerometer the offset is in g and the matrix
/// holds the scale and the cross-axis terms the data determined. Vectors are in the device frame
/// (+X right, +Y toward the top edge, +Z out of the screen).
public struct SensorCorrection: Sendable, Equatable {
    /// Subtracted first, in the sensor's unit.
    public var offset: SIMD3<Double>
    /// Applied after the offset; dimensionless.
    public var matrix: Matrix3

    /// A correction; the matrix defaults to the identity (an offset only, such as a gyro bias).
    public init(offset: SIMD3<Double>, matrix: Matrix3 = .scaledIdentity(1)) {
        self.offset = offset
        self.matrix = matrix
    }

    /// No change.
    public static let identity = SensorCorrection(offset: .zero)

    /// matrix · (raw − offset).
    @inlinable
    public func apply(_ raw: SIMD3<Double>) -> SIMD3<Double> {
        matrix * (raw - offset)
    }

    /// Whether every number is finite.
    public var isFinite: Bool {
        let all = [offset, matrix.r0, matrix.r1, matrix.r2]
        return all.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    }
}
