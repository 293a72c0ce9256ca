/// How well a set of unit directions (the field or gravity as the device saw it) covers the
/// sphere: the evidence that a calibration fit is determined.
///
/// - `sphereFraction`: share of 200 equal-area cells (10 bands of equal height in z — equal area
///   on a sphere, after Archimedes — times 20 sectors of longitude) holding at least one direction.
/// - `turn`: for each device axis, degrees through which the direction turned about it: the
///   angle of the direction's projection onto the plane across the axis, 360° minus the largest
///   empty gap of its circular range (1° bins; directions within 17° of the axis are not used).
/// - `thickness`: RMS of the directions' component along `thinnestAxis`, the eigenvector of the
///   smallest eigenvalue of their covariance. Directions on one great or small circle (a device
///   turned about one axis only) have thickness 0; a uniform sphere has 1/√3 ≈ 0.577.
public struct DirectionCoverage: Sendable, Equatable {
    /// Fraction (0…1) of the sphere's 200 cells visited.
    public var sphereFraction: Double
    /// Degrees turned about device X, Y and Z (0…360).
    public var turn: SIMD3<Double>
    /// RMS spread of the directions across their best-fitting plane (0…1).
    public var thickness: Double
    /// The normal of that plane (unit vector, device frame).
    public var thinnestAxis: SIMD3<Double>
    /// Directions examined (at most ``maximumCount``).
    public var count: Int

    /// Largest number of directions examined: longer inputs are thinned to every k-th vector
    /// (k = ⌈count / 20 000⌉), which keeps the estimate and bounds the cost.
    public static let maximumCount = 20_000

    /// Coverage of `vectors` (each normalised; zero or non-finite vectors are not counted).
    public init(_ vectors: [SIMD3<Double>]) {
        self.init(count: vectors.count) { vectors[$0] }
    }

    /// Coverage of the vectors `vector(i)` for i in 0..<count (nil: not counted).
    init(count total: Int, _ vector: (Int) -> SIMD3<Double>?) {
        self.init(count: total) { step, add in
            for index in stride(from: 0, to: total, by: step) { add(vector(index)) }
        }
    }

    /// Coverage of `count` vectors kept elsewhere (a `ValueLog`): `vectors(step, add)` hands
    /// `add` the vectors at `stride(from: 0, to: count, by: step)` in order (nil: not counted).
    /// Inlined into its caller, so that `add` is not a call per vector.
    @inline(__always)
    init(count total: Int, vectors: (_ step: Int, _ add: (SIMD3<Double>?) -> Void) -> Void) {
        var cells = [Bool](repeating: false, count: 200)
        var bins = [Bool](repeating: false, count: 3 * 360)
        var sum = SIMD3<Double>.zero
        var products = [Double](repeating: 0, count: 9)
        var n = 0
        let step = max(1, (total + Self.maximumCount - 1) / Self.maximumCount)
        vectors(step) { vector in
            guard let vector else { return }
            let length = (vector * vector).sum().squareRoot()
            guard length > 0, length.isFinite else { return }
            let u = vector / length
            n += 1
            sum += u
            for i in 0..<3 { for j in i..<3 { products[i * 3 + j] += u[i] * u[j] } }
            let band = min(9, max(0, Int(((u.z + 1) / 2 * 10).rounded(.down))))
            let longitude = atan2(u.y, u.x)
            let sector = min(19, max(0, Int(((longitude + .pi) / (2 * .pi) * 20).rounded(.down))))
            cells[band * 20 + sector] = true
            for axis in 0..<3 {
                let (a, b) = (u[(axis + 1) % 3], u[(axis + 2) % 3])
                guard a * a + b * b > 0.0855 else { continue }  // sin²(17°)
                let degrees = atan2(b, a) * 180 / .pi + 180
                bins[axis * 360 + min(359, max(0, Int(degrees.rounded(.down))))] = true
            }
        }
        count = n
        sphereFraction = Double(cells.filter { $0 }.count) / 200
        var spans = SIMD3<Double>.zero
        for axis in 0..<3 {
            let used = bins[(axis * 360)..<(axis * 360 + 360)]
            guard used.contains(true) else { continue }
            var largestGap = 0, gap = 0
            for k in 0..<720 {   // twice around, so a gap across 0° is counted whole
                if used[axis * 360 + k % 360] { gap = 0 } else { gap += 1; largestGap = max(largestGap, min(gap, 360)) }
            }
            spans[axis] = Double(360 - largestGap)
        }
        turn = spans
        guard n > 1 else { thickness = 0; thinnestAxis = SIMD3(0, 0, 1); return }
        let mean = sum / Double(n)
        var covariance = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in i..<3 { covariance[i * 3 + j] = products[i * 3 + j] / Double(n) - mean[i] * mean[j] } }
        let eigen = SymmetricEigen(covariance, n: 3)
        thickness = max(0, eigen.values[0]).squareRoot()
        thinnestAxis = eigen.vector3(0)
    }

    /// The device axis (X, Y or Z) closest to `thinnestAxis`.
    public var thinnestAxisName: String { Self.axisName(thinnestAxis) }

    /// "X", "Y" or "Z": the axis with the largest component of `v`.
    static func axisName(_ v: SIMD3<Double>) -> String {
        let m = SIMD3(v.x.magnitude, v.y.magnitude, v.z.magnitude)
        return m.x >= m.y && m.x >= m.z ? "X" : m.y >= m.z ? "Y" : "Z"
    }

    /// The turn about X, Y and Z as text: "40° about X, 355° about Y, 360° about Z".
    public var turnText: String {
        zip(["X", "Y", "Z"], [turn.x, turn.y, turn.z]).map { "\(Int($1.rounded()))° about \($0)" }.joined(separator: ", ")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
