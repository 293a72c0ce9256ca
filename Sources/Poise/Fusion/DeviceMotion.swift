/// The motion of the device after one sample, like CoreMotion's `CMDeviceMotion`.
///
/// Frames: vectors named "device" are in the device frame (+x right, +y top edge, +z out of the
/// screen); the attitude rotates device vectors into the configured earth frame
/// (`earthFrame`, ENU by default). Accelerations are in g in Poise's specific-force
/// convention, so at rest `gravity` is +1 g along the axis pointing up and
/// `userAcceleration` is 0. (Apple's `CMDeviceMotion` reports both with the opposite sign.)
public struct DeviceMotion: Sendable, Equatable {
    /// Timestamp of the sample, s.
    public var time: Double
    /// Attitude: rotates device-frame vectors into the earth frame (w, x, y, z). The estimate
    /// `DeviceMotionConfiguration.outputPrediction` (default 0) after `time`, for the
    /// sensor's delay; `gravity`, `userAcceleration` and `heading` follow it.
    public var attitude: Quaternion<Double>
    /// The earth frame of `attitude`.
    public var earthFrame: EarthFrame
    /// Direction of up in the device frame, unit length; equivalently the gravity reaction in g
    /// (standard gravity, magnitude exactly 1 g).
    public var gravity: SIMD3<Double>
    /// Acceleration of the device without gravity, g, device frame (measured specific force
    /// minus `gravity`; positive in the direction the device accelerates).
    public var userAcceleration: SIMD3<Double>
    /// Measured rotation rate minus the estimated bias, rad/s, device frame.
    public var rotationRate: SIMD3<Double>
    /// Estimated gyroscope bias, rad/s, device frame.
    public var bias: SIMD3<Double>
    /// Compass heading of the device's +y axis projected onto the horizontal plane, degrees in
    /// [0, 360), clockwise from the reference's north (magnetic or true); `nil` for the 6D
    /// reference. Undefined (but finite) when +y points straight up or down.
    public var heading: Double?
    /// Why the estimator did what it did for this sample.
    public var flags: Flags

    public init(time: Double, attitude: Quaternion<Double>, earthFrame: EarthFrame, gravity: SIMD3<Double>,
                userAcceleration: SIMD3<Double>, rotationRate: SIMD3<Double>, bias: SIMD3<Double>,
                heading: Double?, flags: Flags) {
        self.time = time; self.attitude = attitude; self.earthFrame = earthFrame; self.gravity = gravity
        self.userAcceleration = userAcceleration; self.rotationRate = rotationRate; self.bias = bias
        self.heading = heading; self.flags = flags
    }

