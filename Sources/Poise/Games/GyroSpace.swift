/// How the device's 3-axis rotation rate becomes the camera's 2-axis turn (yaw and pitch).
///
/// After J. Smart, "Player Space Gyro (and alternatives) explained" (GyroWiki, 2021), which
/// JoyShockMapper's `GYRO_SPACE` setting offers as `LOCAL`, `PLAYER_TURN`/`PLAYER_LEAN` and
/// `WORLD_TURN`/`WORLD_LEAN`.
///
/// Frames and signs. The rotation rate ω is in rad/s in Poise's device frame (+X right, +Y toward
/// the top edge, +Z out of the screen; right-hand rule). `up` is the unit vector pointing up, in
/// the device frame (the gravity reaction: a device lying flat has up = (0, 0, 1)). The result is
/// the camera's turn rate in rad/s with **yaw positive = turn right** and **pitch positive = look
/// up**. Pitch is always about the device's +X axis in local and player space, so pitching never
/// depends on how the device is held.
public enum GyroSpace: String, Sendable, Hashable, Codable, CaseIterable {
    /// Yaw about a fixed device axis (`GyroHold`), pitch about +X. Ignores gravity: turning a
    /// tilted controller about its own axis still turns the camera; turning it about the vertical
    /// turns the camera only as much as that axis is vertical.
    case local
    /// "Player turn": yaw about the gravity axis from the part of ω perpendicular to the pitch
    /// axis, relaxed so that turning the controller about its own yaw axis or about the vertical
    /// both turn the camera, whichever way the player holds it; pitch about +X. The article's
    /// recommended default.
    case player
    /// Yaw about gravity (all of ω projected on up), pitch about +X projected on the horizontal
    /// plane: the camera follows the device's motion in the room. Rolling a tilted controller
    /// turns the camera.
    case world
}

/// Which device axis is the camera's yaw axis in local space (the axis that points up in the
/// neutral hold). Pitch is about +X in both.
public enum GyroHold: String, Sendable, Hashable, Codable, CaseIterable {
    /// A gamepad, or a phone lying screen up in the hands: yaw about +Z (the screen normal).
    case flat
    /// A phone (remapped to landscape first) held up in front of the face, screen toward the
    /// player: yaw about +Y (the top edge).
    case upright

    /// The yaw axis in the device frame.
    @inlinable
    public var yawAxis: SIMD3<Double> { self == .flat ? SIMD3(0, 0, 1) : SIMD3(0, 1, 0) }
}

extension GyroSpace {
    /// How far player-space yaw may exceed the vertical component of ω: turning about the
    /// device's own yaw axis while it is tilted by up to 45° (1/cos 45° ≈ 1.41) reads as a full
    /// turn (GyroWiki's "yaw relax factor").
    public static let playerYawRelax = 1.41

    /// The camera turn rate (yaw, pitch) in rad/s for a device rotation rate `rate` (rad/s,
    /// device frame) and the up direction `up` (unit vector, device frame; unused in local space).
    ///
    /// - local: yaw = −ω·a (a = `hold.yawAxis`), pitch = ω.x.
    /// - player: v = −(ω.y·u.y + ω.z·u.z) (ω without its pitch component, projected on up);
    ///   yaw = sign(v)·min(|v|·1.41, √(ω.y² + ω.z²)); pitch = ω.x.
    /// - world: yaw = −ω·u; pitch = ω·p with p the unit horizontal part of +X
    ///   (+X − (+X·u)u); when +X is within about 8° of vertical, pitch = ω.x.
    @inlinable
    public func turnRate(_ rate: SIMD3<Double>, up: SIMD3<Double>, hold: GyroHold) -> SIMD2<Double> {
        switch self {
        case .local:
            let a = hold.yawAxis
            return SIMD2(-(rate * a).sum(), rate.x)
        case .player:
            let v = -(rate.y * up.y + rate.z * up.z)
            let limit = (rate.y * rate.y + rate.z * rate.z).squareRoot()
            let yaw = Swift.min(Swift.abs(v) * Self.playerYawRelax, limit)
            return SIMD2(v < 0 ? -yaw : yaw, rate.x)
        case .world:
            let yaw = -(rate * up).sum()
            var horizontal = SIMD3<Double>(1, 0, 0) - up.x * up
            let length = (horizontal * horizontal).sum().squareRoot()
            guard length > 0.14 else { return SIMD2(yaw, rate.x) }
            horizontal /= length
            return SIMD2(yaw, (rate * horizontal).sum())
        }
    }
}
