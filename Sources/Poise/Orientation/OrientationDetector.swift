/// Settings of `OrientationDetector`, in degrees and g. The defaults are documented per field.
public struct OrientationDetectorSettings: Sendable, Hashable, Codable {
    /// Enter `faceUp`/`faceDown` when the screen is within this angle of horizontal, degrees.
    /// Default 25.
    public var flatEnterAngle: Double
    /// Leave `faceUp`/`faceDown` when the screen is tilted more than this from horizontal,
    /// degrees. Must be ≥ `flatEnterAngle`; the gap is the flat hysteresis. Default 35.
    public var flatExitAngle: Double
    /// Hysteresis around the 45° boundaries between portrait and landscape sectors, degrees:
    /// the detector leaves its current upright orientation only when the in-screen-plane up
    /// direction is more than `45 + hysteresis` degrees from that orientation's up axis (so
    /// within `45 − hysteresis` of a neighbour's). 0 ≤ hysteresis < 45. Default 15.
    public var hysteresis: Double
    /// Samples whose gravity norm is below this (g) are ignored (free fall, bad data): the
    /// orientation is kept. Default 0.3.
    public var minimumGravity: Double

    public init(flatEnterAngle: Double = 25, flatExitAngle: Double = 35,
                hysteresis: Double = 15, minimumGravity: Double = 0.3) {
        self.flatEnterAngle = flatEnterAngle; self.flatExitAngle = flatExitAngle
        self.hysteresis = hysteresis; self.minimumGravity = minimumGravity
    }

    /// Checks the ranges; returns a message naming the first bad field, or nil.
    public var problem: String? {
        if !(flatEnterAngle > 0 && flatEnterAngle < 90) { return "flatEnterAngle must be in (0, 90) degrees, got \(flatEnterAngle)" }
        if !(flatExitAngle >= flatEnterAngle && flatExitAngle < 90) { return "flatExitAngle must be in [flatEnterAngle, 90) degrees, got \(flatExitAngle)" }
        if !(hysteresis >= 0 && hysteresis < 45) { return "hysteresis must be in [0, 45) degrees, got \(hysteresis)" }
        if !(minimumGravity >= 0 && minimumGravity.isFinite) { return "minimumGravity must be ≥ 0 g, got \(minimumGravity)" }
        return nil
    }
}

/// Detects the device orientation (UIKit `UIDeviceOrientation` semantics) from gravity, with
/// hysteresis so it does not flicker near the 45° boundaries or near flat.
///
/// Input: gravity as specific force in device axes (the up axis reads +1 g), ideally
/// low-passed. Decisions, with u = g/|g| and the in-plane part p = (u.x, u.y):
/// - the screen's tilt from horizontal is acos|u.z|. From an upright orientation the detector
///   goes flat (`faceUp` if u.z > 0, else `faceDown`) when the tilt is below `flatEnterAngle`;
///   from flat it goes upright when the tilt exceeds `flatExitAngle`;
/// - upright orientations are the four 90° sectors of p around +Y (portrait), +X
///   (landscapeLeft), −Y (portraitUpsideDown) and −X (landscapeRight). The detector switches
///   from its sector to the nearest one only when p is more than 45° + `hysteresis` from its
///   sector's axis; leaving flat or `unknown` takes the nearest sector;
/// - from `unknown` the first valid sample decides: flat if the tilt is below the midpoint of
///   the enter and exit angles, else the nearest sector.
/// `interfaceOrientation` is the last upright orientation's interface orientation, kept while
/// flat (as iOS keeps the interface when the device is laid down). Nothing allocates.
public struct OrientationDetector: Sendable {
    /// The settings (validated at init).
    public let settings: OrientationDetectorSettings
    /// The current device orientation.
    public private(set) var orientation: DeviceOrientation = .unknown
    /// The interface orientation of the last upright device orientation; nil until one is seen.
    public private(set) var interfaceOrientation: InterfaceOrientation?

    // Derived once: cosines of the thresholds.
    @usableFromInline let cosFlatEnter: Double
    @usableFromInline let cosFlatExit: Double
    @usableFromInline let cosFlatMidpoint: Double
    @usableFromInline let cosSectorExit: Double
    @usableFromInline let minimumGravitySquared: Double

    /// Creates a detector in the `unknown` state.
    ///
    /// - Throws: `OrientationSettingsError` when a setting is out of range.
    public init(settings: OrientationDetectorSettings = OrientationDetectorSettings()) throws {
        if let problem = settings.problem { throw OrientationSettingsError(message: problem) }
        self.settings = settings
        let r = Units.radiansPerDegree
        cosFlatEnter = Double.cos(settings.flatEnterAngle * r)
        cosFlatExit = Double.cos(settings.flatExitAngle * r)
        cosFlatMidpoint = Double.cos((settings.flatEnterAngle + settings.flatExitAngle) / 2 * r)
        cosSectorExit = Double.cos((45 + settings.hysteresis) * r)
        minimumGravitySquared = settings.minimumGravity * settings.minimumGravity
    }

    /// Returns to `unknown`, as a fresh detector.
    public mutating func reset() { orientation = .unknown; interfaceOrientation = nil }

    /// Feeds one gravity sample (g, device axes, up positive) and returns the orientation.
    @discardableResult
    public mutating func process(gravity g: SIMD3<Double>) -> DeviceOrientation {
        let n2 = g.lengthSquared
        guard n2.isFinite, n2 >= minimumGravitySquared, n2 > 0 else { return orientation }
        let n = n2.squareRoot()
        let uz = g.z / n
        let flatness = uz.magnitude  // cos(tilt from horizontal)
        let flat: DeviceOrientation = uz > 0 ? .faceUp : .faceDown
        switch orientation {
        case .unknown:
            orientation = flatness >= cosFlatMidpoint ? flat : Self.nearestSector(g)
        case .faceUp, .faceDown:
            if flatness < cosFlatExit { orientation = Self.nearestSector(g) }
            else if flatness >= cosFlatEnter { orientation = flat }  // flipped over without going upright
        default:
            if flatness >= cosFlatEnter {
                orientation = flat
            } else if let axis = orientation.upAxis {
                let p = SIMD2(g.x, g.y)
                let pn = p.lengthSquared.squareRoot()
                let c = axis.index == 0 ? p.x : p.y
                let along = axis.isNegative ? -c : c
                if along < cosSectorExit * pn { orientation = Self.nearestSector(g) }
            }
        }
        if let interface = orientation.interfaceOrientation { interfaceOrientation = interface }
        return orientation
    }

    /// The upright orientation whose up axis is nearest the in-plane gravity (ties: portrait
    /// family first).
    @inlinable
    static func nearestSector(_ g: SIMD3<Double>) -> DeviceOrientation {
        if g.y.magnitude >= g.x.magnitude { return g.y >= 0 ? .portrait : .portraitUpsideDown }
        return g.x > 0 ? .landscapeLeft : .landscapeRight
    }
}

/// A setting out of its documented range.
public struct OrientationSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the setting.
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
