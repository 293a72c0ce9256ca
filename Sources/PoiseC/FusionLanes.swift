import CLanes
import CPoise
import Poise
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `poise_fusion_update_buffer` on two threads for long buffers: the calling thread runs the
/// estimator's 6D lane, a second thread, started for the call and joined before it returns,
/// runs the magnetometer lane and computes the requested outputs
/// (`DeviceMotionEstimator+Lanes.swift`). The results are bit-identical to the one-thread loop.
///
/// The lanes meet in a ring of `ringSize` handed-over samples: the 6D lane publishes them a
/// chunk at a time and waits, before overwriting a slot, until the magnetometer lane has
/// consumed it.
enum FusionLanes {
    /// The shortest buffer run in two lanes: starting the thread and first touching the ring
    /// cost about 0.3 ms, so at this length two lanes take 48 ns per sample with the quaternion,
    /// bias and flags against 62 on one thread (38 against 63 at twice the length).
    static let minimumCount = 1 << 15
    static let chunk = 2048
    static let ringSize = 8 * chunk

    /// Runs the buffer in two lanes, or returns false (having done nothing) when it is too short
    /// or the thread could not be started. The caller asked for two threads
    /// (`poise_fusion_set_threads`); nothing here looks at what else the machine runs.
    static func run(_ estimator: inout DeviceMotionEstimator, count: Int, times: UnsafePointer<Double>,
                    acc: UnsafePointer<Double>, gyr: UnsafePointer<Double>, mag: UnsafePointer<Double>?,
                    outputs: poise_fusion_outputs?) -> Bool {
        guard count >= minimumCount,
              outputs != nil || (mag != nil && estimator.configuration.reference.usesMagnetometer) else { return false }
        // Outputs written over inputs are written in the order of the one-thread loop only there.
        if let outputs, overlap(outputs, count: count, inputs: [times, acc, gyr, mag]) { return false }
        let channel = LaneChannel(estimator: estimator, count: count, acc: acc, gyr: gyr, mag: mag, outputs: outputs)
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        guard pthread_create(&thread, nil, laneThreadEntry, Unmanaged.passUnretained(channel).toOpaque()) == 0 else { return false }
        if let mag {
            channel.runSixDLane(&estimator) { e, i, sample, correction in
                e.updateSixDLane(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i),
                                 magneticField: vector(mag + 3 * i), sample: sample, correction: correction)
            }
        } else {
            channel.runSixDLane(&estimator) { e, i, sample, correction in
                e.updateSixDLane(time: times[i], acceleration: vector(acc + 3 * i), rotationRate: vector(gyr + 3 * i),
                                 sample: sample, correction: correction)
            }
        }
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        estimator.adoptMagnetometerLane(of: channel.estimator)
        return true
    }

    /// Whether an output array of `o` for `count` rows shares memory with an input array (times:
    /// 1 double per row, the others 3).
    static func overlap(_ o: poise_fusion_outputs, count: Int, inputs: [UnsafePointer<Double>?]) -> Bool {
        func range(_ p: UnsafeRawPointer?, _ bytes: Int) -> Range<UInt>? {
            p.map { UInt(bitPattern: $0)..<(UInt(bitPattern: $0) + UInt(bytes)) }
        }
        let d = MemoryLayout<Double>.size
        let read = zip(inputs, [1, 3, 3, 3]).compactMap { range($0.0.map(UnsafeRawPointer.init), count * $0.1 * d) }
        let written = [range(o.attitude, count * 4 * d), range(o.gravity, count * 3 * d), range(o.user_acceleration, count * 3 * d),
                       range(o.rotation_rate, count * 3 * d), range(o.bias, count * 3 * d), range(o.heading, count * d),
                       range(o.flags, count * MemoryLayout<UInt32>.size)].compactMap { $0 }
        return written.contains { w in read.contains { $0.overlaps(w) } }
    }
}

/// The magnetometer lane's thread: runs the lane of the `LaneChannel` it is given.
#if canImport(Glibc)
private let laneThreadEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    Unmanaged<LaneChannel>.fromOpaque(raw!).takeUnretainedValue().runMagnetometerLane()
    return nil
}
#else
private let laneThreadEntry: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = { raw in
    Unmanaged<LaneChannel>.fromOpaque(raw).takeUnretainedValue().runMagnetometerLane()
    return nil
}
#endif

/// What the two lanes of one `poise_fusion_update_buffer` call share. The magnetometer lane's
/// fields (`estimator`, the inputs and outputs) are touched by its thread only while it runs;
/// the ring's slots are owned by one lane at a time, as `published` and `consumed` say.
final class LaneChannel: @unchecked Sendable {
    typealias Sample = DeviceMotionEstimator.LaneSample
    typealias Correction = DeviceMotionEstimator.LaneCorrection

