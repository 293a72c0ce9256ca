import CReference
import Foundation
import Poise
import PoiseRecording
import PoiseSpectral

/// `peers`: Poise on the same input as the Python/C peers of `Benchmarks/peers/run.sh`.
///
/// Input: the CSV named by the environment variable `POISE_PEERS_INPUT` (run.sh writes a
/// deterministic 9-axis stream; without the variable the suite only leaves a note). The
/// measurement names below are what `Benchmarks/peers/peers.py` looks for; a part whose
/// measurement is missing prints "not available yet" there.
func peersSuite(_ r: Report) {
    guard let path = ProcessInfo.processInfo.environment["POISE_PEERS_INPUT"], !path.isEmpty else {
        r.notes.append("set POISE_PEERS_INPUT to a recording CSV (Benchmarks/peers/run.sh does) to measure Poise against the peers")
        return
    }
    let recording: Recording
    do { recording = try Recording.load(path: path) } catch {
        r.notes.append("cannot read \(path): \(error)")
        return
    }
    let rows = recording.samples.count
    let ingest = measure("ingest Recording.load", items: rows, runs: 3, warmup: 1) {
        blackHole(try? Recording.load(path: path))
    }
    r.add(ingest)
    // The streaming reader (constant memory, one reused chunk): what the ingest target (3× pandas) is about.
    r.add(measure("ingest RecordingReader streaming", items: rows, runs: 3, warmup: 1) {
        blackHole(try? streamRecording(path: path))
    })
    if let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
        r.notes.append(String(format: "ingest: %.1f MB/s, %.2f M rows/s (%d bytes, %d rows)",
                              Double(bytes) / ingest.medianNanoseconds * 1e3, Double(rows) / ingest.medianNanoseconds * 1e3, bytes, rows))
    }

    let acceleration = recording.samples.map(\.acceleration)
    let float4 = acceleration.map { SIMD4<Float>(Float($0.x), Float($0.y), Float($0.z), 0) }
    let double4 = acceleration.map { SIMD4<Double>($0.x, $0.y, $0.z, 0) }
    let interleaved = acceleration.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
    var outputFloat = [SIMD4<Float>](repeating: .zero, count: rows)
    var outputDouble = [SIMD4<Double>](repeating: .zero, count: rows)
    var outputC = [Float](repeating: 0, count: interleaved.count)

    if var onePole = try? OnePoleLowPass<SIMD4<Float>>(factor: 0.1) {
        r.add(measure("one-pole 3-axis Float", items: rows) {
            onePole.reset()
            float4.withUnsafeBufferPointer { input in outputFloat.withUnsafeMutableBufferPointer { onePole.process(input, into: $0) } }
            blackHole(outputFloat)
        })
    }
    r.add(measure("one-pole 3-axis plain C", items: rows) {
        var state: [Float] = [interleaved[0], interleaved[1], interleaved[2]]
        cref_onepole3f(interleaved, &outputC, rows, 0.1, &state)
        blackHole(outputC)
    })
    if var butterworth = try? ButterworthFilter<SIMD4<Double>>(band: .lowPass(cutoff: 5), order: 4, sampleRate: 100, start: .zero) {
        r.add(measure("Butterworth order 4 3-axis Double", items: rows) {
            butterworth.reset()
            double4.withUnsafeBufferPointer { input in outputDouble.withUnsafeMutableBufferPointer { butterworth.process(input, into: $0) } }
            blackHole(outputDouble)
        })
    }
    if var oneEuro = try? OneEuroFilter<SIMD4<Double>>(minimumCutoff: 1, beta: 0.1, derivativeCutoff: 1, sampleRate: 100) {
        r.add(measure("One Euro 3-axis Double", items: rows) {
            oneEuro.reset()
            double4.withUnsafeBufferPointer { input in outputDouble.withUnsafeMutableBufferPointer { oneEuro.process(input, into: $0) } }
            blackHole(outputDouble)
        })
    }
    // Full 9D update (bias estimation at rest and in motion, magnetic-disturbance rejection) on
    // the same stream the x-io Fusion C and VQF peers get: the defaults, and the `fast` preset
    // (5-Hz corrections, the cheapest update).
    var defaults = DeviceMotionConfiguration()
    defaults.sampleRate = 100
    let samples = recording.samples
    for (name, configuration) in [("fusion 9D update", defaults), ("fusion 9D update fast", .fast(sampleRate: 100))] {
        var estimator = DeviceMotionEstimator(configuration: configuration)
        r.add(measure(name, items: rows, runs: 3, warmup: 1) {
            estimator.reset()
            for sample in samples {
                estimator.update(time: sample.time, acceleration: sample.acceleration,
                                 rotationRate: sample.rotationRate, magneticField: sample.magneticField)
            }
            blackHole(estimator.state)
        })
    }
    if let welch = try? WelchEstimator(configuration: SpectralConfiguration(sampleRate: 100, segmentLength: 1024)) {
        // scipy.signal.welch defaults: Hann, half overlap, constant detrend, density.
        let channels = (0..<3).map { axis in acceleration.map { $0[axis] } }
        r.add(measure("Welch 3 axes nperseg 1024", items: rows, runs: 5) {
            blackHole(try? welch.estimate(channels: channels))
        })
    }
}
