import Foundation
import Testing
import Poise
import PoiseRecording
import PoiseSpectral
@testable import PoiseCLI

/// The streamed spectrum equals the in-memory one on a recording with more intervals than are
/// kept (so the median is selected by radix passes over the file) and jittery timing.
@Suite struct SpectrumStreamTests {
    @Test func streamedReportEqualsTheLoadedOne() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        var state: UInt64 = 11
        func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) * 0x1p-53
        }
        var t = 0.0
        let rows = SpectrumStream.keptIntervalCount + 4321
        for i in 0..<rows {
            let x = 0.2 * Double.sin(2 * .pi * 3 * t) + 0.01 * (unit() - 0.5)
            text += "\(t),\(x),\(0.01 * unit()),1,\(0.1 * x),0,\(0.001 * Double(i % 7))\n"
            t += 0.01 * (1 + 0.2 * (unit() - 0.5)) + (i % 10_000 == 9_999 ? 0.03 : 0)
        }
        let path = scratch.path("jitter.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let channels = MotionChannel.defaults + [.accelerationNorm]

        let stream = SpectrumStream(path: path, options: ReadOptions(), start: 1, end: nil, channels: channels)
        let survey = try stream.survey()
        let median = try #require(try stream.medianInterval(survey))
        let samples = try Recording.load(path: path).samples.filter { $0.time >= 1 }
        let batchSampling = try #require(SamplingEstimate(times: samples.map(\.time)))
        #expect(survey.count == samples.count)
        #expect(survey.intervalCount > SpectrumStream.keptIntervalCount, "the radix passes are used")
        #expect(1 / median == batchSampling.sampleRate)

        let configuration = SpectralConfiguration(sampleRate: 1 / median, segmentLength: 512, detrend: .linear)
        let (spectra, sampling) = try stream.estimate(configuration: configuration, medianInterval: median)
        #expect(sampling == batchSampling)
        #expect(try #require(sampling).gaps == 6)
        let streamed = try SpectrumReport(spectra: spectra, channels: channels, samples: survey.count,
                                          startTime: survey.firstTime, endTime: survey.lastTime,
                                          configuration: configuration, sampling: sampling)
        let loaded = try SpectrumReport(samples: samples, channels: channels, configuration: configuration, sampling: batchSampling)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try encoder.encode(streamed) == encoder.encode(loaded))
    }
}
