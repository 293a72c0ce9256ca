/// A fixed rotation from the sensor frame into another body frame (the screen, a vehicle, a
/// robot link), applied consistently to every quantity of a motion sample.
///
/// With `R` the rotation taking sensor-frame coordinates to body-frame coordinates
/// (`v_body = R · v_sensor`) and `r` its unit quaternion:
/// - acceleration (specific force, g), magnetic field (µT) and rotation rate (rad/s) are
///   vectors and map as `R · v`;
/// - an attitude `q` (device → earth, `v_earth = q.act(v_sensor)`) maps to `q' = q ⊗ r*`,
///   because `v_earth = q.act(R⁻¹ v_body) = (q ⊗ r*).act(v_body)`. The earth frame is
///   unchanged, so a fusion filter fed the remapped sensors yields exactly `q'`.
///
/// Only proper rotations are representable (an attitude cannot map into a left-handed frame);
/// for reflections use `AxisAlignment.apply` on the vectors alone.
@frozen
public struct FrameRemap<Scalar: PoiseReal>: Sendable, Equatable {
    /// `R`, the sensor → body rotation matrix (`v_body = R · v_sensor`).
    public let matrix: RotationMatrix<Scalar>
    /// `r`, the unit quaternion of `R` (canonical: w ≥ 0).
    public let rotation: Quaternion<Scalar>

    /// The identity remap.
    @inlinable public static var identity: FrameRemap { FrameRemap(rotation: .identity) }

    /// The remap whose sensor → body rotation is `rotation` (normalised; the identity if zero
    /// or not finite). `v_body = rotation.act(v_sensor)`.
    @inlinable
    public init(rotation: Quaternion<Scalar>) {
        let r = rotation.normalized.canonical
        self.rotation = r
        self.matrix = r.rotationMatrix
    }

    /// The remap of a proper axis alignment (exact: the matrix has entries 0 and ±1).
    ///
    /// - Throws: `AxisAlignmentError` when `alignment` is a reflection.
    public init(alignment: AxisAlignment) throws {
        guard alignment.isProper else {
            throw AxisAlignmentError(text: alignment.description, position: 0,
                                     message: "is a reflection (determinant −1); attitudes cannot be remapped by a reflection")
        }
        self.matrix = alignment.matrix()
        self.rotation = FrameRemap.quaternion(of: matrix)
    }

    /// The remap from device axes to the screen axes of an interface orientation
    /// (see `InterfaceOrientation.alignment`).
    public init(orientation: InterfaceOrientation) {
        // Interface alignments are proper by construction.
        self.matrix = orientation.alignment.matrix()
        self.rotation = FrameRemap.quaternion(of: matrix)
    }

    /// A mounting rotation given as Euler angles in **radians**, intrinsic Z-Y′-X″
    /// (yaw about the body z axis, then pitch about the new y, then roll about the newest x):
    /// `R = Rz(yaw) · Ry(pitch) · Rx(roll)` takes sensor coordinates to body coordinates, i.e.
    /// the angles rotate the body axes onto the sensor axes. Right-hand rule for each angle.
    @inlinable
    public init(roll: Scalar, pitch: Scalar, yaw: Scalar) {
        let qz = Quaternion<Scalar>(axis: SIMD3(0, 0, 1), angle: yaw)
        let qy = Quaternion<Scalar>(axis: SIMD3(0, 1, 0), angle: pitch)
        let qx = Quaternion<Scalar>(axis: SIMD3(1, 0, 0), angle: roll)
        self.init(rotation: qz * qy * qx)
    }

    /// Maps a sensor-frame vector (acceleration in g, magnetic field in µT) to the body frame.
    @inlinable public func vector(_ v: SIMD3<Scalar>) -> SIMD3<Scalar> { matrix.apply(v) }

    /// Maps a sensor-frame rotation rate (rad/s, right-hand rule) to the body frame. The same
    /// matrix as `vector`: for a proper rotation the angular velocity transforms like a vector.
    @inlinable public func rotationRate(_ omega: SIMD3<Scalar>) -> SIMD3<Scalar> { matrix.apply(omega) }

    /// Maps an attitude (sensor → earth) to the attitude of the body frame (body → earth):
    /// `q ⊗ r*`. The earth frame is unchanged.
    @inlinable
    public func attitude(_ q: Quaternion<Scalar>) -> Quaternion<Scalar> { q * rotation.conjugate }

    /// The remap that applies `self` first and then `next` (sensor → body → body′).
    @inlinable
    public func followed(by next: FrameRemap) -> FrameRemap {
        FrameRemap(matrix: next.matrix * matrix, rotation: (next.rotation * rotation).canonical)
    }

