/// One of the six signed coordinate axes: `+X`, `−X`, `+Y`, `−Y`, `+Z`, `−Z`.
@frozen
public enum SignedAxis: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case plusX, minusX, plusY, minusY, plusZ, minusZ

    /// Creates the signed axis along coordinate `index` (0 = X, 1 = Y, 2 = Z), negated when
    /// `negative` is true. `index` must be 0, 1 or 2.
    @inlinable
    public init(index: Int, negative: Bool) {
        precondition((0...2).contains(index), "axis index must be 0, 1 or 2")
        self = SignedAxis(rawValue: 2 * index + (negative ? 1 : 0))!
    }

    /// The coordinate index: 0 for X, 1 for Y, 2 for Z.
    @inlinable public var index: Int { rawValue / 2 }

    /// True for `−X`, `−Y`, `−Z`.
    @inlinable public var isNegative: Bool { rawValue % 2 == 1 }

    /// +1 or −1.
    @inlinable public var sign: Int { isNegative ? -1 : 1 }

    /// The axis with the opposite sign.
    @inlinable public var negated: SignedAxis { SignedAxis(index: index, negative: !isNegative) }

    /// The unit vector along this signed axis.
    @inlinable
    public func unitVector<Scalar: PoiseReal>(_ type: Scalar.Type = Scalar.self) -> SIMD3<Scalar> {
        var v = SIMD3<Scalar>.zero
        v[index] = isNegative ? -1 : 1
        return v
    }

    /// `+X`, `-Y`, …
    public var description: String { (isNegative ? "-" : "+") + ["X", "Y", "Z"][index] }
}

/// A problem with an axis-alignment specification such as `+Y-X+Z`.
public struct AxisAlignmentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was parsed.
    public var text: String
    /// 1-based character position of the problem (0 when it concerns the whole text).
    public var position: Int
    /// What is wrong.
    public var message: String

    public init(text: String, position: Int, message: String) {
        self.text = text; self.position = position; self.message = message
    }

    public var description: String {
        position == 0 ? "axis alignment '\(text)': \(message)"
                      : "axis alignment '\(text)', character \(position): \(message)"
    }
}

