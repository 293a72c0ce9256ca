/// Which ellipsoids a calibration fit may return: how much of the sensor's distortion it solves
/// for besides the offset.
public enum EllipsoidModel: String, Sendable, Codable, CaseIterable {
    /// Offset and a symmetric 3×3 matrix (per-axis scale and cross-axis coupling): a general
    /// ellipsoid, 9 parameters. Needs directions spread in three dimensions.
    case full
    /// Offset and per-axis scale (an ellipsoid with axes along the sensor's): 6 parameters.
    case diagonal
    /// Offset only (a sphere): 4 parameters. For recordings that cover too few directions to
    /// determine the shape; the matrix is the identity.
    case offset

    /// Number of unknowns of the quadric.
    var parameterCount: Int {
        switch self {
        case .full: 9
        case .diagonal: 6
        case .offset: 4
        }
    }
}
