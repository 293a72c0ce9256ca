import Foundation
import Poise
import PoiseRun
import PoiseRecording

/// The replay engine: pacing overhead per sample (no waiting) and real lateness at 100 Hz.
///
/// - Overhead: `Run` with a `PacedClock` at `--speed max` over 200 000 samples through `lowpass:cutoff=5`, against
///   the same pipeline in a plain loop (the reference): the difference is what pacing costs per
///   sample (two clock reads and the statistics).
/// - Lateness: 2000 ticks at 100 Hz (20 s) with the real `MonotonicClock` (absolute sleep to 1 ms
///   before each deadline, then spin) at real-time priority (`SCHED_FIFO` when permitted, as
///   `poise replay` does), and 500 ticks each with plain absolute sleeps and with sleep-then-spin
///   at normal priority for comparison.
///   CPU use is getrusage CPU time over wall time of the whole paced loop.
/// - The whole delivery pass of `replay --speed max` (`ReplaySession.run`, metrics included).
/// - `replay --send`: 1000 samples paced at 100 Hz, sent to a receiver in this process
///   (`sendingReplay`).
func replaySuite(_ r: Report) {
    let count = 200_000
    let samples = (0 ..< count).map { i in
        MotionSample(time: Double(i) / 100, acceleration: SIMD3(0.01 * Double(i % 7), 0, 1), rotationRate: SIMD3(0, 0.01, 0))
    }
    let context = StageContext(sampleRate: 100)
    guard let pipeline = try? StageCatalog.standard.pipeline("lowpass:cutoff=5", context: context) else {
        r.notes.append("could not build the pipeline"); return
    }

    let plain = measure("pipeline in a plain loop (reference)", items: count, runs: 7, warmup: 1) {
        var p = pipeline
        var last = SIMD3<Double>.zero
        for sample in samples {
            var record = ProcessedSample(sample)
            p.process(&record)
            last = record.acceleration
        }
        blackHole(last)
    }
    r.add(plain)
    let engine = measure("Run with PacedClock --speed max (pacing bookkeeping)", items: count, runs: 7, warmup: 1) {
        let result = pacedRun(samples, pipeline: pipeline, clock: MonotonicClock(), options: ReplayOptions(speed: .maximum))
        blackHole((result.last, result.result.timing.samples))
    }
    r.add(engine)
    let overhead = engine.nanosecondsPerItem - plain.nanosecondsPerItem
    r.notes.append(String(format: "pacing bookkeeping: %.1f ns per sample over the plain loop", overhead))
    // Per sample at 100 Hz the engine may spend at most 1 % of the 10 ms period on bookkeeping.
    r.check("bookkeeping / 10 ms period", max(0, overhead) / 10_000_000, atMost: 0.01)

    // The whole delivery pass of `poise replay --speed max` (`ReplaySession.run`: reading, the
    // pipeline, the output sinks, the metrics per filtering stage, the report's step responses)
    // on a 10-minute 100 Hz 9-axis recording; the pre-scan (`ReplaySession.init`) is not timed.
    let session = replaySessionMeasurement(pipeline: "adaptive | fusion:9d", r: r)
    if let session { r.add(session) }

    func paced(_ ticks: Int, clock: MonotonicClock) -> ReplayResult {
        pacedRun(Array(samples.prefix(ticks)), pipeline: pipeline, clock: clock,
                 options: ReplayOptions(speed: .realTime(1), lateThreshold: 0.01)).result
    }
    func describe(_ name: String, _ result: ReplayResult) {
        guard let l = result.timing.latenessMicroseconds else { return }
        r.notes.append(String(format: "%@: lateness µs median %.1f p90 %.1f p99 %.1f max %.1f mean %.1f; period jitter %.1f µs; drift %.1f µs; late %d; CPU %.1f %% of a core",
                              name as NSString, l.p50, l.p90, l.p99, l.max, l.mean,
                              result.timing.periodJitterMicroseconds ?? 0, result.timing.driftMicroseconds ?? 0,
                              result.timing.lateSamples, 100 * result.timing.cpuFraction))
    }
    let plainSleep = paced(500, clock: MonotonicClock(spinThreshold: 0))
    describe("plain absolute sleep, 500 ticks at 100 Hz", plainSleep)
    let ordinary = paced(500, clock: MonotonicClock())
    describe("sleep then spin (\(MonotonicClock().spinThreshold / 1000) µs), normal priority, 500 ticks at 100 Hz", ordinary)
    let scheduling = RealTimeScheduling.raise()
    let spin = paced(2000, clock: MonotonicClock())
    scheduling?.restore()
    describe("sleep then spin (\(MonotonicClock().spinThreshold / 1000) µs), \(scheduling == nil ? "normal priority (SCHED_FIFO not permitted)" : "SCHED_FIFO"), 2000 ticks at 100 Hz", spin)
    if let l = spin.timing.latenessMicroseconds {
        r.check("lateness median µs at 100 Hz", l.p50, atMost: 5)
        r.check("lateness p90 µs at 100 Hz", l.p90, atMost: 20)
        if let reference = plainSleep.timing.latenessMicroseconds, reference.p50 > 0 {
            r.check("lateness median / plain sleep median", l.p50 / reference.p50, atMost: 0.1)
        }
    }
    r.check("|drift| µs over 2000 ticks", abs(spin.timing.driftMicroseconds ?? .infinity), atMost: 50)
    // The issue asks for "well under one core". Spinning the last 1 ms of each 10 ms period costs
    // 10 % by construction (the margin that covers this VM's wake-up delays, docs/replay.md), so
    // the limit is 0.2: twice that, a fifth of a core.
    r.check("pacing CPU / wall (1 = one core)", spin.timing.cpuFraction, atMost: 0.2)

    sendingReplay(r: r)
}

