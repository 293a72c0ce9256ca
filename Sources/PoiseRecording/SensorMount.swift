import Poise

/// How a sensor is mounted relative to the device axes Poise computes in (the CLI's `--mount`,
/// `ReadOptions.mount`): a fixed rotation `R` from the file's sensor axes to the device axes,
/// `v_device = R · v_sensor`, applied to acceleration, rotation rate and magnetic field alike
/// as they are read (and to a ground-truth attitude as `q ⊗ r*`, see `FrameRemap`).
///
/// Three spellings, one meaning:
/// - **axis map** `x=-y,y=x,z=z`: each device axis is the signed sensor axis named (device x =
///   −sensor y, device y = sensor x); every axis once;
/// - **axis alignment** `-Y+X+Z`: the same map in `poise remap --axes` notation
///   (`AxisAlignment`: new x, y, z in turn);
/// - **angles** `roll,pitch,yaw` in degrees: intrinsic Z-Y′-X″, `R = Rz(yaw)·Ry(pitch)·Rx(roll)`
///   (`FrameRemap(roll:pitch:yaw:)`).
///
/// Only rotations are accepted: a map that mirrors the axes (determinant −1) describes no
/// physical mounting and is refused with the rotation that differs from it in the sign of z.
/// Device axes follow the phone convention (+x right, +y top edge, +z out of the screen).
public struct SensorMount: Sendable, Equatable, CustomStringConvertible {
    /// The mount as written.
    public let text: String
    /// `R`, sensor axes → device axes.
    public let remap: FrameRemap<Double>

    public var description: String { text }

    /// Parses a mount.
    ///
    /// - Throws: `SpecError` (subject `.mount`) at the part that is wrong.
    public init(_ text: String) throws(SpecError) {
        self.text = text
        func fail(_ token: String, _ position: Int, _ message: String) -> SpecError {
            SpecError(.mount, spec: text, token: token, column: position, message: message)
        }
        let trimmed = text.trimmingSpaces()
        if trimmed.contains("=") {
            remap = try Self.axisMap(text, fail: fail)
        } else if trimmed.first == "+" || trimmed.first == "-" || trimmed.first == "−",
                  trimmed.count == 6, trimmed.contains(where: { "xyzXYZ".contains($0) }) {
            do {
                let alignment = try AxisAlignment(trimmed)
                remap = try FrameRemap(alignment: alignment)
            } catch let error as AxisAlignmentError {
                throw fail(trimmed, max(error.position, 1), error.message)
            } catch {
                throw fail(trimmed, 1, "\(error)")
            }
        } else {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 3 else {
                throw fail(text, 1, "expected an axis map (x=-y,y=x,z=z), an axis alignment (-Y+X+Z) or three angles roll,pitch,yaw in degrees")
            }
            var angles: [Double] = []
            var position = 1
            for part in parts {
                let value = String(part).trimmingSpaces()
                guard let angle = Double(value), angle.isFinite, abs(angle) <= 360 else {
                    throw fail(String(part), position, "'\(value)' is not an angle in degrees from −360 to 360")
                }
                angles.append(angle * Units.radiansPerDegree)
                position += part.count + 1
            }
            remap = FrameRemap(roll: angles[0], pitch: angles[1], yaw: angles[2])
        }
    }

    /// `x=-y,y=x,z=z` as a rotation.
    private static func axisMap(_ text: String, fail: (String, Int, String) -> SpecError) throws(SpecError) -> FrameRemap<Double> {
        var axes: [SignedAxis?] = [nil, nil, nil]
        var position = 1
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let token = String(part)
            defer { position += part.count + 1 }
            let sides = token.split(separator: "=", omittingEmptySubsequences: false).map { String($0).trimmingSpaces().lowercased() }
            guard sides.count == 2, let device = ["x", "y", "z"].firstIndex(of: sides[0]) else {
                throw fail(token, position, "expected DEVICE_AXIS=±SENSOR_AXIS (x=-y)")
            }
            var value = Substring(sides[1])
            var negative = false
            if let sign = value.first, sign == "-" || sign == "+" || sign == "−" {
                negative = sign != "+"
                value = value.dropFirst()
            }
            guard let sensor = ["x", "y", "z"].firstIndex(of: String(value)) else {
                throw fail(token, position, "'\(sides[1])' is not a sensor axis (x, y or z with an optional sign)")
            }
            guard axes[device] == nil else { throw fail(token, position, "device axis \(sides[0]) is given twice") }
            if axes.contains(where: { $0?.index == sensor }) {
                throw fail(token, position, "sensor axis \(value) is used twice; each of x, y, z must appear once")
            }
            axes[device] = SignedAxis(index: sensor, negative: negative)
        }
        guard let x = axes[0], let y = axes[1], let z = axes[2], let alignment = AxisAlignment(x: x, y: y, z: z) else {
            let missing = zip(["x", "y", "z"], axes).filter { $0.1 == nil }.map(\.0)
            throw fail(text, 1, "device axis \(missing.joined(separator: ", ")) is not given: name all three (x=…,y=…,z=…)")
        }
        guard alignment.isProper else {
            let flipped = z.negated
            let hint = "x=\(Self.name(x)),y=\(Self.name(y)),z=\(Self.name(flipped))"
            throw fail(text, 1, "mirrors the axes (determinant −1), which no mounting does; did you mean \(hint)?")
        }
        do {
            return try FrameRemap(alignment: alignment)
        } catch {
            throw fail(text, 1, "\(error)")
        }
    }

    private static func name(_ axis: SignedAxis) -> String { (axis.isNegative ? "-" : "") + ["x", "y", "z"][axis.index] }
}