    /// Per-sample diagnostics.
    public struct Flags: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The device is at rest (the gyroscope bias is being learned from the rotation rate).
        public static let atRest = Flags(rawValue: 1 << 0)
        /// The magnetic field differs from the learned reference (heading correction paused).
        public static let magneticDisturbance = Flags(rawValue: 1 << 1)
        /// The accelerometer sample was too far from 1 g to correct the inclination.
        public static let accelerationRejected = Flags(rawValue: 1 << 2)
        /// The time since the previous sample exceeded `maximumTimeStep`.
        public static let timeGap = Flags(rawValue: 1 << 3)
        /// An input was not finite and was ignored.
        public static let invalidInput = Flags(rawValue: 1 << 4)
        /// The timestamp repeated the previous sample's or went back from it: the gyroscope was
        /// not integrated (a step of 0 s), the accelerometer and magnetometer were used.
        public static let timeNotIncreasing = Flags(rawValue: 1 << 5)
        /// The rotation rate repeats the previous sample's exactly on all three axes: a held
        /// reading (a gyroscope slower than the rows, zero-order held). It is integrated over
        /// its own step like any sample, which is the integral of the held rate.
        public static let heldSample = Flags(rawValue: 1 << 6)
        /// A gyroscope axis sits at its full-scale value: it repeats the last two samples' value
        /// exactly (a plateau of three), at the largest magnitude any axis has reported (at
        /// least 1 rad/s), while another axis changed. The plateau is found in the data, with no
        /// sensor constant; its first two samples are not flagged. The clipped rate is integrated
        /// (it is the best rate there is) but not trusted for the in-motion bias estimate
        /// (`DeviceMotionConfiguration.saturationBiasHoldOff`).
        public static let gyroscopeSaturated = Flags(rawValue: 1 << 7)
    }

    /// The attitude as a rotation matrix (device → earth; columns are the device axes in earth
    /// coordinates).
    public var rotationMatrix: RotationMatrix<Double> { attitude.rotationMatrix }

    /// User acceleration in the earth frame, g.
    public var userAccelerationEarth: SIMD3<Double> { attitude.act(userAcceleration) }

    /// CoreMotion-compatible angles (`CMAttitude.pitch/roll/yaw`) of `attitude`:
    /// pitch about device x in [−π/2, π/2] (top edge up is positive), roll about device y in
    /// (−π, π] (right edge down is positive), yaw about earth z in (−π, π]
    /// (counter-clockwise positive seen from above). For q = (w, x, y, z):
    /// pitch = asin(2(wx + yz)), roll = atan2(−2(xz − wy), 1 − 2(x² + y²)),
    /// yaw = atan2(−2(xy − wz), 1 − 2(x² + z²)). These match CoreMotion when the earth frame has
    /// z up (ENU or NWU; NWU gives CoreMotion's x-north axes).
    public var coreMotionAngles: EulerAngles { Self.coreMotionAngles(attitude) }

    /// Aerospace (intrinsic z-y′-x″, "yaw-pitch-roll") angles of `attitude`: the attitude is
    /// Rz(yaw)·Ry(pitch)·Rx(roll). Yaw and roll in (−π, π], pitch in [−π/2, π/2]:
    /// yaw = atan2(2(wz + xy), 1 − 2(y² + z²)), pitch = asin(2(wy − xz)),
    /// roll = atan2(2(wx + yz), 1 − 2(x² + y²)). With a NED earth frame and a
    /// forward-right-down body these are the usual heading, elevation and bank.
    public var aerospaceAngles: EulerAngles { Self.aerospaceAngles(attitude) }

    /// CoreMotion-compatible angles of any attitude quaternion (see `coreMotionAngles`).
    public static func coreMotionAngles(_ q: Quaternion<Double>) -> EulerAngles {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return EulerAngles(
            roll: Double.atan2(y: -2 * (x * z - w * y), x: 1 - 2 * (x * x + y * y)),
            pitch: Double.asin(Swift.max(-1, Swift.min(1, 2 * (w * x + y * z)))),
            yaw: Double.atan2(y: -2 * (x * y - w * z), x: 1 - 2 * (x * x + z * z)))
    }

    /// Aerospace z-y′-x″ angles of any attitude quaternion (see `aerospaceAngles`).
    public static func aerospaceAngles(_ q: Quaternion<Double>) -> EulerAngles {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return EulerAngles(
            roll: Double.atan2(y: 2 * (w * x + y * z), x: 1 - 2 * (x * x + y * y)),
            pitch: Double.asin(Swift.max(-1, Swift.min(1, 2 * (w * y - x * z)))),
            yaw: Double.atan2(y: 2 * (w * z + x * y), x: 1 - 2 * (y * y + z * z)))
    }
}

extension DeviceMotionEstimator {
    /// The 6D attitude (device → ENU with arbitrary heading), whatever the reference; carried
    /// `outputPrediction` seconds ahead with the bias-corrected rotation rate of the last sample.
    @inlinable @inline(__always) public var attitude6D: Quaternion<Double> {
        let q = fusionProduct(state.inclinationCorrection, state.gyroscopeAttitude)
        let halfTau = coefficients.halfOutputPrediction
        return halfTau > 0 ? fusionPredicted(q, rate: lastSample.integratedRotationRate - state.bias, halfInterval: halfTau) : q
    }

    /// The attitude in ENU (device → east-north-up) for the configured reference, before the
    /// earth-frame convention is applied.
    @inlinable @inline(__always) public var attitudeEastNorthUp: Quaternion<Double> {
        attitudeEastNorthUp(sixD: attitude6D)
    }

    /// `attitudeEastNorthUp` from the 6D attitude `q6` (`attitude6D`; read it once when several
    /// outputs are needed: with the output prediction it is a quaternion product).
    @inlinable @inline(__always) public func attitudeEastNorthUp(sixD q6: Quaternion<Double>) -> Quaternion<Double> {
        guard let h = headingHalfAngle else { return q6 }
        return attitudeEastNorthUp(sixD: q6, headingHalfAngle: h)
    }

    /// `attitudeEastNorthUp(sixD:)` with `headingHalfAngle` given (it changes only at a
    /// correction step, so a caller may keep it between them).
    @inlinable @inline(__always)
    public func attitudeEastNorthUp(sixD q6: Quaternion<Double>, headingHalfAngle h: (cosine: Double, sine: Double)) -> Quaternion<Double> {
        let (c, s) = h
        // Rz(yaw) ⊗ q6
        return Quaternion(w: c * q6.w - s * q6.z, x: c * q6.x - s * q6.y,
                          y: c * q6.y + s * q6.x, z: c * q6.z + s * q6.w)
    }

