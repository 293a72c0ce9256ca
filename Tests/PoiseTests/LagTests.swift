import Poise
import Testing

@Suite("Lag on moving segments")
struct LagTests {
    /// A smooth, aperiodic test signal.
    func signal(_ count: Int) -> [Double] {
        (0..<count).map { i in
            let t = Double(i) / 100
            return Double.sin(2.1 * t) + 0.5 * Double.sin(5.3 * t + 1) + 0.25 * Double.cos(11.7 * t)
        }
    }

    @Test("A pure delay of d samples measures d", arguments: [0, 1, 7, 23])
    func delay(d: Int) throws {
        let x = signal(2000)
        let y = (0..<2000).map { $0 >= d ? x[$0 - d] : x[0] }
        let result = try #require(lag(output: y, input: x, segments: [0..<2000], sampleRate: 100, maximumShift: 50))
        #expect(abs(result.samples - Double(d)) < 0.1)   // a tenth of a sample
        #expect(abs(result.milliseconds - Double(d) * 10) < 1)
        #expect(result.evaluatedSamples == 2000 && result.segmentCount == 1)
    }

    @Test("Segments shorter than the shift window are not used; constant input has no lag")
    func degenerate() {
        let x = signal(100)
        #expect(lag(output: x, input: x, segments: [0..<40], sampleRate: 100, maximumShift: 50) == nil)
        let flat = [Double](repeating: 1, count: 500)
        #expect(lag(output: flat, input: flat, segments: [0..<500], sampleRate: 100, maximumShift: 50) == nil)
    }

    @Test("Moving segments complement the still ones, keeping runs of at least the minimum")
    func complement() {
        #expect(movingSegments(complementing: [10..<20, 25..<60], count: 100, minimumLength: 6) == [0..<10, 60..<100])
        #expect(movingSegments(complementing: [], count: 5, minimumLength: 1) == [0..<5])
        #expect(movingSegments(complementing: [0..<5], count: 5, minimumLength: 1) == [])
    }
}
