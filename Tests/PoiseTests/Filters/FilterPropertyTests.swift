import Testing
@testable import Poise

/// Properties every filter must have, checked on every kind of spec.
@Suite struct FilterPropertyTests {
    static let specs = [
        "lowpass:cutoff=5", "lowpass:cutoff=5,start=zero", "highpass:cutoff=0.5", "factor:k=0.1", "factor:k=0.2,highpass",
        "butter:lowpass,order=4,cutoff=5", "butter:highpass,order=3,cutoff=1,start=zero", "butter:bandpass,order=2,low=0.5,high=8",
        "accelgraph:cutoff=5", "accelgraph:cutoff=5,adaptive", "accelgraph:highpass,cutoff=5,adaptive,start=zero",
        "oneeuro:mincutoff=0.1,beta=2,dcutoff=1", "adaptive", "adaptive:cutoff=1,threshold=0.05",
    ]

    static func signal(_ count: Int, seed: UInt64) -> (values: [SIMD3<Double>], periods: [Double]) {
        var g = SplitMix(seed: seed)
        var values: [SIMD3<Double>] = []
        var periods: [Double] = []
        for n in 0..<count {
            let t = Double(n) / 100
            values.append(SIMD3(0.2 * Double.sin(3 * t), n > count / 2 ? 1 : 0, 1) + SIMD3(g.gaussian(), g.gaussian(), g.gaussian()) * 0.02)
            periods.append(0.01 * (0.5 + g.uniform()))
        }
        return (values, periods)
    }

    static func make<V: SignalValue>(_ spec: String, _ type: V.Type) throws -> AnyFilter<V> {
        try FilterSpec(parsing: spec).makeFilter(V.self, sampleRate: 100)
    }

    @Test(arguments: specs)
    func batchEqualsThePerSampleLoop(spec: String) throws {
        let (x, dt) = Self.signal(400, seed: 1)
        var batch = try Self.make(spec, SIMD3<Double>.self)
        var single = try Self.make(spec, SIMD3<Double>.self)
        #expect(batch.process(x) == x.map { single.process($0) })
        var batchTimed = try Self.make(spec, SIMD3<Double>.self)
        var singleTimed = try Self.make(spec, SIMD3<Double>.self)
        #expect(batchTimed.process(x, dt: dt) == zip(x, dt).map { singleTimed.process($0, dt: $1) })
        // Concrete (non-erased) filter types use the same extension; check one through buffers.
        let floats = x.map { SIMD4<Float>(Float($0.x), Float($0.y), Float($0.z), 0) }
        var f1 = try Self.make(spec, SIMD4<Float>.self), f2 = try Self.make(spec, SIMD4<Float>.self)
        var out = [SIMD4<Float>](repeating: .zero, count: floats.count)
        floats.withUnsafeBufferPointer { source in out.withUnsafeMutableBufferPointer { f1.process(source, into: $0) } }
        #expect(out == floats.map { f2.process($0) })
    }

    @Test(arguments: specs)
    func batchEqualsThePerSampleLoopThroughBadInputAndOverflow(spec: String) throws {
        var g = SplitMix(seed: 8)
        var x = (0..<1500).map { n in SIMD4<Float>(Float(g.gaussian()), Float(n % 300 < 150 ? 1 : -1), 1, 0) }
        for i in [0, 1, 300, 301, 700, 1499] { x[i] = SIMD4(.nan, 0, 1, 0) }
        for i in [900, 1000, 1001] { x[i] = SIMD4(.infinity, 3e38, -3e38, 0) }
        for i in 1100..<1110 { x[i] = SIMD4(3.4e38, -3.4e38, 3.4e38, 0) }
        var batch = try Self.make(spec, SIMD4<Float>.self)
        var single = try Self.make(spec, SIMD4<Float>.self)
        let expected = x.map { single.process($0) }
        let actual = batch.process(x)
        #expect(actual.count == expected.count)
        for i in x.indices where actual[i] != expected[i] {
            Issue.record("\(spec): sample \(i) batch \(actual[i]) vs per-sample \(expected[i])")
            break
        }
        #expect(actual.allSatisfy { $0.isFinite })
    }

    @Test(arguments: specs)
    func resetEqualsAFreshFilterAndCopiesFork(spec: String) throws {
        let (x, dt) = Self.signal(300, seed: 2)
        let (x2, _) = Self.signal(300, seed: 3)
        var used = try Self.make(spec, SIMD3<Double>.self)
        _ = used.process(x, dt: dt)
        used.reset()
        var fresh = try Self.make(spec, SIMD3<Double>.self)
        #expect(used.process(x2) == fresh.process(x2))
        var copy = fresh
        let fromCopy = copy.process(x)
        #expect(fresh.process(x) == fromCopy)
    }

    @Test(arguments: specs)
    func rejectsNonFiniteInputAndCarriesItsTime(spec: String) throws {
        let (x, dt) = Self.signal(200, seed: 4)
        var withBad = try Self.make(spec, SIMD3<Double>.self)
        var without = try Self.make(spec, SIMD3<Double>.self)
        var carried = 0.0
        var last = SIMD3<Double>.zero   // the previous output; zero before the first input
        for i in x.indices {
            if i % 37 == 0 {
                for bad in [SIMD3<Double>(.nan, 0, 1), SIMD3(0, .infinity, 1), SIMD3(-.infinity, .nan, 0)] {
                    #expect(withBad.process(bad, dt: dt[i]) == last)
                    carried += dt[i]
                }
            }
            let y = withBad.process(x[i], dt: dt[i])
            let z = without.process(x[i], dt: dt[i] + carried)
            carried = 0
            last = y
            #expect(y.isFinite)
            #expect(maxAbs(y - z) <= 1e-12, "\(spec) sample \(i)")
        }
    }

    @Test(arguments: specs)
    func neverEmitsNonFiniteValuesForFiniteFloatInput(spec: String) throws {
        var filter = try Self.make(spec, SIMD4<Float>.self)
        var g = SplitMix(seed: 5)
        let extremes: [Float] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e38, -3e38, 0, 1, .leastNonzeroMagnitude]
        for _ in 0..<2000 {
            let pick = { extremes[Int(g.next() % UInt64(extremes.count))] }
            let y = filter.process(SIMD4(pick(), pick(), pick(), pick()), dt: g.uniform() < 0.1 ? 1e30 : 0.01)
            #expect(y.isFinite, "\(spec) produced \(y)")
            if !y.isFinite { break }
        }
    }

    @Test func manyChannelsAtOnceEqualOneAtATime() throws {
        let (x, _) = Self.signal(200, seed: 6)
        var wide = try OnePoleLowPass<SIMD8<Float>>(cutoffFrequency: 4, sampleRate: 100)
        var narrow = (0..<8).map { _ in try! OnePoleLowPass<Float>(cutoffFrequency: 4, sampleRate: 100) }
        for v in x {
            let lanes = SIMD8<Float>(Float(v.x), Float(v.y), Float(v.z), 1, 2, 3, -Float(v.x), 0)
            let y = wide.process(lanes)
            for lane in 0..<8 { #expect(y[lane] == narrow[lane].process(lanes[lane])) }
        }
    }
}
