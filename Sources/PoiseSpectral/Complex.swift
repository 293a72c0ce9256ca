import Foundation

/// A complex number in rectangular form, as returned by the transforms.
public struct Complex: Sendable, Hashable, Codable {
    /// Real part.
    public var real: Double
    /// Imaginary part.
    public var imaginary: Double

    /// Creates `real + i·imaginary`.
    @inlinable public init(real: Double, imaginary: Double) {
        self.real = real
        self.imaginary = imaginary
    }

    /// |z|², without a square root.
    @inlinable public var squaredMagnitude: Double { real * real + imaginary * imaginary }

    /// |z|.
    @inlinable public var magnitude: Double { squaredMagnitude.squareRoot() }

    /// The argument in radians, in (−π, π]; 0 for zero.
    public var phase: Double { atan2(imaginary, real) }

    /// Complex product.
    @inlinable public static func * (a: Complex, b: Complex) -> Complex {
        Complex(real: a.real * b.real - a.imaginary * b.imaginary,
                imaginary: a.real * b.imaginary + a.imaginary * b.real)
    }

    /// Complex quotient.
    @inlinable public static func / (a: Complex, b: Complex) -> Complex {
        let d = b.squaredMagnitude
        return Complex(real: (a.real * b.real + a.imaginary * b.imaginary) / d,
                       imaginary: (a.imaginary * b.real - a.real * b.imaginary) / d)
    }

    /// Complex sum.
    @inlinable public static func + (a: Complex, b: Complex) -> Complex {
        Complex(real: a.real + b.real, imaginary: a.imaginary + b.imaginary)
    }

    /// `e^{iθ}` for θ in radians.
    public static func unit(angle: Double) -> Complex {
        Complex(real: cos(angle), imaginary: sin(angle))
    }
}
