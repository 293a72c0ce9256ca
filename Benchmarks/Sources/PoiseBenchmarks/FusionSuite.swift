import Foundation
import Poise

/// `fusion`: one full 9D `DeviceMotionEstimator.update` (bias estimation at rest and in motion,
/// rest detection, magnetic-disturbance rejection, magnetometer offset) against x-io Fusion's C
/// `FusionAhrsUpdate` (float, default settings) on the same deterministic input, measured in the
/// same run. The check is on the speed preset (`DeviceMotionConfiguration.fast`, corrections at
/// 5 Hz), the update that competes on speed; the defaults' ratio (10 Hz) is a note.
///
/// The peer is the timing program `Benchmarks/peers/fusion_bench.c` built from Fusion's C
/// sources (imufusion sdist) by `Benchmarks/peers/fusion.sh`, which passes its path in
/// `POISE_FUSION_PEER`; without it the ratio check is skipped with a note. Each round also
/// times x-io with its gyroscope offset filter (`FusionBiasUpdate`) for context (no check).
/// Samples: `POISE_FUSION_SAMPLES` (default 200,000 at 100 Hz).
func fusionSuite(_ r: Report) {
    let environment = ProcessInfo.processInfo.environment
    let n = environment["POISE_FUSION_SAMPLES"].flatMap { Int($0) }.map { max(1000, $0) } ?? 200_000
    let stream = FusionBenchmarkStream(samples: n, sampleRate: 100)

    // The default configuration (correction step at `correctionRate`, 10 Hz), the fast preset
    // (5 Hz), then the same estimator correcting on every sample as VQF does (`correctionRate`
    // 0), for reference.
    func nineAxis(_ name: String, correctionRate: Double?, fast: Bool = false,
                  adjust: (inout DeviceMotionConfiguration) -> Void = { _ in }) -> (Measurement, DeviceMotionEstimator) {
        var configuration = fast ? DeviceMotionConfiguration.fast(sampleRate: 100)
            : DeviceMotionConfiguration(sampleRate: 100, reference: .magneticNorthZVertical)
        if let correctionRate { configuration.correctionRate = correctionRate }
        adjust(&configuration)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        let m = measure(name, items: n, runs: 7, warmup: 1) {
            estimator.reset()
            stream.time.withUnsafeBufferPointer { time in
                stream.acceleration.withUnsafeBufferPointer { acc in
                    stream.rotationRate.withUnsafeBufferPointer { gyr in
                        stream.magneticField.withUnsafeBufferPointer { mag in
                            for i in 0..<n {
                                estimator.update(time: time[i], acceleration: acc[i], rotationRate: gyr[i], magneticField: mag[i])
                            }
                        }
                    }
                }
            }
            blackHole(estimator.attitude)
        }
        return (m, estimator)
    }
    let (poise9, nine) = nineAxis("Poise 9D update (Double, default)", correctionRate: nil)
    r.add(poise9)
    r.add(nineAxis("Poise 9D update (Double, fast preset)", correctionRate: nil, fast: true).0)
    let extraRates = environment["POISE_FUSION_CORRECTION_RATES"].map { $0.split(separator: ",").compactMap { Double($0) } } ?? [0]
    for rate in extraRates {
        r.add(nineAxis(rate == 0 ? "Poise 9D update, correcting every sample (as VQF)" : "Poise 9D update, correctionRate \(rate) Hz",
                       correctionRate: rate).0)
    }
    // Where the correction step's time goes (POISE_FUSION_VARIANTS=1): the default update with
    // one part of the correction step switched off at a time.
    if environment["POISE_FUSION_VARIANTS"] != nil {
        r.add(nineAxis("Poise 9D update without motion bias estimation", correctionRate: nil) { $0.motionBiasEstimation = false }.0)
        r.add(nineAxis("Poise 9D update without any bias estimation", correctionRate: nil) {
            $0.motionBiasEstimation = false; $0.restBiasEstimation = false }.0)
        r.add(nineAxis("Poise 9D update without disturbance rejection", correctionRate: nil) { $0.magneticDisturbanceRejection = false }.0)
        r.add(nineAxis("Poise 9D update, offset fit with coverage 0.25 and residual 0.03", correctionRate: nil) {
            $0.magneticOffsetMinimumCoverage = 0.25; $0.magneticOffsetMaximumResidual = 0.03 }.0)
        r.add(nineAxis("Poise 6D-reference update through the 9D loop", correctionRate: nil) { $0.reference = .arbitraryZVertical }.0)
        r.add(nineAxis("Poise 6D-reference update through the 9D loop, correctionRate 0.01 Hz", correctionRate: 0.01) { $0.reference = .arbitraryZVertical }.0)
    }
    var six = DeviceMotionEstimator(configuration: .init(sampleRate: 100, reference: .arbitraryZVertical))
    r.add(measure("Poise 6D update (Double, default)", items: n, runs: 5, warmup: 1) {
        six.reset()
        for i in 0..<n {
            six.update(time: stream.time[i], acceleration: stream.acceleration[i], rotationRate: stream.rotationRate[i])
        }
        blackHole(six.attitude)
    })
    var full = DeviceMotionEstimator(configuration: .init(sampleRate: 100, reference: .magneticNorthZVertical))
    r.add(measure("Poise 9D process → DeviceMotion (all outputs)", items: n, runs: 5, warmup: 1) {
        full.reset()
        var sum = 0.0
        for i in 0..<n {
            let m = full.process(time: stream.time[i], acceleration: stream.acceleration[i],
                                 rotationRate: stream.rotationRate[i], magneticField: stream.magneticField[i])
            sum += m.userAcceleration.x + (m.heading ?? 0)
        }
        blackHole(sum)
    })
    let q = nine.attitude
    r.notes.append(String(format: "Poise final quaternion %.5f %.5f %.5f %.5f, |q| − 1 = %.1e", q.w, q.x, q.y, q.z, q.length - 1))

    guard let peer = environment["POISE_FUSION_PEER"], FileManager.default.isExecutableFile(atPath: peer) else {
        r.notes.append("x-io Fusion C not built: run Benchmarks/peers/fusion.sh for the ratio (it builds the peer and sets POISE_FUSION_PEER)")
        return
    }
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("poise-fusion-\(getpid()).f32")
    defer { try? FileManager.default.removeItem(at: input) }
    do { try stream.rawFloat32().write(to: input) } catch {
        r.notes.append("cannot write \(input.path): \(error)")
        return
    }
    // The machine is shared, so load drifts between measurements: time Poise and the peer in
    // alternating rounds and compare each round's pair (median of the per-round ratios).
    let rounds = environment["POISE_FUSION_ROUNDS"].flatMap { Int($0) }.map { max(1, $0) } ?? 5
    /// Runs the peer (extra arguments: "bias" adds x-io's gyroscope offset filter); its
    /// ns/update and final quaternion line, or nil after noting why.
    func runPeer(_ extra: [String]) -> (nanoseconds: Double, quaternion: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: peer)
        process.arguments = [input.path, "100", "5"] + extra
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            r.notes.append("cannot run \(peer): \(error)")
            return nil
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("ns_per_update ") }),
              let nanoseconds = Double(line.split(separator: " ")[1]) else {
            r.notes.append("x-io Fusion C printed no timing: \(output)")
            return nil
        }
        let quaternion = output.split(separator: "\n").first(where: { $0.hasPrefix("quaternion") }).map(String.init) ?? ""
        return (nanoseconds, quaternion)
    }
    var poiseTimes: [Double] = [], peerTimes: [Double] = [], ratios: [Double] = []
    var defaultTimes: [Double] = [], defaultRatios: [Double] = []
    var peerWithBiasTimes: [Double] = [], ratiosWithBias: [Double] = []
    var peerQuaternion = ""
    for _ in 0..<rounds {
        let poise = nineAxis("", correctionRate: nil, fast: true).0.nanosecondsPerItem
        let defaults = nineAxis("", correctionRate: nil).0.nanosecondsPerItem
        guard let plain = runPeer([]), let withBias = runPeer(["bias"]) else { return }
        defaultTimes.append(defaults); defaultRatios.append(defaults / plain.nanoseconds)
        peerQuaternion = plain.quaternion
        poiseTimes.append(poise); peerTimes.append(plain.nanoseconds); ratios.append(poise / plain.nanoseconds)
        peerWithBiasTimes.append(withBias.nanoseconds); ratiosWithBias.append(poise / withBias.nanoseconds)
    }
    func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
    r.add(Measurement(name: "x-io Fusion C FusionAhrsUpdate (float, -O3 -march=native)",
                      medianNanoseconds: median(peerTimes) * Double(n), items: n))
    // For context, not the target: x-io's update preceded by its own gyroscope offset filter
    // (FusionBiasUpdate: rest-only, a threshold and a timer), the nearest x-io has to the bias
    // estimation inside Poise's update.
    r.add(Measurement(name: "x-io Fusion C FusionBiasUpdate + FusionAhrsUpdate (for context)",
                      medianNanoseconds: median(peerWithBiasTimes) * Double(n), items: n))
    r.notes.append(String(format: "for context: Poise 9D fast / (x-io with FusionBias) median of rounds %.3f", median(ratiosWithBias)))
    r.notes.append(String(format: "Poise 9D defaults (10 Hz) / x-io Fusion C, median of rounds %.3f", median(defaultRatios)))
    r.notes.append("x-io Fusion final \(peerQuaternion)")
    r.notes.append("alternating rounds, Poise 9D fast / defaults / x-io ns: " + zip(zip(poiseTimes, defaultTimes), peerTimes)
        .map { String(format: "%.1f/%.1f/%.1f", $0.0, $0.1, $1) }.joined(separator: ", "))
    r.check("Poise 9D fast / x-io Fusion C time ratio (median of \(rounds) rounds)", median(ratios), atMost: 1.0)
}

