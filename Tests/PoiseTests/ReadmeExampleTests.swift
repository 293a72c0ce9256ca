import Testing
import Poise

/// The README's "Using the library" snippet, kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func readmeSnippetWorksAsDocumented() throws {
        let (ax, ay, az): (Float, Float, Float) = (0, 0, 1)
        var smooth = try OnePoleLowPass<SIMD4<Float>>(cutoffFrequency: 5, sampleRate: 100)
        let filtered = smooth.process(SIMD4(ax, ay, az, 0))
        #expect(filtered == SIMD4(0, 0, 1, 0))   // starts from the first input

        let (bx, by, bz) = (0.0, 0.0, 1.0)
        var adaptive = try FilterSpec(parsing: "adaptive").makeFilter(SIMD3<Double>.self, sampleRate: 100)
        let y = adaptive.process(SIMD3(bx, by, bz), dt: 0.0101)
        #expect(y == SIMD3(0, 0, 1))

        var probe = try OnePoleLowPass<SIMD3<Double>>(factor: 0.1)
        let latency = latency90(&probe, step: .tilt, sampleRate: 60)
        #expect(latency.samples == 22)
        #expect(abs((latency.milliseconds ?? 0) - 366.7) < 0.05)
    }
}
