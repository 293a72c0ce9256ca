import Poise
import PoiseRun
import PoiseSpectral

/// The noise-band check's pass: Welch PSDs (three axes) of several settings' outputs on the
/// recording's acceleration, the settings filtered in parallel over each chunk (a `ChunkConsumer`,
/// run through a `ChunkSink`).
struct SpectrumPass: ChunkConsumer {
    let runs: [SpectrumRun]
    let threads: Int
    var first = true
    var previousTime = 0.0
    var inputs: [SIMD3<Double>] = [], periods: [Double] = []

    /// - Parameters: the settings, the recording's rate (Hz), the Welch segment length and the
    ///   worker threads.
    init(settings: [SweepSetting], rate: Double, segment: Int, threads: Int) throws {
        let configuration = SpectralConfiguration(sampleRate: rate, segmentLength: segment)
        runs = try settings.map { setting -> SpectrumRun in
            SpectrumRun(filter: try setting.spec.makeFilter(sampleRate: rate), welch: try WelchAccumulator(configuration: configuration, channels: 3))
        }
        self.threads = max(1, threads)
    }

    mutating func consume(chunk: [MotionSample]) {
        inputs.removeAll(keepingCapacity: true)
        periods.removeAll(keepingCapacity: true)
        for sample in chunk {
            inputs.append(sample.acceleration)
            periods.append(sample.time - previousTime)
            previousTime = sample.time
        }
        let isFirst = first, inputs = inputs, periods = periods, runs = runs
        first = false
        _ = parallelMap(count: runs.count, threads: threads) { k in runs[k].process(inputs: inputs, periods: periods, first: isFirst) }
    }

    /// Each setting's PSDs; `nil` for a setting whose PSD cannot be computed.
    func spectra() -> [[PowerSpectrum]?] { runs.map { try? $0.welch.finish() } }
}