    /// cos and sin of half the yaw from the 6D earth frame to ENU for the configured reference
    /// (the heading correction, less the declination or the arbitrary offset as the reference
    /// says), or nil for the 6D reference (`arbitraryZVertical`).
    @inlinable @inline(__always) public var headingHalfAngle: (cosine: Double, sine: Double)? {
        guard coefficients.usesMagnetometer else { return nil }
        var yaw = state.headingCorrection
        switch configuration.reference {
        case .arbitraryZVertical, .magneticNorthZVertical: break
        case .trueNorthZVertical: yaw -= coefficients.declination
        case .arbitraryCorrectedZVertical: yaw -= state.arbitraryHeadingOffset ?? state.headingCorrection
        }
        if yaw == state.headingCacheAngle {
            // yaw is the heading correction (magnetic north), whose cos and sin the update keeps.
            return fusionHalfAngle(cosine: state.headingCosine, sine: state.headingSine)
        }
        return (Double.cos(yaw / 2), Double.sin(yaw / 2))
    }

    /// The attitude (device → configured earth frame).
    @inlinable public var attitude: Quaternion<Double> { attitude(eastNorthUp: attitudeEastNorthUp) }

    /// Up in device coordinates after the last sample (`DeviceMotion.gravity`): unit length.
    @inlinable @inline(__always) public var gravity: SIMD3<Double> { gravity(sixD: attitude6D) }

    /// `gravity` from the 6D attitude `q6` (`attitude6D`).
    @inlinable @inline(__always) public func gravity(sixD q6: Quaternion<Double>) -> SIMD3<Double> {
        let (w, x, y, z) = (q6.w, q6.x, q6.y, q6.z)
        // The third row of the device → earth matrix.
        return SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }

    /// The last accelerometer sample minus `gravity`, g, device frame
    /// (`DeviceMotion.userAcceleration`; zero when the sample was not finite).
    @inlinable @inline(__always) public func userAcceleration(gravity up: SIMD3<Double>) -> SIMD3<Double> {
        lastSample.acceleration == .zero ? .zero : lastSample.acceleration - up
    }

    /// The last gyroscope sample minus the estimated bias, rad/s, device frame
    /// (`DeviceMotion.rotationRate`; zero when the sample was not finite).
    @inlinable @inline(__always) public var correctedRotationRate: SIMD3<Double> {
        lastSample.rotationRate.isFinite ? lastSample.rotationRate - state.bias : .zero
    }

    /// The compass heading of an ENU attitude (`attitudeEastNorthUp`), degrees in [0, 360)
    /// clockwise from north (`DeviceMotion.heading`), or `nil` without a magnetometer reference.
    @inlinable @inline(__always) public func heading(eastNorthUp enu: Quaternion<Double>) -> Double? {
        coefficients.usesMagnetometer ? Self.compassHeading(eastNorthUp: enu) : nil
    }

    /// The compass heading of an ENU attitude (device → east-north-up), degrees in [0, 360)
    /// clockwise from north: the direction of the device's +y axis projected on the horizontal.
    @inlinable @inline(__always) public static func compassHeading(eastNorthUp enu: Quaternion<Double>) -> Double {
        // Entries (0, 1) and (1, 1) of the rotation matrix: the device's +y in east and north.
        let (w, x, y, z) = (enu.w, enu.x, enu.y, enu.z)
        var h = fusionArctangent2Quadrant(y: 2 * (x * y - w * z), x: 1 - 2 * (x * x + z * z)) * (180 / Double.pi)
        if h < 0 { h += 360 }
        if h >= 360 { h -= 360 }
        return h
    }

    /// An ENU attitude in the configured earth frame (`attitude` is this of `attitudeEastNorthUp`).
    @inlinable @inline(__always) public func attitude(eastNorthUp enu: Quaternion<Double>) -> Quaternion<Double> {
        let frame = configuration.earthFrame
        return frame == .eastNorthUp ? enu : frame.fromEastNorthUp * enu
    }

    /// The full device motion after the last sample. Hosts that need a few of its fields read
    /// them one at a time with the accessors above (`gravity`, `heading(eastNorthUp:)`, …),
    /// which compute exactly these values.
    @inlinable @inline(__always) public var deviceMotion: DeviceMotion {
        // This getter and the getters it uses are always inlined: called out of line from
        // `process`, each call copied the whole estimator (≈ 2.4 KB) on every sample.
        let q6 = attitude6D   // once: with the output prediction it is a quaternion product
        let up = gravity(sixD: q6)
        let enu = attitudeEastNorthUp(sixD: q6)
        return DeviceMotion(
            time: state.lastTime ?? 0,
            attitude: attitude(eastNorthUp: enu),
            earthFrame: configuration.earthFrame,
            gravity: up,
            userAcceleration: userAcceleration(gravity: up),
            rotationRate: correctedRotationRate,
            bias: state.bias,
            heading: heading(eastNorthUp: enu),
            flags: lastSample.flags)
    }
}
