/// The earth frame the attitude is expressed in. All three have one axis vertical.
public enum EarthFrame: String, Sendable, Codable, CaseIterable {
    /// x east, y north, z up (the default; BROAD's ground truth uses it).
    case eastNorthUp = "enu"
    /// x north, y east, z down (aerospace).
    case northEastDown = "ned"
    /// x north, y west, z up (CoreMotion's `xMagneticNorthZVertical` / `xTrueNorthZVertical` axes).
    case northWestUp = "nwu"
}

extension EarthFrame {
    /// The rotation from ENU to this frame: `v_frame = q.act(v_enu)`.
    public var fromEastNorthUp: Quaternion<Double> {
        let h = 0.5.squareRoot()
        switch self {
        case .eastNorthUp: return .identity
        case .northEastDown: return Quaternion(w: 0, x: h, y: h, z: 0)
        case .northWestUp: return Quaternion(w: h, x: 0, y: 0, z: -h)
        }
    }
}