    /// The inverse remap (body → sensor).
    @inlinable public var inverse: FrameRemap { FrameRemap(matrix: matrix.transposed, rotation: rotation.conjugate.canonical) }

    @inlinable
    init(matrix: RotationMatrix<Scalar>, rotation: Quaternion<Scalar>) {
        self.matrix = matrix; self.rotation = rotation
    }

    /// The unit quaternion (w ≥ 0) of a rotation matrix, by Shepperd's method (pivot on the
    /// largest of w², x², y², z² for accuracy).
    @inlinable
    static func quaternion(of m: RotationMatrix<Scalar>) -> Quaternion<Scalar> {
        let (m00, m11, m22) = (m[0, 0], m[1, 1], m[2, 2])
        let trace = m00 + m11 + m22
        var q: Quaternion<Scalar>
        if trace >= m00 && trace >= m11 && trace >= m22 {
            let s = (1 + trace).squareRoot() * 2          // 4w
            q = Quaternion(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m00 >= m11 && m00 >= m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2 // 4x
            q = Quaternion(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m11 >= m22 {
            let s = (1 - m00 + m11 - m22).squareRoot() * 2 // 4y
            q = Quaternion(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 - m00 - m11 + m22).squareRoot() * 2 // 4z
            q = Quaternion(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
        return q.normalized.canonical
    }
}

extension FrameRemap where Scalar == Double {
    /// Remaps every quantity of a sample: acceleration, rotation rate and magnetic field as
    /// vectors, the ground-truth attitude as `q ⊗ r*`. Time and the movement mask are kept.
    @inlinable
    public func sample(_ s: MotionSample) -> MotionSample {
        s.mapping(vectors: { matrix.apply($0) }, truth: { attitude($0) })
    }
}

extension FrameRemap where Scalar == Double {
    /// Batch form of `sample(_:)`: `output[i] = sample(input[i])` for every i (exactly the
    /// per-sample loop), reusing `output`'s storage (resized to `input.count`).
    ///
    /// - Complexity: O(n); no allocation when `output` already has the capacity.
    @inlinable
    public func samples(_ input: [MotionSample], into output: inout [MotionSample]) {
        if output.count != input.count {
            output.removeAll(keepingCapacity: true)
            output.append(contentsOf: input)
        }
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for i in source.indices { target[i] = sample(source[i]) }
            }
        }
    }
}

extension AxisAlignment {
    /// Applies the alignment to the vector quantities of a sample (acceleration, rotation rate,
    /// magnetic field) with the same signed permutation. This is the only remap available for
    /// reflections. The result's `truth` is `nil`: a reflected (left-handed) frame has no
    /// attitude quaternion. Callers that need attitudes use `FrameRemap` (proper alignments).
    ///
    /// For a reflection the rotation rate is permuted like the other axes, which is right when
    /// each sensor axis reports the right-hand rotation about itself (how MEMS gyroscopes
    /// report each sense axis).
    @inlinable
    public func vectors(of s: MotionSample) -> MotionSample {
        s.mapping(vectors: { apply($0) }, truth: { _ in nil })
    }
}

extension MotionSample {
    /// The sample with `vectors` applied to acceleration, rotation rate and magnetic field and
    /// `truth` to the ground-truth attitude; time and movement are kept.
    @inlinable
    func mapping(vectors: (SIMD3<Double>) -> SIMD3<Double>,
                 truth transform: (Quaternion<Double>) -> Quaternion<Double>?) -> MotionSample {
        var out = self
        out.acceleration = vectors(acceleration)
        out.rotationRate = vectors(rotationRate)
        out.magneticField = magneticField.map(vectors)
        out.truth = truth.flatMap(transform)
        return out
    }
}

extension ProcessedSample {
    /// Applies `vectors` to every vector of the record (acceleration, rotation rate, magnetic
    /// field, gravity, user acceleration) and `attitude` to its attitude; the raw `input` is
    /// left as delivered.
    @inlinable
    mutating func mapVectors(_ vectors: (SIMD3<Double>) -> SIMD3<Double>,
                             attitude transform: (Quaternion<Double>) -> Quaternion<Double>?) {
        acceleration = vectors(acceleration)
        rotationRate = vectors(rotationRate)
        magneticField = magneticField.map(vectors)
        gravity = gravity.map(vectors)
        userAcceleration = userAcceleration.map(vectors)
        attitude = attitude.flatMap(transform)
    }
}
