#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A floating-point scalar with the elementary functions Poise needs.
///
/// `Float` and `Double` conform. The core module deliberately avoids Foundation, so the
/// functions come straight from the C library.
public protocol PoiseReal: BinaryFloatingPoint, SIMDScalar, Sendable, Codable
where Self.RawSignificand: FixedWidthInteger {
    static func sin(_ x: Self) -> Self
    static func cos(_ x: Self) -> Self
    static func tan(_ x: Self) -> Self
    static func asin(_ x: Self) -> Self
    static func acos(_ x: Self) -> Self
    static func atan(_ x: Self) -> Self
    static func atan2(y: Self, x: Self) -> Self
    static func exp(_ x: Self) -> Self
    static func log(_ x: Self) -> Self
    static func pow(_ x: Self, _ y: Self) -> Self
}

extension Float: PoiseReal {
    @inlinable @inline(__always) public static func sin(_ x: Float) -> Float { sinf(x) }
    @inlinable @inline(__always) public static func cos(_ x: Float) -> Float { cosf(x) }
    @inlinable @inline(__always) public static func tan(_ x: Float) -> Float { tanf(x) }
    @inlinable @inline(__always) public static func asin(_ x: Float) -> Float { asinf(x) }
    @inlinable @inline(__always) public static func acos(_ x: Float) -> Float { acosf(x) }
    @inlinable @inline(__always) public static func atan(_ x: Float) -> Float { atanf(x) }
    @inlinable @inline(__always) public static func atan2(y: Float, x: Float) -> Float { atan2f(y, x) }
    @inlinable @inline(__always) public static func exp(_ x: Float) -> Float { expf(x) }
    @inlinable @inline(__always) public static func log(_ x: Float) -> Float { logf(x) }
    @inlinable @inline(__always) public static func pow(_ x: Float, _ y: Float) -> Float { powf(x, y) }
}

extension Double: PoiseReal {
    @inlinable @inline(__always) public static func sin(_ x: Double) -> Double { Glibc_sin(x) }
    @inlinable @inline(__always) public static func cos(_ x: Double) -> Double { Glibc_cos(x) }
    @inlinable @inline(__always) public static func tan(_ x: Double) -> Double { Glibc_tan(x) }
    @inlinable @inline(__always) public static func asin(_ x: Double) -> Double { Glibc_asin(x) }
    @inlinable @inline(__always) public static func acos(_ x: Double) -> Double { Glibc_acos(x) }
    @inlinable @inline(__always) public static func atan(_ x: Double) -> Double { Glibc_atan(x) }
    @inlinable @inline(__always) public static func atan2(y: Double, x: Double) -> Double { Glibc_atan2(y, x) }
    @inlinable @inline(__always) public static func exp(_ x: Double) -> Double { Glibc_exp(x) }
    @inlinable @inline(__always) public static func log(_ x: Double) -> Double { Glibc_log(x) }
    @inlinable @inline(__always) public static func pow(_ x: Double, _ y: Double) -> Double { Glibc_pow(x, y) }
}

// The C functions share names with the protocol requirements; these aliases reach the C ones.
@usableFromInline @inline(__always) func Glibc_sin(_ x: Double) -> Double { sin(x) }
@usableFromInline @inline(__always) func Glibc_cos(_ x: Double) -> Double { cos(x) }
@usableFromInline @inline(__always) func Glibc_tan(_ x: Double) -> Double { tan(x) }
@usableFromInline @inline(__always) func Glibc_asin(_ x: Double) -> Double { asin(x) }
@usableFromInline @inline(__always) func Glibc_acos(_ x: Double) -> Double { acos(x) }
@usableFromInline @inline(__always) func Glibc_atan(_ x: Double) -> Double { atan(x) }
@usableFromInline @inline(__always) func Glibc_atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@usableFromInline @inline(__always) func Glibc_exp(_ x: Double) -> Double { exp(x) }
@usableFromInline @inline(__always) func Glibc_log(_ x: Double) -> Double { log(x) }
@usableFromInline @inline(__always) func Glibc_pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
