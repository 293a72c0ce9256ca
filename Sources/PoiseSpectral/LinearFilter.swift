import Foundation

/// A discrete-time linear time-invariant filter whose frequency response can be computed exactly.
///
/// Frequencies are normalised angles ω = 2π·f/fs in radians per sample.
public protocol LinearFilterResponse: Sendable {
    /// H(e^{iω}).
    func response(atAngle omega: Double) -> Complex
    /// Group delay −dφ/dω in samples; 0 where H(e^{iω}) is 0 (as scipy.signal.group_delay).
    func groupDelay(atAngle omega: Double) -> Double
}

/// H(z) = B(z)/A(z) = (b₀ + b₁z⁻¹ + … ) / (a₀ + a₁z⁻¹ + …), the `(b, a)` form of
/// scipy.signal and MATLAB.
public struct TransferFunction: LinearFilterResponse, Hashable, Codable {
    /// Numerator coefficients b, in powers of z⁻¹.
    public var numerator: [Double]
    /// Denominator coefficients a, in powers of z⁻¹; a₀ ≠ 0.
    public var denominator: [Double]

    /// - Throws: `SpectralError.invalidParameter` for empty, non-finite or a₀ = 0 coefficients.
    public init(numerator: [Double], denominator: [Double] = [1]) throws {
        guard !numerator.isEmpty, numerator.allSatisfy(\.isFinite) else {
            throw SpectralError.invalidParameter(name: "numerator", value: "\(numerator)", rule: "needs at least one finite coefficient")
        }
        guard let first = denominator.first, first != 0, denominator.allSatisfy(\.isFinite) else {
            throw SpectralError.invalidParameter(name: "denominator", value: "\(denominator)", rule: "needs finite coefficients with a₀ ≠ 0")
        }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// H(e^{iω}) = B(e^{iω}) / A(e^{iω}), ω in radians per sample.
    public func response(atAngle omega: Double) -> Complex {
        Self.evaluate(numerator, omega).value / Self.evaluate(denominator, omega).value
    }

    /// Group delay in samples at ω (radians per sample); 0 where B or A vanishes.
    // τ(ω) = Re[Σ n·bₙe^{−iωn} / Σ bₙe^{−iωn}] − Re[Σ n·aₙe^{−iωn} / Σ aₙe^{−iωn}],
    // the derivative of −arg H written without differentiating the phase.
    public func groupDelay(atAngle omega: Double) -> Double {
        let b = Self.evaluate(numerator, omega), a = Self.evaluate(denominator, omega)
        let scaleB = numerator.reduce(0) { $0 + abs($1) }, scaleA = denominator.reduce(0) { $0 + abs($1) }
        guard b.value.magnitude > 1e-12 * scaleB, a.value.magnitude > 1e-12 * scaleA else { return 0 }
        return (b.ramped / b.value).real - (a.ramped / a.value).real
    }

    /// Σ cₙe^{−iωn} and Σ n·cₙe^{−iωn}.
    static func evaluate(_ c: [Double], _ omega: Double) -> (value: Complex, ramped: Complex) {
        var value = Complex(real: 0, imaginary: 0), ramped = value
        for (n, coefficient) in c.enumerated() {
            let term = Complex(real: coefficient * cos(omega * Double(n)), imaginary: -coefficient * sin(omega * Double(n)))
            value = value + term
            ramped = ramped + Complex(real: Double(n) * term.real, imaginary: Double(n) * term.imaginary)
        }
        return (value, ramped)
    }
}

/// A cascade of biquads (scipy's `sos` form): each section is `[b0, b1, b2, a0, a1, a2]`.
public struct SecondOrderSections: LinearFilterResponse, Hashable, Codable {
    /// The sections as transfer functions, applied in order.
    public var sections: [TransferFunction]

    /// - Throws: `SpectralError.invalidParameter` when a row does not have 6 coefficients or a
    ///   section is invalid.
    public init(_ rows: [[Double]]) throws {
        sections = try rows.enumerated().map { index, row in
            guard row.count == 6 else {
                throw SpectralError.invalidParameter(name: "section \(index)", value: "\(row)", rule: "needs 6 coefficients b0 b1 b2 a0 a1 a2")
            }
            return try TransferFunction(numerator: Array(row[0..<3]), denominator: Array(row[3..<6]))
        }
    }

    /// The product of the sections' responses at ω (radians per sample).
    public func response(atAngle omega: Double) -> Complex {
        sections.reduce(Complex(real: 1, imaginary: 0)) { $0 * $1.response(atAngle: omega) }
    }

    /// The sum of the sections' group delays at ω, in samples.
    public func groupDelay(atAngle omega: Double) -> Double {
        sections.reduce(0) { $0 + $1.groupDelay(atAngle: omega) }
    }
}