/// `poise replay --send udp://127.0.0.1:PORT` in real time: `ReplaySession.run` paced at 100 Hz
/// (real-time priority when permitted, as the command) over a generated 10-s recording, sending
/// every processed sample as a CSV datagram to a `LoopbackReceiver` in this process. Checks that
/// sending keeps the pacing precision (lateness median ≤ 5 µs) and that every datagram arrived;
/// measures the send call per datagram (`send_ns`) as a baseline.
func sendingReplay(r: Report) {
    let count = 1000
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-send-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    guard let receiver = LoopbackReceiver() else { r.notes.append("replay --send: no loopback socket"); return }
    defer { receiver.stop() }
    do {
        let path = try writeMotionRecording(count: count, in: folder)
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: "lowpass:cutoff=5", speed: .realTime(1),
                                                      sendTarget: "udp://127.0.0.1:\(receiver.port)"))
        let report = try session.run(clock: MonotonicClock())
        usleep(200_000)   // the last datagrams reach the receiver
        guard let lateness = report.timing.latenessMicroseconds, let send = report.send, let cost = send.costNanoseconds else {
            r.notes.append("replay --send: no timing"); return
        }
        r.notes.append(String(format: "replay --send, %d samples at 100 Hz%@: lateness µs median %.1f p90 %.1f p99 %.1f max %.1f; send call median %.0f ns p99 %.0f ns; %d sent, %d failed, %d received",
                              count, (report.realTimeScheduling ? ", SCHED_FIFO" : ", normal priority") as NSString,
                              lateness.p50, lateness.p90, lateness.p99, lateness.max, cost.p50, cost.p99,
                              send.sent, send.failed, receiver.count))
        r.check("replay --send lateness median µs at 100 Hz", lateness.p50, atMost: 5)
        r.check("replay --send datagrams not received", Double(count + 1 - receiver.count), atMost: 0)
        r.add(Measurement(name: "UDPSender.send per datagram in replay --send (median)", medianNanoseconds: cost.p50, items: 1))
    } catch {
        r.notes.append("replay --send: \(error)")
    }
}

/// Writes a generated 100 Hz recording of `count` rows (accelerometer, gyroscope, magnetometer;
/// 5 s still with noise, 5 s moving, in turn) to `folder`/motion.csv and returns its path.
func writeMotionRecording(count: Int, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("motion.csv").path
    var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT\n"
    var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
    func jitter() -> Double {
        noise = noise &* 6364136223846793005 &+ 1442695040888963407
        return (Double(noise >> 11) / Double(1 << 53) - 0.5) * 0.004
    }
    for i in 0 ..< count {
        let t = Double(i) / 100
        let moving = Int(t / 5) % 2 == 1
        let swing = moving ? 0.3 * sin(2 * Double.pi * 0.7 * t) : 0
        text += "\(t),\(swing + jitter()),\(jitter()),\(1 + jitter()),\(moving ? 0.8 * cos(2 * Double.pi * 0.7 * t) : jitter()),\(jitter()),\(jitter()),20,0,-40\n"
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// `ReplaySession.run` at `--speed max` through `pipeline` on a generated 10-minute 100 Hz
/// recording (accelerometer, gyroscope, magnetometer; 5 s still with noise, 5 s moving, in turn),
/// per sample; `nil` (with a note) when it cannot run.
func replaySessionMeasurement(pipeline: String, r: Report) -> Measurement? {
    let count = 60_000
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-replay-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
        let path = try writeMotionRecording(count: count, in: folder)
        let session = try ReplaySession(ReplayRequest(path: path, pipeline: pipeline, speed: .maximum))
        var failure: Error?
        let measurement = measure("ReplaySession.run --speed max '\(pipeline)' (delivery pass, metrics, report)",
                                  items: count, runs: 5, warmup: 1) {
            do { blackHole(try session.run(clock: MonotonicClock()).samples) } catch { failure = error }
        }
        if let failure { throw failure }
        return measurement
    } catch {
        r.notes.append("replay session: \(error)")
        return nil
    }
}

/// `samples` through `pipeline` on a `Run` with a `PacedClock`, into the timing sink: the result
/// and the last record's acceleration.
func pacedRun(_ samples: [MotionSample], pipeline: Pipeline, clock: MonotonicClock,
              options: ReplayOptions) -> (result: ReplayResult, last: SIMD3<Double>) {
    var run = Run(source: ArraySource(path: "generated", schema: .generated(), samples: samples), pipeline: pipeline,
                  clock: PacedClock(timer: clock, options: options))
    var sinks = SinkPair(ReplayTimingSink(options: options, expectedCount: samples.count), LastAcceleration())
    guard let ran = try? run.run(into: &sinks) else { fatalError("samples in memory cannot fail to read") }
    return (ran.summary.0, ran.summary.1)
}

/// Keeps the last record's acceleration.
struct LastAcceleration: Sink {
    var last = SIMD3<Double>.zero
    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) { last = record.acceleration }
    func finish(_ end: RunEnd) -> SIMD3<Double> { last }
}
