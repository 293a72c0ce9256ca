/// The magnetically disturbed spans of a recording, found before the smoother's passes
/// (`DeviceMotionSmoother.Options.magneticDisturbanceSpans`).
extension DeviceMotionSmoother {
    /// Per sample (0-based from `samples.startIndex`), whether its magnetometer reading lies in
    /// a magnetically disturbed span (`Options.magneticDisturbanceSpans`).
    ///
    /// A forward pass of the estimator with `configuration` gives each sample's attitude (ENU),
    /// and a forward and a backward pass (the time-reversed recording, as the smoother's) each
    /// sample's magnetometer offset estimates (`magneticOffsetEstimation`: a magnet fixed to the
    /// device, once fitted; zero while a pass has none or has a small one, `spanOffset`). Each
    /// reading less an offset, turned by
    /// its attitude, has a norm and a dip. The offsets a reading is judged with: the passes'
    /// nonzero estimates and h (µT, device frame; first zero). A reading is disturbed when with
    /// each of them its norm is more than `magneticNormThreshold` × the median norm from it or
    /// its dip more than `magneticDipThreshold` (degrees) from the median dip (medians over the
    /// recording's finite readings, each less the forward pass's estimate, else the backward
    /// pass's, else h). Up to twice, h is then refitted to the undisturbed readings where
    /// neither pass has an estimate (a sphere fit over the whole recording, as
    /// `magneticOffsetEstimation` fits a window) and the readings judged again, the fit kept
    /// only when fewer readings are disturbed with it: the hard iron of an uncalibrated
    /// magnetometer moves the field with the device's orientation by more than the thresholds.
    /// Every sample within `magneticMinimumUndisturbedTime` (s) of a disturbed reading, before
    /// or after it, is disturbed too. Samples without a reading are not; none is when no
    /// reading is finite. A span (a run of disturbed samples) more than `maximumRestShare` of
    /// whose samples are at rest (the forward or the backward pass flags `atRest`, as
    /// `OfflineVQF` combines its passes' rest), or that lasts no more than `minimumSpanTime`
    /// (s, first to last sample), is then not disturbed (1 and 0: every span stays). Five
    /// stored arrays (32, 32, 64, 16 and 1 bytes per sample: attitudes, readings and times, the
    /// passes' offsets, norms and dips, the spans), one more (1 byte) with
    /// `maximumRestShare` below 1, and with `localOffsets` one of 32 bytes per sample plus 128
    /// bytes per reading whose local offset was fitted (`fitLocalMagneticOffsets`).
    static func disturbedSpans<C: RandomAccessCollection>(_ samples: C, configuration: DeviceMotionConfiguration,
                                                          localOffsets: Bool = false, maximumRestShare: Double = 1,
                                                          minimumSpanTime: Double = 0,
                                                          storage: any SmootherStorage) -> StoredValues<Bool>
        where C.Element == MotionSample, C.Index == Int {
        disturbedSpansAndForwardPass(samples, configuration: configuration, localOffsets: localOffsets, maximumRestShare: maximumRestShare,
                                     minimumSpanTime: minimumSpanTime, storage: storage).disturbed
    }

