import Testing
@testable import PoiseSpectral

/// The streamed Welch sum (`WelchAccumulator`, what `poise spectrum` uses) is bit-identical to
/// `WelchEstimator` on the whole signal, for every detrend, with and without overlap and padding,
/// and reports short and non-finite signals the same way.
@Suite struct WelchAccumulatorTests {
    func signal(_ count: Int, phase: Double) -> [Double] {
        (0..<count).map { i in
            let t = Double(i) / 200
            return 0.3 * Double.sin(2 * .pi * 7 * t + phase) + 0.01 * Double(i % 13) - 0.002 * t
        }
    }

    @Test(arguments: [(64, nil, nil), (64, 0, nil), (100, 75, nil), (37, 10, 64), (1024, 512, nil)] as [(Int, Int?, Int?)])
    func streamedEqualsBatchExactly(length: Int, overlap: Int?, fft: Int?) throws {
        for detrend in [Detrend.none, .constant, .linear] {
            let configuration = SpectralConfiguration(sampleRate: 200, segmentLength: length, overlap: overlap,
                                                      fftLength: fft, window: .hann, detrend: detrend)
            let channels = [signal(5003, phase: 0), signal(5003, phase: 1)]
            var accumulator = try WelchAccumulator(configuration: configuration, channels: 2)
            for i in 0..<5003 { accumulator.add([channels[0][i], channels[1][i]]) }
            let streamed = try accumulator.finish()
            let batch = try WelchEstimator(configuration: configuration).estimate(channels: channels)
            for c in 0..<2 {
                #expect(streamed[c].values == batch[c].values, "L\(length) \(detrend) channel \(c)")
                #expect(streamed[c].frequencies == batch[c].frequencies)
                #expect(streamed[c].segmentCount == batch[c].segmentCount)
                #expect(streamed[c].unusedSamples == batch[c].unusedSamples)
            }
        }
    }

    @Test func shortAndNonFiniteSignalsAreErrors() throws {
        let configuration = SpectralConfiguration(sampleRate: 100, segmentLength: 32)
        var short = try WelchAccumulator(configuration: configuration, channels: 1)
        for _ in 0..<31 { short.add([0]) }
        #expect(throws: SpectralError.signalTooShort(samples: 31, needed: 32)) { try short.finish() }
        var bad = try WelchAccumulator(configuration: configuration, channels: 2)
        for i in 0..<100 { bad.add([1, i == 40 ? .nan : 0]) }
        #expect(throws: SpectralError.nonFiniteSample(index: 40, channel: 1)) { try bad.finish() }
    }
}

/// The streamed spectrogram (`SpectrogramAccumulator`) is bit-identical to `Spectrogram.compute`.
@Suite struct SpectrogramAccumulatorTests {
    @Test func streamedEqualsBatchExactly() throws {
        for (length, overlap) in [(64, nil), (100, 90), (256, 0)] as [(Int, Int?)] {
            let configuration = SpectralConfiguration(sampleRate: 100, segmentLength: length, overlap: overlap, detrend: .linear)
            var channels: [[Double]] = [[], []]
            for c in 0..<2 {
                for i in 0..<3001 {
                    let phase = 0.07 * Double(i * (c + 1))
                    channels[c].append(Double.sin(phase) + 0.001 * Double(i % 11))
                }
            }
            var accumulator = try SpectrogramAccumulator(configuration: configuration, channels: 2)
            for i in 0..<3001 { accumulator.add([channels[0][i], channels[1][i]]) }
            let streamed = try accumulator.finish()
            let spectrogram = try Spectrogram(configuration: configuration)
            for c in 0..<2 { #expect(streamed[c] == (try spectrogram.compute(channels[c])), "L\(length) channel \(c)") }
        }
    }

    /// With `group: k` each row is the mean of k consecutive segments' rows (the last row of the
    /// ones left), at the mean of their times.
    @Test func groupedRowsAreMeansOfConsecutiveSegments() throws {
        let configuration = SpectralConfiguration(sampleRate: 50, segmentLength: 32, overlap: 24)
        let signal = (0..<2000).map { Double.sin(0.3 * Double($0)) + 0.01 * Double($0 % 7) }
        let whole = try Spectrogram(configuration: configuration).compute(signal)
        for group in [1, 3, 7] {
            var accumulator = try SpectrogramAccumulator(configuration: configuration, channels: 1, group: group)
            for x in signal { accumulator.add([x]) }
            let grouped = try #require(try accumulator.finish().first)
            #expect(grouped.power.count == (whole.power.count + group - 1) / group)
            for (row, values) in grouped.power.enumerated() {
                let members = Array(whole.power[(row * group)..<min(whole.power.count, row * group + group)])
                let times = Array(whole.times[(row * group)..<min(whole.times.count, row * group + group)])
                #expect(abs(grouped.times[row] - times.reduce(0, +) / Double(times.count)) < 1e-12)
                for k in values.indices {
                    let mean = members.map { $0[k] }.reduce(0, +) / Double(members.count)
                    #expect(abs(values[k] - mean) <= 1e-12 * max(1, abs(mean)), "group \(group) row \(row) bin \(k)")
                }
            }
            if group == 1 { #expect(grouped == whole) }
        }
    }
}
