/// A value a filter can smooth: a scalar (`Float`, `Double`) or a SIMD vector of them
/// (`SIMD2`…`SIMD16`), processed lane by lane.
///
/// Filters are generic over this protocol so one implementation serves a single channel, a
/// 3-axis sensor (use `SIMD4` with a zero fourth lane for speed: `SIMD3` compiles to a scalar
/// lane plus shuffles) and many independent channels at once (`SIMD8`, `SIMD16`).
public protocol SignalValue: Sendable, Equatable {
    /// The scalar type of each lane.
    associatedtype Scalar: PoiseReal
    /// All lanes zero.
    static var zero: Self { get }
    /// All lanes equal to `scalar`.
    init(repeating scalar: Scalar)
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Scalar, rhs: Self) -> Self
    /// `self + a * b` lane by lane, fused (one rounding) when the target has FMA.
    func addingProduct(_ a: Scalar, _ b: Self) -> Self
    /// The sum of the squares of the lanes (the squared Euclidean norm).
    var lengthSquared: Scalar { get }
    /// The largest absolute lane value.
    var maxMagnitude: Scalar { get }
    /// True when every lane is finite.
    var isFinite: Bool { get }
    /// Number of lanes (1 for scalars).
    static var laneCount: Int { get }
    /// Lane `i`, `0 ..< laneCount`.
    func lane(_ i: Int) -> Scalar
    /// Lane-by-lane product.
    static func * (lhs: Self, rhs: Self) -> Self
    /// Lane-by-lane quotient.
    static func / (lhs: Self, rhs: Self) -> Self
    /// The absolute value of every lane.
    var laneMagnitudes: Self { get }
}

extension Float: SignalValue {
    public typealias Scalar = Float
    @inlinable public init(repeating scalar: Float) { self = scalar }
    @inlinable public var lengthSquared: Float { self * self }
    @inlinable public var maxMagnitude: Float { magnitude }
    @inlinable public static var laneCount: Int { 1 }
    @inlinable public func lane(_ i: Int) -> Float { self }
    @inlinable public var laneMagnitudes: Float { magnitude }
}

extension Double: SignalValue {
    public typealias Scalar = Double
    @inlinable public init(repeating scalar: Double) { self = scalar }
    @inlinable public var lengthSquared: Double { self * self }
    @inlinable public var maxMagnitude: Double { magnitude }
    @inlinable public static var laneCount: Int { 1 }
    @inlinable public func lane(_ i: Int) -> Double { self }
    @inlinable public var laneMagnitudes: Double { magnitude }
}

extension SIMD where Scalar: PoiseReal {
    @inlinable public var lengthSquared: Scalar { (self * self).sum() }
    @inlinable public var maxMagnitude: Scalar {
        var m: Scalar = 0
        for i in indices { m = Swift.max(m, self[i].magnitude) }
        return m
    }
    @inlinable @inline(__always) public var isFinite: Bool {
        // A lane is non-finite exactly when x - x is not 0 (NaN - NaN and Inf - Inf are NaN).
        // Forced inline: for SIMD8/SIMD16 the compiler otherwise calls it out of line, which
        // spills the vectors of a filter loop to memory.
        let d = self - self
        return d == Self.zero
    }
    @inlinable public static var laneCount: Int { Self.scalarCount }
    @inlinable public func lane(_ i: Int) -> Scalar { self[i] }
    @inlinable public var laneMagnitudes: Self { replacing(with: Self.zero - self, where: self .< Self.zero) }
    /// Forced inline for the same reason as `isFinite` (SIMD16 calls were left out of line).
    @inlinable @inline(__always) public func addingProduct(_ a: Scalar, _ b: Self) -> Self {
        addingProduct(Self(repeating: a), b)
    }
}

extension SIMD2: SignalValue where Scalar: PoiseReal {}
extension SIMD3: SignalValue where Scalar: PoiseReal {}
extension SIMD4: SignalValue where Scalar: PoiseReal {}
extension SIMD8: SignalValue where Scalar: PoiseReal {}
extension SIMD16: SignalValue where Scalar: PoiseReal {}