/// A signed permutation of the three axes: which sensor axis becomes each axis of a new frame.
///
/// The notation lists, for the new x, y and z axes in turn, the signed sensor axis it equals
/// (the x-io Fusion `FusionAxesAlignment` convention): `+Y-X+Z` means
/// `new.x = +sensor.y`, `new.y = −sensor.x`, `new.z = +sensor.z`. As a matrix, `new = M · sensor`
/// where row `i` of `M` is the signed unit vector of the `i`-th letter.
///
/// Of the 48 signed permutations, 24 are *proper* rotations (det M = +1) and 24 are
/// reflections (det M = −1, a left-handed result). Only proper alignments describe a physical
/// rotation; `init(_:allowingReflection:)` rejects reflections unless asked, and attitudes can
/// only be remapped by proper ones (see `FrameRemap`).
@frozen
public struct AxisAlignment: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The sensor axis that becomes the new x axis.
    public var x: SignedAxis
    /// The sensor axis that becomes the new y axis.
    public var y: SignedAxis
    /// The sensor axis that becomes the new z axis.
    public var z: SignedAxis

    /// Creates an alignment from three signed axes, or `nil` when two of them share an axis.
    @inlinable
    public init?(x: SignedAxis, y: SignedAxis, z: SignedAxis) {
        guard x.index != y.index, x.index != z.index, y.index != z.index else { return nil }
        self.x = x; self.y = y; self.z = z
    }

    /// The identity alignment `+X+Y+Z`.
    public static let identity = AxisAlignment(x: .plusX, y: .plusY, z: .plusZ)!

    /// Parses the notation `±A±B±C` (letters X, Y, Z in either case, each exactly once, every
    /// sign written; spaces are not allowed).
    ///
    /// - Throws: `AxisAlignmentError` naming the character at fault, a repeated axis, or — unless
    ///   `allowingReflection` is true — a reflection (determinant −1), with the proper alignment
    ///   that differs only in the sign of z as a hint.
    public init(_ text: String, allowingReflection: Bool = false) throws {
        let characters = Array(text)
        guard characters.count == 6 else {
            throw AxisAlignmentError(text: text, position: 0,
                                     message: "expected three signed axes like +Y-X+Z (6 characters), found \(characters.count) characters")
        }
        var axes: [SignedAxis] = []
        for k in 0..<3 {
            let signCharacter = characters[2 * k], letter = characters[2 * k + 1]
            let negative: Bool
            switch signCharacter {
            case "+": negative = false
            case "-", "−": negative = true
            default:
                throw AxisAlignmentError(text: text, position: 2 * k + 1,
                                         message: "expected a sign '+' or '-', found '\(signCharacter)'")
            }
            let index: Int
            switch letter {
            case "X", "x": index = 0
            case "Y", "y": index = 1
            case "Z", "z": index = 2
            default:
                throw AxisAlignmentError(text: text, position: 2 * k + 2,
                                         message: "expected an axis letter X, Y or Z, found '\(letter)'")
            }
            if let previous = axes.firstIndex(where: { $0.index == index }) {
                throw AxisAlignmentError(text: text, position: 2 * k + 2,
                                         message: "axis \(letter.uppercased()) is used twice (also for new \(["x", "y", "z"][previous])); each of X, Y, Z must appear once")
            }
            axes.append(SignedAxis(index: index, negative: negative))
        }
        let alignment = AxisAlignment(x: axes[0], y: axes[1], z: axes[2])!
        if !allowingReflection && !alignment.isProper {
            let fixed = AxisAlignment(x: axes[0], y: axes[1], z: axes[2].negated)!
            throw AxisAlignmentError(text: text, position: 0,
                                     message: "is a reflection (determinant −1, a left-handed frame), not a rotation; did you mean \(fixed)? Reflections are accepted only when explicitly allowed")
        }
        self = alignment
    }

    /// The three signed axes in order (new x, new y, new z).
    @inlinable public var axes: (SignedAxis, SignedAxis, SignedAxis) { (x, y, z) }

    @inlinable func axis(_ i: Int) -> SignedAxis { i == 0 ? x : (i == 1 ? y : z) }

    /// The determinant of `M`: +1 for a rotation, −1 for a reflection.
    @inlinable
    public var determinant: Int {
        // Sign of the permutation (x.index, y.index, z.index) times the product of the signs.
        let (a, b, c) = (x.index, y.index, z.index)
        let even = (a, b, c) == (0, 1, 2) || (a, b, c) == (1, 2, 0) || (a, b, c) == (2, 0, 1)
        return (even ? 1 : -1) * x.sign * y.sign * z.sign
    }

    /// True for the 24 rotations (determinant +1).
    @inlinable public var isProper: Bool { determinant == 1 }

    /// Maps a sensor-frame vector into the new frame: `new[i] = ±sensor[axis i]`. Exact (only
    /// copies and negations). Works for reflections too.
    @inlinable
    public func apply<Scalar: PoiseReal>(_ v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        @inline(__always) func component(_ a: SignedAxis) -> Scalar { a.isNegative ? -v[a.index] : v[a.index] }
        return SIMD3(component(x), component(y), component(z))
    }

    /// The matrix `M` with `new = M · sensor`.
    @inlinable
    public func matrix<Scalar: PoiseReal>(_ type: Scalar.Type = Scalar.self) -> RotationMatrix<Scalar> {
        RotationMatrix(rows: (x.unitVector(), y.unitVector(), z.unitVector()))
    }

    /// The inverse alignment (new frame back to the sensor frame): `inverse.apply(apply(v)) == v`.
    @inlinable
    public var inverse: AxisAlignment {
        var result: [SignedAxis] = [.plusX, .plusY, .plusZ]
        for i in 0..<3 {
            let a = axis(i)
            result[a.index] = SignedAxis(index: i, negative: a.isNegative)
        }
        return AxisAlignment(x: result[0], y: result[1], z: result[2])!
    }

    /// The alignment that applies `self` first and then `next`:
    /// `self.followed(by: next).apply(v) == next.apply(self.apply(v))`.
    @inlinable
    public func followed(by next: AxisAlignment) -> AxisAlignment {
        func compose(_ b: SignedAxis) -> SignedAxis {
            let a = axis(b.index)
            return SignedAxis(index: a.index, negative: a.isNegative != b.isNegative)
        }
        return AxisAlignment(x: compose(next.x), y: compose(next.y), z: compose(next.z))!
    }

    /// All 48 signed permutations, proper ones first, each group in a fixed order.
    public static let all: [AxisAlignment] = {
        var proper: [AxisAlignment] = [], improper: [AxisAlignment] = []
        for a in SignedAxis.allCases { for b in SignedAxis.allCases { for c in SignedAxis.allCases {
            if let alignment = AxisAlignment(x: a, y: b, z: c) {
                if alignment.isProper { proper.append(alignment) } else { improper.append(alignment) }
            }
        } } }
        return proper + improper
    }()

    /// The 24 proper alignments (rotations by multiples of 90°).
    public static let proper: [AxisAlignment] = Array(all.prefix(24))

    /// The notation, e.g. `+Y-X+Z`.
    public var description: String { "\(x)\(y)\(z)" }
}
