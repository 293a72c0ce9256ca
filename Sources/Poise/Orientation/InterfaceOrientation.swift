/// The orientation of the user interface, with UIKit's `UIInterfaceOrientation` semantics.
///
/// | case | home button / bottom edge | device turned (seen from the front) | screen x | screen y | alignment |
/// |---|---|---|---|---|---|
/// | `portrait` | bottom | not turned | +X | +Y | `+X+Y+Z` |
/// | `portraitUpsideDown` | top | 180° | −X | −Y | `-X-Y+Z` |
/// | `landscapeLeft` | **left** | 90° clockwise (top edge points right) | +Y | −X | `+Y-X+Z` |
/// | `landscapeRight` | **right** | 90° counter-clockwise (top edge points left) | −Y | +X | `-Y+X+Z` |
///
/// Screen axes: +x to the right of the displayed content, +y up the content, +z out of the
/// screen (the device z axis in every case). Note UIKit's naming: interface `landscapeLeft`
/// is *device* `landscapeRight` (see `DeviceOrientation`), because the content turns the
/// opposite way to the device. Android's `Display.getRotation()` `ROTATION_90` corresponds to
/// `landscapeRight` (`remapCoordinateSystem(inR, AXIS_Y, AXIS_MINUS_X, outR)`) and
/// `ROTATION_270` to `landscapeLeft` (`AXIS_MINUS_Y, AXIS_X`).
@frozen
public enum InterfaceOrientation: String, Sendable, Hashable, Codable, CaseIterable {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight

    /// The alignment taking device coordinates to screen coordinates (`screen = M · device`).
    @inlinable
    public var alignment: AxisAlignment {
        switch self {
        case .portrait: AxisAlignment(x: .plusX, y: .plusY, z: .plusZ)!
        case .portraitUpsideDown: AxisAlignment(x: .minusX, y: .minusY, z: .plusZ)!
        case .landscapeLeft: AxisAlignment(x: .plusY, y: .minusX, z: .plusZ)!
        case .landscapeRight: AxisAlignment(x: .minusY, y: .plusX, z: .plusZ)!
        }
    }

    /// The device orientation (held upright) that shows the interface this way.
    @inlinable
    public var deviceOrientation: DeviceOrientation {
        switch self {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        }
    }
}

/// The physical orientation of the device, with UIKit's `UIDeviceOrientation` semantics.
///
/// | case | device held | up direction in device axes (specific force reads +1 g on it) |
/// |---|---|---|
/// | `portrait` | upright, home button at the bottom | +Y |
/// | `portraitUpsideDown` | upright, home button at the top | −Y |
/// | `landscapeLeft` | upright, home button on the **right** (turned 90° counter-clockwise) | +X |
/// | `landscapeRight` | upright, home button on the **left** (turned 90° clockwise) | −X |
/// | `faceUp` | flat, screen up | +Z |
/// | `faceDown` | flat, screen down | −Z |
/// | `unknown` | not determined yet | — |
@frozen
public enum DeviceOrientation: String, Sendable, Hashable, Codable, CaseIterable {
    case unknown, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown

    /// The device axis that points up in this orientation (nil for `unknown`).
    @inlinable
    public var upAxis: SignedAxis? {
        switch self {
        case .unknown: nil
        case .portrait: .plusY
        case .portraitUpsideDown: .minusY
        case .landscapeLeft: .plusX
        case .landscapeRight: .minusX
        case .faceUp: .plusZ
        case .faceDown: .minusZ
        }
    }

    /// The interface orientation that keeps content upright; nil when flat or unknown.
    @inlinable
    public var interfaceOrientation: InterfaceOrientation? {
        switch self {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        case .faceUp, .faceDown, .unknown: nil
        }
    }

    /// True for `faceUp` and `faceDown`.
    @inlinable public var isFlat: Bool { self == .faceUp || self == .faceDown }
}

/// Android's `SensorManager.remapCoordinateSystem(inR, X, Y, outR)` for 3×3 matrices.
///
/// `matrix` is Android's rotation matrix (from `getRotationMatrix`): it takes device
/// coordinates to world coordinates, which is also Poise's `Quaternion.rotationMatrix` of a
/// device → earth attitude. `x` is the axis of the *new* frame that the device X axis
/// coincides with, `y` the new axis the device Y axis coincides with; the device Z axis is
/// completed as a right-handed frame, so the result is always a rotation. As in Android, column
/// `index(x)` of the result is `±` column 0 of the input, and so on.
///
/// Example: `remapCoordinateSystem(R, x: .plusY, y: .minusX)` is Android's
/// `(AXIS_Y, AXIS_MINUS_X)` for `ROTATION_90`, and equals
/// `FrameRemap(orientation: .landscapeRight).attitude(q).rotationMatrix`.
///
/// - Returns: `nil` when `x` and `y` share an axis (Android returns `false`).
@inlinable
public func remapCoordinateSystem<Scalar: PoiseReal>(_ matrix: RotationMatrix<Scalar>, x: SignedAxis, y: SignedAxis) -> RotationMatrix<Scalar>? {
    guard x.index != y.index else { return nil }
    // The new frame's axis a.index equals ±device axis; z completes: e_x × e_y = e_z in the device
    // frame, so the new-frame image of device Z is (image of X) × (image of Y).
    let zVector = cross(x.unitVector(Scalar.self), y.unitVector(Scalar.self))
    let zIndex = 3 - x.index - y.index
    let z = SignedAxis(index: zIndex, negative: zVector[zIndex] < 0)
    var columns = (SIMD3<Scalar>.zero, SIMD3<Scalar>.zero, SIMD3<Scalar>.zero)
    let input = matrix.transposed.rows // input columns
    func place(_ target: SignedAxis, _ column: SIMD3<Scalar>) {
        let c = target.isNegative ? -column : column
        switch target.index { case 0: columns.0 = c; case 1: columns.1 = c; default: columns.2 = c }
    }
    place(x, input.0); place(y, input.1); place(z, input.2)
    return RotationMatrix(rows: columns).transposed
}
