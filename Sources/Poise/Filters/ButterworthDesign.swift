/// One second-order section (biquad) `H(z) = (b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²)`,
/// the row `[b0, b1, b2, 1, a1, a2]` of a scipy `sos` array. A first-order section has
/// `b2 = a2 = 0`.
public struct Biquad: Sendable, Equatable, Codable {
    public var b0: Double, b1: Double, b2: Double
    public var a1: Double, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }

    /// Gain at DC, `H(1)`.
    public var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }

    /// Magnitude response `|H(e^{jω})|` at `frequency` Hz for `sampleRate` Hz.
    public func magnitude(atFrequency frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let z1 = Complex(cosine: -w), z2 = Complex(cosine: -2 * w)
        let numerator = Complex(b0) + z1 * b1 + z2 * b2
        let denominator = Complex(1) + z1 * a1 + z2 * a2
        return (numerator.magnitudeSquared / denominator.magnitudeSquared).squareRoot()
    }
}

/// The band a Butterworth filter passes.
public enum ButterworthBand: Sendable, Equatable, Codable {
    /// Passes below `cutoff` Hz.
    case lowPass(cutoff: Double)
    /// Passes above `cutoff` Hz.
    case highPass(cutoff: Double)
    /// Passes between `low` and `high` Hz.
    case bandPass(low: Double, high: Double)
}

/// Butterworth design as second-order sections, the same design as
/// `scipy.signal.butter(order, Wn, btype, fs=sampleRate, output="sos")`: the analog prototype's
/// poles `−exp(jπm/(2N))`, pre-warped band edges `2·fs·tan(π·f/fs)`, the lowpass-to-lowpass /
/// highpass / bandpass transforms, the bilinear transform, and the overall gain put in the first
/// section. (Sections may be paired and ordered differently from scipy; the filter is the same.)
public enum ButterworthDesign {
    /// Designs the sections.
    ///
    /// - Parameters:
    ///   - band: pass band, edges in Hz, each in (0, sampleRate/2); `low < high` for band-pass.
    ///   - order: 1…8 (a band-pass of order N has 2N poles, N sections).
    ///   - sampleRate: Hz.
    /// - Returns: `ceil(order/2)` sections for low/high-pass, `order` for band-pass.
    /// - Throws: `FilterParameterError` naming the bad parameter.
    public static func sections(band: ButterworthBand, order: Int, sampleRate: Double) throws(FilterParameterError) -> [Biquad] {
        guard (1...8).contains(order) else {
            throw FilterParameterError(parameter: "order", message: "must be 1…8, got \(order)")
        }
        try requirePositive(sampleRate, "rate")
        let fs2 = 2 * sampleRate
        func warp(_ f: Double) -> Double { fs2 * Double.tan(Double.pi * f / sampleRate) }
        // Analog prototype (scipy.signal.buttap): no zeros, poles −exp(jπm/(2N)), gain 1.
        let prototype = stride(from: -order + 1, to: order, by: 2).map { m in
            -Complex(cosine: Double.pi * Double(m) / Double(2 * order))
        }
        var poles: [Complex] = []
        var zeros: [Complex] = []
        var gain = 1.0
        switch band {
        case .lowPass(let cutoff):
            try requireBelowNyquist(cutoff, "cutoff", sampleRate: sampleRate)
            let w = warp(cutoff)
            poles = prototype.map { $0 * w }
            gain = Double.pow(w, Double(order))
        case .highPass(let cutoff):
            try requireBelowNyquist(cutoff, "cutoff", sampleRate: sampleRate)
            let w = warp(cutoff)
            poles = prototype.map { Complex(w) / $0 }
            zeros = Array(repeating: Complex(0), count: order)
            gain = (prototype.reduce(Complex(1)) { $0 * -$1 }).reciprocal.real
        case .bandPass(let low, let high):
            try requireBelowNyquist(low, "low", sampleRate: sampleRate)
            try requireBelowNyquist(high, "high", sampleRate: sampleRate)
            guard low < high else {
                throw FilterParameterError(parameter: "high", message: "must exceed low (\(low) Hz), got \(high) Hz")
            }
            let wl = warp(low), wh = warp(high)
            let bandwidth = wh - wl
            let centre = (wl * wh).squareRoot()
            let scaled = prototype.map { $0 * (bandwidth / 2) }
            let offsets = scaled.map { ($0 * $0 - Complex(centre * centre)).squareRoot() }
            poles = zip(scaled, offsets).map { $0 + $1 } + zip(scaled, offsets).map { $0 - $1 }
            zeros = Array(repeating: Complex(0), count: order)
            gain = Double.pow(bandwidth, Double(order))
        }
        // Bilinear transform (scipy.signal.bilinear_zpk).
        let digitalZeros = zeros.map { (Complex(fs2) + $0) / (Complex(fs2) - $0) }
            + Array(repeating: Complex(-1), count: poles.count - zeros.count)
        let digitalPoles = poles.map { (Complex(fs2) + $0) / (Complex(fs2) - $0) }
        let numerator = zeros.reduce(Complex(1)) { $0 * (Complex(fs2) - $1) }
        let denominator = poles.reduce(Complex(1)) { $0 * (Complex(fs2) - $1) }
        gain *= (numerator / denominator).real
        return pair(zeros: digitalZeros, poles: digitalPoles, gain: gain)
    }