/// A deterministic 9-axis stream with known motion: the device turns with slowly varying rates
/// (up to ≈ 115 °/s), pauses 5 s every 30 s, and its accelerometer and magnetometer are
/// consistent with the turning (plus a little linear acceleration and noise).
struct FusionBenchmarkStream {
    var time: [Double] = []
    var acceleration: [SIMD3<Double>] = []      // g
    var rotationRate: [SIMD3<Double>] = []      // rad/s
    var magneticField: [SIMD3<Double>?] = []    // µT

    init(samples n: Int, sampleRate: Double) {
        var q = Quaternion<Double>.identity
        var seed: UInt64 = 12345
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(Int64(bitPattern: seed >> 11) % 2001 - 1000) / 1000
        }
        let bias = SIMD3<Double>(0.004, -0.003, 0.002)
        for i in 0..<n {
            let t = Double(i) / sampleRate
            let still = t.truncatingRemainder(dividingBy: 30) < 5
            let w = still ? SIMD3<Double>.zero : SIMD3(1.5 * sin(0.3 * t), 1.0 * cos(0.21 * t), 0.8 * sin(0.17 * t))
            q = (q * Quaternion(rotationVector: w / sampleRate)).normalized
            let inverse = q.conjugate
            let linear = still ? SIMD3<Double>.zero : SIMD3(0.2 * sin(2.1 * t), 0.1 * cos(1.3 * t), 0.15 * sin(0.7 * t))
            time.append(t)
            acceleration.append(inverse.act(SIMD3(0, 0, 1) + linear) + 0.005 * SIMD3(noise(), noise(), noise()))
            rotationRate.append(w + bias + 0.002 * SIMD3(noise(), noise(), noise()))
            magneticField.append(inverse.act(SIMD3(0, 20, -45)) + 0.3 * SIMD3(noise(), noise(), noise()))
        }
    }

    /// Rows of 9 little-endian float32 (gyroscope °/s, accelerometer g, magnetometer µT), the
    /// input format of fusion_bench.c.
    func rawFloat32() -> Data {
        var values: [Float] = []
        values.reserveCapacity(time.count * 9)
        let degrees = 180 / Double.pi
        for i in time.indices {
            let g = rotationRate[i] * degrees, a = acceleration[i], m = magneticField[i] ?? .zero
            values += [Float(g.x), Float(g.y), Float(g.z), Float(a.x), Float(a.y), Float(a.z), Float(m.x), Float(m.y), Float(m.z)]
        }
        return values.withUnsafeBufferPointer { Data(buffer: $0) }
    }
}