    /// Handed-over samples by index modulo `FusionLanes.ringSize`, and the correction steps'
    /// records by their count modulo the same (the n-th record belongs to the n-th sample with
    /// `corrected` set).
    let samples = UnsafeMutablePointer<Sample>.allocate(capacity: FusionLanes.ringSize)
    let corrections = UnsafeMutablePointer<Correction>.allocate(capacity: FusionLanes.ringSize)
    /// Samples the 6D lane has handed over (`counters[0]`) and samples the magnetometer lane
    /// has finished (`counters[8]`, a cache line further), read and written with acquire and
    /// release ordering only.
    let counters = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    var published: UnsafeMutablePointer<Int> { counters }
    var consumed: UnsafeMutablePointer<Int> { counters + 8 }

    /// The magnetometer lane's estimator (a copy of the 6D lane's at the start).
    var estimator: DeviceMotionEstimator
    let count: Int
    let acc: UnsafePointer<Double>, gyr: UnsafePointer<Double>, mag: UnsafePointer<Double>?
    let outputs: poise_fusion_outputs?

    init(estimator: DeviceMotionEstimator, count: Int, acc: UnsafePointer<Double>, gyr: UnsafePointer<Double>,
         mag: UnsafePointer<Double>?, outputs: poise_fusion_outputs?) {
        self.estimator = estimator
        self.count = count
        (self.acc, self.gyr, self.mag) = (acc, gyr, mag)
        self.outputs = outputs
        counters.initialize(repeating: 0, count: 16)
    }

    deinit {
        samples.deallocate()
        corrections.deallocate()
        counters.deallocate()
    }

    /// Spins until `condition` holds, then sleeps 20 µs between tries: a lane that waits for
    /// the other (which needs a chunk, ≈ 80 µs) gives the processor up, and the ring holds
    /// eight chunks, so the one that runs ahead does not wait for it to wake.
    @inline(__always)
    static func wait(until condition: () -> Bool) {
        var spins = 0
        while !condition() {
            spins += 1
            if spins > 128 {
                var pause = timespec(tv_sec: 0, tv_nsec: 20_000)
                nanosleep(&pause, nil)
            }
        }
    }

    /// The 6D lane, on the calling thread: `update` runs sample `i` on `estimator`, writing its
    /// handover to the two pointers.
    @inline(__always)
    func runSixDLane(_ estimator: inout DeviceMotionEstimator,
                     _ update: (inout DeviceMotionEstimator, Int, UnsafeMutablePointer<Sample>, UnsafeMutablePointer<Correction>) -> Bool) {
        let mask = FusionLanes.ringSize - 1
        var start = 0, corrected = 0
        while start < count {
            let end = Swift.min(start + FusionLanes.chunk, count)
            if end - FusionLanes.ringSize > 0 {
                Self.wait { poise_load_acquire(consumed) >= end - FusionLanes.ringSize }
            }
            for i in start..<end {
                // Both rings' next slots were read by the other core one ring ago: start taking
                // them back early.
                poise_prefetch_for_write(samples + ((i + 64) & mask))
                let next = corrections + ((corrected + 1) & mask)
                poise_prefetch_for_write(next)
                poise_prefetch_for_write(UnsafeRawPointer(next) + 64)
                if update(&estimator, i, samples + (i & mask), corrections + (corrected & mask)) { corrected += 1 }
            }
            poise_store_release(published, end)
            start = end
        }
    }

    /// The magnetometer lane, on the second thread: applies each handed-over sample and writes
    /// its outputs.
    func runMagnetometerLane() {
        // On a local copy (a class's stored property would be checked for exclusive access
        // on every use).
        var lane = estimator
        defer { estimator = lane }
        // The heading's half angle, kept between correction steps (see `apply`).
        var halfAngle = lane.headingHalfAngle
        let mask = FusionLanes.ringSize - 1
        var start = 0, corrected = 0
        while start < count {
            var end = 0
            Self.wait {
                end = poise_load_acquire(published)
                return end > start
            }
            if let mag {
                for i in start..<end { apply(&lane, i, i & mask, magneticField: vector(mag + 3 * i), &halfAngle, &corrected) }
            } else {
                for i in start..<end { apply(&lane, i, i & mask, magneticField: nil, &halfAngle, &corrected) }
            }
            poise_store_release(consumed, end)
            start = end
        }
    }

    /// Applies sample `i` (ring index `r`) and writes its outputs. `halfAngle` is the lane's
    /// `headingHalfAngle`, which changes only at a correction step (a square root and a
    /// division per sample saved); `corrected` counts the correction records read.
    @inline(__always)
    private func apply(_ lane: inout DeviceMotionEstimator, _ i: Int, _ r: Int, magneticField: SIMD3<Double>?,
                       _ halfAngle: inout (cosine: Double, sine: Double)?, _ corrected: inout Int) {
        let sample = samples[r]
        var correction: Correction?
        if sample.corrected {
            correction = corrections[corrected & (FusionLanes.ringSize - 1)]
            corrected += 1
        }
        lane.applyMagnetometerLane(sample, correction: correction, acceleration: vector(acc + 3 * i),
                                   rotationRate: vector(gyr + 3 * i), magneticField: magneticField)
        if correction != nil { halfAngle = lane.headingHalfAngle }
        if let outputs { FusionHandle.write(&lane, row: i, to: outputs, headingHalfAngle: halfAngle) }
    }
}
