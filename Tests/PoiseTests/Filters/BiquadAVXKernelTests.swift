import Testing
@testable import Poise

/// The AVX biquad kernel (C) against the Swift cascade's unfused arithmetic, bit for bit: on
/// random stable cascades and random input, across block edges and calls that continue the
/// state, with NaN, infinities and overflow; and, where the build selects the kernel, the
/// filter's buffer form with it against the Swift kernels and the per-sample form.
@Suite struct BiquadAVXKernelTests {
    /// A stable cascade of `count` random sections (poles inside the unit circle).
    static func sections(_ count: Int, seed: UInt64) -> [Biquad] {
        var g = SplitMix(seed: seed)
        return (0..<count).map { _ in
            let radius = 0.5 + 0.49 * g.uniform(), angle = Double.pi * g.uniform()
            return Biquad(b0: g.gaussian(), b1: g.gaussian(), b2: g.gaussian(),
                          a1: -2 * radius * Double.cos(angle), a2: radius * radius)
        }
    }

    /// Gaussian noise with a step every 350 samples, scaled per lane over ten decades.
    static func signal<Value: SignalValue>(_ count: Int, seed: UInt64, as: Value.Type) -> [Value] where Value.Scalar == Double {
        var g = SplitMix(seed: seed)
        return (0..<count).map { n in
            var v = Value.zero
            for lane in 0..<Value.laneCount {
                let scale = Double.pow(10, Double(lane % 11) - 5)
                v = v + (scale * (g.gaussian() + (n % 700 < 350 ? 1 : -1))) * Self.unit(lane, of: Value.self)
            }
            return v
        }
    }

    /// The value with 1 in `lane` and 0 elsewhere.
    static func unit<Value: SignalValue>(_ lane: Int, of _: Value.Type) -> Value where Value.Scalar == Double {
        var v = Value.zero
        withUnsafeMutableBytes(of: &v) { $0.storeBytes(of: 1.0, toByteOffset: 8 * lane, as: Double.self) }
        return v
    }

    /// The lanes' bit patterns (NaN's payload too).
    static func bits<Value: SignalValue>(_ values: [Value]) -> [UInt64] where Value.Scalar == Double {
        values.flatMap { v in (0..<Value.laneCount).map { v.lane($0).bitPattern } }
    }

    /// The index of the first Double whose bits differ (nil when all agree or the counts do),
    /// so a failure names one place instead of printing the arrays.
    static func firstDifference<Value: SignalValue>(_ a: [Value], _ b: [Value]) -> Int? where Value.Scalar == Double {
        let x = bits(a), y = bits(b)
        guard x.count == y.count else { return -1 }
        return x.indices.first { x[$0] != y[$0] }
    }

    /// The Swift reference: sample by sample, section by section, `stepUnfused`.
    static func reference<Value: SignalValue>(_ coefficients: [Double], _ state: inout [Value], _ x: [Value]) -> [Value] where Value.Scalar == Double {
        coefficients.withUnsafeBufferPointer { c in
            state.withUnsafeMutableBufferPointer { s in
                x.map { input in
                    var v = input
                    for k in 0..<(coefficients.count / 5) {
                        v = BiquadCascade<Value>.Section(c.baseAddress! + 5 * k).stepUnfused(v, &s[2 * k], &s[2 * k + 1])
                    }
                    return v
                }
            }
        }
    }

    /// The kernel over `x` in calls of the given lengths (cycled), the state continuing.
    static func kernel<Value: SignalValue>(_ coefficients: [Double], _ state: inout [Value], _ x: [Value],
                                           calls: [Int], inPlace: Bool = false) -> [Value] where Value.Scalar == Double {
        var y = x
        var i = 0, call = 0
        while i < x.count {
            let n = min(calls[call % calls.count], x.count - i)
            coefficients.withUnsafeBufferPointer { c in
                state.withUnsafeMutableBufferPointer { s in
                    x.withUnsafeBufferPointer { source in
                        y.withUnsafeMutableBufferPointer { target in
                            let from = inPlace ? UnsafePointer(target.baseAddress! + i) : source.baseAddress! + i
                            BiquadAVXKernel.run(c.baseAddress!, sections: coefficients.count / 5, state: s.baseAddress!,
                                                from, target.baseAddress! + i, count: n)
                        }
                    }
                }
            }
            i += n
            call += 1
        }
        return y
    }

    static func coefficients(_ sections: [Biquad]) -> [Double] {
        sections.flatMap { [$0.b0, $0.b1, $0.b2, $0.a1, $0.a2] }
    }