    /// Groups conjugate pole pairs (and leftover real poles) into sections; the zeros of these
    /// designs are all real (±1). The overall gain goes into the first section, as in scipy.
    static func pair(zeros: [Complex], poles: [Complex], gain: Double) -> [Biquad] {
        let tolerance = 1e-12
        var polePairs: [(Complex, Complex?)] = []
        var realPoles: [Double] = []
        for p in poles {
            if abs(p.imaginary) <= tolerance * Swift.max(1, p.magnitude) {
                realPoles.append(p.real)
            } else if p.imaginary > 0 {
                polePairs.append((p, p.conjugate))
            }
        }
        realPoles.sort()
        var index = 0
        while index + 1 < realPoles.count {
            polePairs.append((Complex(realPoles[index]), Complex(realPoles[index + 1])))
            index += 2
        }
        if index < realPoles.count { polePairs.append((Complex(realPoles[index]), nil)) }
        // Zeros: alternate +1 / −1 so band-pass sections each get one of each.
        var positive = zeros.filter { $0.real > 0 }.map(\.real)
        var negative = zeros.filter { $0.real <= 0 }.map(\.real)
        func nextZero() -> Double? {
            if positive.count >= negative.count, let z = positive.popLast() { return z }
            if let z = negative.popLast() { return z }
            return positive.popLast()
        }
        var sections: [Biquad] = []
        for (p1, p2) in polePairs {
            if let p2 {
                let z1 = nextZero() ?? 0, z2 = nextZero() ?? 0
                let sum = p1 + p2, product = p1 * p2
                sections.append(Biquad(b0: 1, b1: -(z1 + z2), b2: z1 * z2, a1: -sum.real, a2: product.real))
            } else {
                let z1 = nextZero() ?? 0
                sections.append(Biquad(b0: 1, b1: -z1, b2: 0, a1: -p1.real, a2: 0))
            }
        }
        sections[0].b0 *= gain
        sections[0].b1 *= gain
        sections[0].b2 *= gain
        return sections
    }
}

/// Minimal complex arithmetic for filter design (not a public numeric type).
@usableFromInline
struct Complex: Sendable, Equatable {
    var real: Double
    var imaginary: Double

    init(_ real: Double, _ imaginary: Double = 0) { self.real = real; self.imaginary = imaginary }
    /// `exp(jθ)`.
    init(cosine theta: Double) { real = Double.cos(theta); imaginary = Double.sin(theta) }

    var conjugate: Complex { Complex(real, -imaginary) }
    var magnitudeSquared: Double { real * real + imaginary * imaginary }
    var magnitude: Double { magnitudeSquared.squareRoot() }
    var reciprocal: Complex { Complex(1) / self }

    /// Principal square root.
    func squareRoot() -> Complex {
        let r = magnitude
        let re = ((r + real) / 2).squareRoot()
        let im = ((r - real) / 2).squareRoot()
        return Complex(re, imaginary < 0 ? -im : im)
    }

    static func + (a: Complex, b: Complex) -> Complex { Complex(a.real + b.real, a.imaginary + b.imaginary) }
    static func - (a: Complex, b: Complex) -> Complex { Complex(a.real - b.real, a.imaginary - b.imaginary) }
    static prefix func - (a: Complex) -> Complex { Complex(-a.real, -a.imaginary) }
    static func * (a: Complex, b: Complex) -> Complex {
        Complex(a.real * b.real - a.imaginary * b.imaginary, a.real * b.imaginary + a.imaginary * b.real)
    }
    static func * (a: Complex, s: Double) -> Complex { Complex(a.real * s, a.imaginary * s) }
    static func / (a: Complex, b: Complex) -> Complex {
        let d = b.magnitudeSquared
        return Complex((a.real * b.real + a.imaginary * b.imaginary) / d,
                       (a.imaginary * b.real - a.real * b.imaginary) / d)
    }
}