    /// `disturbedSpans`, with the estimator of its forward pass after the last sample: the
    /// estimator `configuration` leaves after every sample with its reading, the state a pass
    /// that reads every reading ends in (when no span is found, the smoother's first pass).
    static func disturbedSpansAndForwardPass<C: RandomAccessCollection>(_ samples: C, configuration: DeviceMotionConfiguration,
                                                                        localOffsets: Bool, maximumRestShare: Double,
                                                                        minimumSpanTime: Double, storage: any SmootherStorage)
        -> (disturbed: StoredValues<Bool>, forward: DeviceMotionEstimator)
        where C.Element == MotionSample, C.Index == Int {
        let n = samples.count, first = samples.startIndex
        // The local offsets (xyz, w = 1 once fitted; see `fitLocalMagneticOffsets`), fitted
        // only for the readings nothing else explains.
        let local = StoredValues<SIMD4<Double>>(storage, count: localOffsets ? n : 0)
        let attitudes = StoredValues<SIMD4<Double>>(storage, count: n)
        // Each sample's reading (NaN without one) and time, for the steps after the passes to
        // read instead of the samples (which may be costly to read: the CLI's spool).
        let readings = StoredValues<SIMD4<Double>>(storage, count: n)
        let offsets = StoredValues<OffsetPair>(storage, count: n)
        let rest = StoredValues<Bool>(storage, count: maximumRestShare < 1 ? n : 0)
        var estimator = DeviceMotionEstimator(configuration: configuration)
        for i in 0..<n {
            let s = samples[first + i]
            estimator.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField)
            attitudes[i] = estimator.attitudeEastNorthUp.components
            readings[i] = SIMD4(s.magneticField ?? SIMD3(repeating: .nan), s.time)
            offsets[i].forward = Self.spanOffset(estimator.state.magneticOffset, reading: s.magneticField, configuration: configuration)
            if !rest.isEmpty { rest[i] = estimator.lastSample.flags.contains(.atRest) }
        }
        let forward = estimator
        estimator = DeviceMotionEstimator(configuration: configuration)
        var laterRate = SIMD3<Double>.zero
        for i in stride(from: n - 1, through: 0, by: -1) {
            let s = samples[first + i]
            let rate = i == n - 1 ? s.rotationRate : laterRate
            laterRate = s.rotationRate
            estimator.update(time: -s.time, acceleration: s.acceleration, rotationRate: -rate, magneticField: s.magneticField)
            offsets[i].backward = Self.spanOffset(estimator.state.magneticOffset, reading: s.magneticField, configuration: configuration)
            if !rest.isEmpty { rest[i] = rest[i] || estimator.lastSample.flags.contains(.atRest) }
        }
        let normsAndDips = StoredValues<SIMD2<Double>>(storage, count: n)
        let dipThreshold = configuration.magneticDipThreshold * .pi / 180
        /// Reading `i` (NaN: none; every step below treats a reading that is not finite as none).
        func field(_ i: Int) -> SIMD3<Double> {
            let r = readings[i]
            return SIMD3(r.x, r.y, r.z)
        }
        /// The norm and dip of reading `i` less `offset` (NaN when not finite or straight up or down).
        func normAndDip(_ i: Int, _ m: SIMD3<Double>, _ offset: SIMD3<Double>) -> SIMD2<Double> {
            let e = quaternion(attitudes[i]).act(m - offset)
            let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
            guard e.isFinite, horizontal > 0 else { return SIMD2(repeating: .nan) }
            return SIMD2((e * e).sum().squareRoot(), Double.atan2(y: e.z, x: horizontal))
        }
        /// The offset reading `i` is first judged with: the forward pass's estimate, else the
        /// backward pass's, else `h`.
        func firstOffset(_ i: Int, _ h: SIMD3<Double>) -> SIMD3<Double> {
            let o = offsets[i]
            return o.forward != .zero ? o.forward : (o.backward != .zero ? o.backward : h)
        }
        /// Judges every reading with the offset `h`: the number of disturbed readings (their
        /// norms set to +∞), nil when there are no medians.
        func judge(_ h: SIMD3<Double>) -> Int? {
            for i in 0..<n { normsAndDips[i] = normAndDip(i, field(i), firstOffset(i, h)) }
            guard let medianNorm = ExactMedian.of(count: n, { normsAndDips[$0].x }),
                  let medianDip = ExactMedian.of(count: n, { normsAndDips[$0].y }) else { return nil }
            let normThreshold = configuration.magneticNormThreshold * medianNorm
            func agrees(_ v: SIMD2<Double>) -> Bool {
                (v.x - medianNorm).magnitude <= normThreshold && (v.y - medianDip).magnitude <= dipThreshold
            }
            /// Whether the local offset `l` (fitted) explains reading `m` of sample `i`.
            func explains(_ l: SIMD4<Double>, _ i: Int, _ m: SIMD3<Double>) -> Bool {
                let offset = SIMD3(l.x, l.y, l.z)
                return offset != .zero && agrees(normAndDip(i, m, offset))
            }
            // Disturbed: norm +∞. Waiting for its local offset: norm −∞.
            var count = 0, waiting = 0
            for i in 0..<n where normsAndDips[i].x.isFinite && !agrees(normsAndDips[i]) {
                let m = field(i), f = offsets[i].forward, b = offsets[i].backward
                if (f != .zero && b != .zero && agrees(normAndDip(i, m, b))) || ((f != .zero || b != .zero) && agrees(normAndDip(i, m, h))) {
                    continue
                }
                if !local.isEmpty {
                    let l = local[i]
                    if l.w == 0 {
                        normsAndDips[i].x = -.infinity
                        waiting += 1
                        continue
                    }
                    if explains(l, i, m) { continue }
                }
                normsAndDips[i] = SIMD2(.infinity, 0)
                count += 1
            }
            guard waiting > 0 else { return count }
            Self.fitLocalMagneticOffsets(readings, configuration: configuration, offsets: local, count: waiting,
                                         where: { normsAndDips[$0].x == -.infinity }, storage: storage)
            for i in 0..<n where normsAndDips[i].x == -.infinity {
                let m = field(i)
                if explains(local[i], i, m) {
                    normsAndDips[i] = normAndDip(i, m, firstOffset(i, h))
                } else {
                    normsAndDips[i] = SIMD2(.infinity, 0)
                    count += 1
                }
            }
            return count
        }
        guard var count = judge(.zero) else { return (StoredValues<Bool>(storage, count: n), forward) }
        var offset = SIMD3<Double>.zero
        for _ in 0..<2 {
            var sums = SIMD16<Double>.zero
            for i in 0..<n where normsAndDips[i].x.isFinite && offsets[i].forward == .zero && offsets[i].backward == .zero {
                if let moments = DeviceMotionEstimator.MagneticOffsetFit.moments(of: field(i)) { sums += moments }
            }
            guard let fit = DeviceMotionEstimator.MagneticOffsetFit(sums: sums), fit.offset.isFinite, fit.offset != offset else { break }
            guard let refitted = judge(fit.offset), refitted < count else {
                _ = judge(offset)
                break
            }
            (offset, count) = (fit.offset, refitted)
        }
        // The disturbed readings, and the samples up to `margin` after one, then before one
        // (made here, after the local fits' array is gone).
        let disturbed = StoredValues<Bool>(storage, count: n)
        let margin = configuration.magneticMinimumUndisturbedTime
        var last = -Double.infinity
        for i in 0..<n {
            let t = readings[i].w
            let off = normsAndDips[i].x == .infinity
            if off && t.isFinite { last = t }
            disturbed[i] = off || (t.isFinite && t - last <= margin)
        }
        var next = Double.infinity
        for i in stride(from: n - 1, through: 0, by: -1) {
            let t = readings[i].w
            if normsAndDips[i].x == .infinity, t.isFinite { next = t }
            if t.isFinite && next - t <= margin { disturbed[i] = true }
        }
        if maximumRestShare < 1 || minimumSpanTime > 0 {
            Self.clearSpans(times: { readings[$0].w }, disturbed, rest: rest, maximumRestShare: maximumRestShare, minimumSpanTime: minimumSpanTime,
                            scratch: attitudes)
        }
        return (disturbed, forward)
    }

    /// Clears the spans (runs of `disturbed` samples) more than `maximumRestShare` of whose
    /// samples are at rest (`rest`, per sample; empty: none is) or that last no more than
    /// `minimumSpanTime` (s, its first finite time to its last sample's; a span whose last time
    /// is not finite stays; `times`: sample i's time, s). `scratch` (`disturbed.count` values,
    /// overwritten) keeps each span's running sample count, rest count and first finite time.
    static func clearSpans(times: (Int) -> Double, _ disturbed: StoredValues<Bool>, rest: StoredValues<Bool>,
                           maximumRestShare: Double, minimumSpanTime: Double, scratch: StoredValues<SIMD4<Double>>) {
        let n = disturbed.count
        var run = SIMD4<Double>.zero
        for i in 0..<n {
            guard disturbed[i] else {
                run = .zero
                continue
            }
            let t = times(i)
            if run.x == 0 || !run.z.isFinite { run.z = t }
            run.x += 1
            if !rest.isEmpty && rest[i] { run.y += 1 }
            scratch[i] = run
        }
        var clears = false, inside = false
        for i in stride(from: n - 1, through: 0, by: -1) {
            guard disturbed[i] else {
                inside = false
                continue
            }
            if !inside {
                // The span's last sample: its totals.
                let span = scratch[i], t = times(i)
                let duration = t.isFinite && span.z.isFinite ? t - span.z : .infinity
                clears = span.y > maximumRestShare * span.x || (minimumSpanTime > 0 && duration <= minimumSpanTime)
                inside = true
            }
            if clears { disturbed[i] = false }
        }
    }

    /// Fits the local magnetometer offset of the `count` samples for which `marked` is true (it
    /// must answer the same in both of this function's passes; `readings`: per sample its
    /// magnetometer reading x, y, z, not finite for none, and its time): `offsets[i]` becomes
    /// (offset, 1), the offset (µT, device frame; zero when refused) of a sphere fit to the
    /// readings around sample i, both ways in time: the
    /// moments of `DeviceMotionEstimator.MagneticOffsetFit` weighted by
    /// exp(−|t − tᵢ| / `magneticOffsetTimeConstant`) (per sample at `sampleRate`), the window
    /// the estimator's `magneticOffsetEstimation` fits causally. A fit is kept when the readings
    /// cover the sphere (`magneticOffsetMinimumCoverage`), lie on it within the disturbance
    /// test's norm tolerance (relative residual at most `magneticNormThreshold`; each reading is
    /// then judged with the offset by the norm and dip tests), and the offset is at least
    /// `magneticNormThreshold` × the radius, and when each one-sided fit (the same moments of the
    /// readings up to sample i, or from it on) that passes the same tests lies within
    /// `magneticNormThreshold` × the radius of it. A magnet fixed to the device
    /// moves every reading by one offset, so the readings around a sample lie on a sphere about
    /// it from the first of them, on either side; an earth-fixed disturbance seen from a turning
    /// device keeps them on a sphere about zero (offset refused), except near its ends, where the
    /// two-sided fit mixes readings from both sides and the sides' own fits disagree with it (of
    /// a 10-s, 30-µT span on the simulated tumble, more than three quarters stays disturbed:
    /// `SmootherMagneticDisturbanceTests`). Two passes
    /// over the readings' moments (128 bytes per marked sample stored between them); a fit only
    /// for the marked samples: the span search marks only the readings no other offset
    /// explains.
    static func fitLocalMagneticOffsets(_ readings: StoredValues<SIMD4<Double>>, configuration: DeviceMotionConfiguration,
                                        offsets: StoredValues<SIMD4<Double>>, count: Int,
                                        where marked: (Int) -> Bool, storage: any SmootherStorage) {
        let n = readings.count
        let forwardSums = StoredValues<SIMD16<Double>>(storage, count: count)
        let period = configuration.sampleRate > 0 && configuration.sampleRate.isFinite ? 1 / configuration.sampleRate : 0.01
        let tau = configuration.magneticOffsetTimeConstant
        let decay = tau > 0 && tau.isFinite ? Double.exp(-period / tau) : 0
        func moments(_ i: Int) -> SIMD16<Double> {
            let r = readings[i], m = SIMD3(r.x, r.y, r.z)
            guard m.isFinite, let moments = DeviceMotionEstimator.MagneticOffsetFit.moments(of: m) else { return .zero }
            return moments
        }
        let tolerance = configuration.magneticNormThreshold
        // The fit of some moments, when its readings lie on the sphere and cover it.
        func holdingFit(_ sums: SIMD16<Double>) -> DeviceMotionEstimator.MagneticOffsetFit? {
            guard let fit = DeviceMotionEstimator.MagneticOffsetFit(sums: sums), fit.offset.isFinite,
                  fit.residual <= tolerance, fit.covers(configuration.magneticOffsetMinimumCoverage) else { return nil }
            return fit
        }
        var sums = SIMD16<Double>.zero, k = 0
        for i in 0..<n {
            sums = sums * decay + moments(i)
            if k < count && marked(i) {
                forwardSums[k] = sums
                k += 1
            }
        }
        sums = .zero
        for i in stride(from: n - 1, through: 0, by: -1) {
            let own = moments(i)
            sums = sums * decay + own
            guard k > 0, marked(i) else { continue }
            k -= 1
            offsets[i] = SIMD4(0, 0, 0, 1)
            guard own[9] > 0, let fit = holdingFit(forwardSums[k] + sums - own),
                  (fit.offset * fit.offset).sum().squareRoot() >= tolerance * fit.radius else { continue }
            // A magnet fixed to the device gives the same sphere from either side; a fit that
            // mixes readings from both ends of an earth-fixed disturbance does not.
            func agrees(_ side: SIMD16<Double>) -> Bool {
                guard let oneSided = holdingFit(side) else { return true }
                let gap = oneSided.offset - fit.offset
                return (gap * gap).sum().squareRoot() <= tolerance * fit.radius
            }
            if agrees(forwardSums[k]) && agrees(sums) { offsets[i] = SIMD4(fit.offset, 1) }
        }
    }

    /// A pass's offset estimate `h` (µT, device frame) as the span search judges reading `m`
    /// with it: zero when |h| is less than `magneticNormThreshold` × |m − h|. The passes subtract
    /// such a small offset only when it fits its sphere tightly (`magneticOffsetEstimation`),
    /// but one fitted while a turning device passes an earth-fixed field would explain that
    /// field's readings to the norm and dip tests; a small offset is left to the tests.
    static func spanOffset(_ h: SIMD3<Double>, reading m: SIMD3<Double>?, configuration: DeviceMotionConfiguration) -> SIMD3<Double> {
        guard let m, h != .zero else { return h }
        let corrected = m - h, threshold = configuration.magneticNormThreshold
        return (h * h).sum() >= threshold * threshold * (corrected * corrected).sum() ? h : .zero
    }

    /// A sample's magnetometer offsets from the span search's forward and backward passes (µT,
    /// device frame; zero while a pass has none).
    struct OffsetPair {
        var forward: SIMD3<Double>
        var backward: SIMD3<Double>
    }

    /// The disturbed spans as sorted, disjoint ranges of sample indices (0-based), for the
    /// passes to ask per sample without reading a stored array: a span lasts at least
    /// `magneticMinimumUndisturbedTime` unless its times are not finite, so there are few.
    struct SpanSet {
        let ranges: [Range<Int>]

        /// The spans `ranges` (sorted, disjoint).
        init(ranges: [Range<Int>]) { self.ranges = ranges }

        /// The runs of `true` in `disturbed`.
        init(_ disturbed: StoredValues<Bool>) {
            var ranges: [Range<Int>] = [], start: Int?
            for i in 0..<disturbed.count {
                if disturbed[i] {
                    if start == nil { start = i }
                } else if let s = start {
                    ranges.append(s..<i)
                    start = nil
                }
            }
            if let s = start { ranges.append(s..<disturbed.count) }
            self.ranges = ranges
        }

        var isEmpty: Bool { ranges.isEmpty }

        /// Whether sample `i` lies in a span (binary search).
        func contains(_ i: Int) -> Bool {
            var low = 0, high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound <= i { low = middle + 1 } else { high = middle }
            }
            return low < ranges.count && ranges[low].lowerBound <= i
        }
    }
}