    /// One, two, three, four sections (one pass), five, eight and nine (two and three passes).
    static let sectionCounts = [1, 2, 3, 4, 5, 8, 9]

    @Test(.enabled(if: BiquadAVXKernel.isAvailable, "the CPU has no AVX (or is not x86-64)"), arguments: sectionCounts)
    func kernelEqualsTheUnfusedSwiftStepBitForBit(sectionCount: Int) {
        let c = Self.coefficients(Self.sections(sectionCount, seed: UInt64(100 + sectionCount)))
        // Lengths of calls around the filter's block of 1024 and odd ones.
        let calls = [1, 1023, 1024, 1025, 7, 3001, 2]
        func check<Value: SignalValue>(_: Value.Type) where Value.Scalar == Double {
            let x = Self.signal(7000, seed: UInt64(sectionCount), as: Value.self)
            var start = Self.signal(2 * sectionCount, seed: 99, as: Value.self)
            var expectedState = start
            let expected = Self.reference(c, &expectedState, x)
            let actual = Self.kernel(c, &start, x, calls: calls)
            #expect(Self.firstDifference(actual, expected) == nil, "\(Value.self), \(sectionCount) sections")
            #expect(Self.firstDifference(start, expectedState) == nil, "\(Value.self), \(sectionCount) sections: state")
            var inPlaceState = Self.signal(2 * sectionCount, seed: 99, as: Value.self)
            let inPlace = Self.kernel(c, &inPlaceState, x, calls: calls, inPlace: true)
            #expect(Self.firstDifference(inPlace, expected) == nil, "\(Value.self), \(sectionCount) sections, in place")
        }
        check(SIMD4<Double>.self)
        check(SIMD8<Double>.self)
        check(SIMD16<Double>.self)
    }

    @Test(.enabled(if: BiquadAVXKernel.isAvailable, "the CPU has no AVX (or is not x86-64)"))
    func nonFiniteInputAndOverflowPropagateAsInTheSwiftStep() {
        let c = Self.coefficients(Self.sections(4, seed: 7))
        var x = Self.signal(4200, seed: 8, as: SIMD4<Double>.self)
        for i in [0, 1023, 1024, 2047] { x[i][1] = .nan }
        for i in [1500, 3072] { x[i][0] = .infinity }
        x[3500][3] = -.infinity
        for i in 2500..<2510 { x[i][2] = 1e308 }   // overflows to infinity in the state
        var expectedState = [SIMD4<Double>](repeating: .zero, count: 8)
        var state = expectedState
        let expected = Self.reference(c, &expectedState, x)
        let actual = Self.kernel(c, &state, x, calls: [1024])
        // Every lane: the same bits, or NaN in both (a NaN's payload is not part of the contract).
        func same(_ a: [SIMD4<Double>], _ b: [SIMD4<Double>]) -> Bool {
            zip(Self.bits(a), Self.bits(b)).allSatisfy { p, q in
                p == q || (Double(bitPattern: p).isNaN && Double(bitPattern: q).isNaN)
            }
        }
        #expect(same(actual, expected))
        #expect(same(state, expectedState))
        // The recurrence does spread them: the check above compared non-finite values.
        #expect(expected.contains { !$0.isFinite })
        #expect(!expectedState[0].isFinite)
    }

    @Test(.enabled(if: BiquadAVXKernel.isSelected, "this build runs its own kernels (built for a CPU, or not x86-64, or no AVX)"),
          arguments: 1...8)
    func bufferFormWithTheKernelEqualsTheSwiftKernelsAndPerSample(order: Int) throws {
        var x = Self.signal(5000, seed: UInt64(order), as: SIMD4<Double>.self)
        for i in [0, 1023, 1024, 2047, 4999] { x[i][1] = .nan }
        for i in [1500, 3072] { x[i][0] = .infinity }
        for i in 2500..<2510 { x[i] = SIMD4(repeating: 1e308) }
        for band in [ButterworthBand.lowPass(cutoff: 5), .highPass(cutoff: 2), .bandPass(low: 1, high: 10)] {
            for start in FilterStart.allCases {
                let made = try ButterworthFilter<SIMD4<Double>>(band: band, order: order, sampleRate: 100, start: start)
                var dispatched = made, swift = made, single = made
                swift.dispatches = false
                let expected = x.map { single.process($0) }
                let withKernel = dispatched.process(x), withSwift = swift.process(x)
                #expect(Self.firstDifference(withKernel, withSwift) == nil, "\(band) order \(order) \(start)")
                #expect(Self.firstDifference(withKernel, expected) == nil, "\(band) order \(order) \(start): per sample")
            }
        }
    }
}
