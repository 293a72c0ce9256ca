/// A gyroscope calibration fitted to a whole recording without any truth: a 3×3 matrix C (scale
/// factors and axis misalignment) and a bias b such that C·(g − b) is the device's rate.
///
/// Model: the gyroscope reads g = A·ω + b (rad/s, device frame, right-hand rule), ω the true
/// rate; C estimates A⁻¹. What observes it is gravity: integrated between two quasi-still
/// moments, the corrected rate must turn the accelerometer's up direction at the first into the
/// one measured at the second, and because a recording turns the device through many
/// orientations, each axis's scale is seen while it is horizontal.
///
/// The fit (`fit(_:options:)`):
/// - rest windows (`Options.restWindow` long, gyroscope norm below `Options.restRate`) give the
///   bias b (mean rate) and the still magnitude of the specific force (mean |a|); without one the
///   fit is refused;
/// - anchors: consecutive windows of `Options.window` (whole samples at the recording's mean
///   step) whose gyroscope norm stays below `Options.maximumRate`, whose rate changes by at most
///   `Options.maximumRateChange` across the window (no angular acceleration, so no tangential
///   acceleration of an accelerometer off the rotation axis) and whose mean specific force is
///   within `Options.magnitudeTolerance` of the still magnitude; up at the window's centre sample
///   is the normalised mean specific force;
/// - each anchor is paired with the anchors 1, 4, 16 and 64 later; a pair (i, j) gives the
///   residual R_ijᵀ·u_i − u_j, R_ij the rotation from device-at-j to device-at-i integrated from
///   C·(g − b) (each sample's rate over the step before it, exact exponential, as the estimator);
/// - Gauss–Newton on the nine entries of C (b stays the rest mean), Jacobian from the first-order
///   perturbation of the integrated rotation (δφ in the frame of anchor i = Σ_k R_ik·δω_k·Δt_k),
///   Huber weights (threshold 3 × the median residual norm), `Options.iterations` steps; a step
///   moves only along the eigenvectors of the normal matrix whose eigenvalue is at least
///   (weighted rms residual / `Options.precision`)², i.e. the combinations of C that the
///   residuals determine to that precision; the others stay at identity;
/// - the fit is refused (identity, `accepted` false) when C − I leaves the plausible range of a
///   MEMS gyroscope (`Options.maximumScale` on the diagonal, `Options.maximumMisalignment` off
///   it): then it explains something else (accelerometer errors, accelerations that passed the
///   gates) rather than the gyroscope.
///
/// The reference implementation is `Tests/Goldens/gyro_self_calibration.py` (numpy), which also
/// measures its effect on the BROAD trials (research/fusion-tuning.md, "Offline").
///
/// Cost: `Options.iterations` passes over the recording (a rotation exponential and 9 vector
/// accumulations per sample, the samples read again in each) plus two over the anchor pairs
/// each and the median of their residual norms (`ExactMedian`, five reads of each norm); the
/// anchor scan runs twice (to count the anchors, then to keep them). Memory: nothing per
/// sample; per anchor 432 bytes and per pair 8 in a `SmootherStorage` (the heap by default),
/// each array read and written in order, so storage in files (`poise`'s) leaves a working set
/// that does not grow with the recording (a ring of at most 65 anchors and the median's 512 KB
/// of counters). A recording holds at most one anchor per `Options.window` (a still one that
/// many: 36,000 an hour), and about four pairs per anchor.
public struct GyroscopeSelfCalibration: Sendable, Codable, Equatable {
    /// C, the matrix applied to the bias-free rate (identity when refused). Dimensionless,
    /// device frame.
    public var matrix: Matrix3
    /// b, the gyroscope bias the fit used (mean over the rest windows), rad/s, device frame.
    public var bias: SIMD3<Double>
    /// Whether the fit was accepted (false: `matrix` is the identity).
    public var accepted: Bool
    /// The fitted matrix before the plausibility check (equal to `matrix` when accepted).
    public var fittedMatrix: Matrix3
    /// The number of anchors and of anchor pairs used.
    public var anchors: Int
    /// The number of anchor pairs used.
    public var pairs: Int
    /// The weighted rms residual (rad, unit up vectors) with C = I and after the last step's C
    /// (at its start); 0 when there was no pair.
    public var initialResidual: Double
    /// The weighted rms residual at the start of the last iteration, rad.
    public var finalResidual: Double
    /// The number of directions of C (of 9) that the last step solved.
    public var solvedDirections: Int

    /// Settings of the fit (defaults as in `Tests/Goldens/gyro_self_calibration.py`).
    public struct Options: Sendable, Codable, Equatable {
        /// Anchor window, s. Default 0.1.
        public var window: Double = 0.1
        /// Largest gyroscope norm within an anchor window, rad/s. Default 0.5.
        public var maximumRate: Double = 0.5
        /// Largest change of the gyroscope reading (vector difference, first to last sample)
        /// across an anchor window, rad/s. Default 0.05.
        public var maximumRateChange: Double = 0.05
        /// Largest relative deviation of an anchor's |mean specific force| from the still
        /// magnitude. Default 0.004.
        public var magnitudeTolerance: Double = 0.004
        /// Rest window, s. Default 1.
        public var restWindow: Double = 1
        /// Largest gyroscope norm within a rest window, rad/s. Default 0.015.
        public var restRate: Double = 0.015
        /// Gauss–Newton steps. Default 4.
        public var iterations: Int = 4
        /// A direction of C is solved when the residuals determine it to this (dimensionless).
        /// Default 0.001.
        public var precision: Double = 1e-3
        /// Largest |C − I| diagonal entry (scale factor) of an accepted fit. Default 0.02.
        public var maximumScale: Double = 0.02
        /// Largest |C − I| off-diagonal entry (axis misalignment, rad) of an accepted fit.
        /// Default 0.003.
        public var maximumMisalignment: Double = 0.003

        /// The defaults.
        public init() {}
    }

    /// No correction: C = I, b = 0, refused, nothing fitted.
    public static let identity = GyroscopeSelfCalibration(
        matrix: .scaledIdentity(1), bias: .zero, accepted: false, fittedMatrix: .scaledIdentity(1),
        anchors: 0, pairs: 0, initialResidual: 0, finalResidual: 0, solvedDirections: 0)

    /// The corrected rate C·(g − b) + b, rad/s (the bias stays in, for the estimator to learn).
    @inlinable public func corrected(_ rate: SIMD3<Double>) -> SIMD3<Double> {
        accepted ? matrix * (rate - bias) + bias : rate
    }

    /// The anchor-pair offsets (in anchors).
    static let steps = [1, 4, 16, 64]

    /// Fits the calibration to `samples` (in time order; accelerometer in any unit, gyroscope
    /// rad/s). Non-finite readings are never anchors or rest, and a non-finite rate or time step
    /// integrates as no turn. `storage` keeps the anchors and the pairs' residuals (see Cost
    /// above; the heap by default). Samples in one block of memory (an array) are read through a
    /// buffer pointer, with the fit compiled for it.
    public static func fit<C: RandomAccessCollection>(_ samples: C, options: Options = Options(),
                                                      storage: any SmootherStorage = InMemorySmootherStorage()) -> GyroscopeSelfCalibration
        where C.Element == MotionSample, C.Index == Int {
        samples.withContiguousStorageIfAvailable { fitting($0, options: options, storage: storage) }
            ?? fitting(samples, options: options, storage: storage)
    }

    static func fitting<C: RandomAccessCollection>(_ samples: C, options: Options, storage: any SmootherStorage) -> GyroscopeSelfCalibration
        where C.Element == MotionSample, C.Index == Int {
        let n = samples.count, s0 = samples.startIndex
        guard n >= 2 else { return .identity }
        let t0 = samples[s0].time, t1 = samples[s0 + n - 1].time
        guard t0.isFinite, t1.isFinite, t1 > t0 else { return .identity }
        func windowLength(_ seconds: Double) -> Int {
            let m = (seconds * Double(n - 1) / (t1 - t0)).rounded(.toNearestOrEven)
            return m.isFinite && m >= 1 ? Int(min(m, Double(n))) : 1
        }
        func norm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

        // Rest: bias and still magnitude.
        let mr = windowLength(options.restWindow)
        var rateSum = SIMD3<Double>.zero, magnitudeSum = 0.0, restCount = 0
        var start = 0
        while start + mr <= n {
            var still = true
            for k in start..<(start + mr) where !(norm(samples[s0 + k].rotationRate) < options.restRate) { still = false; break }
            if still {
                for k in start..<(start + mr) {
                    rateSum += samples[s0 + k].rotationRate
                    magnitudeSum += norm(samples[s0 + k].acceleration)
                }
                restCount += mr
            }
            start += mr
        }
        guard restCount > 0 else { return .identity }
        let bias = rateSum / Double(restCount), magnitude = magnitudeSum / Double(restCount)
        var result = GyroscopeSelfCalibration.identity
        result.bias = bias

        // Anchors: counted, then kept in the storage (sample index and up).
        let m = windowLength(options.window)
        func forEachAnchor(_ body: (Int, SIMD3<Double>) -> Void) {
            var start = 0
            while start + m <= n {
                defer { start += m }
                var sum = SIMD3<Double>.zero, calm = true
                for k in start..<(start + m) {
                    let s = samples[s0 + k]
                    if !(norm(s.rotationRate) < options.maximumRate) { calm = false; break }
                    sum += s.acceleration
                }
                guard calm, norm(samples[s0 + start + m - 1].rotationRate - samples[s0 + start].rotationRate) <= options.maximumRateChange else { continue }
                let a = sum / Double(m), length = norm(a)
                guard length.isFinite, length > 0, (length / magnitude - 1).magnitude <= options.magnitudeTolerance else { continue }
                body(start + m / 2, a / length)
            }
        }
        var count = 0
        forEachAnchor { _, _ in count += 1 }
        let anchors = StoredValues<Anchor>(storage, count: count)
        var next = 0
        forEachAnchor { index, up in
            anchors[next] = Anchor(up: up, rotation: .scaledIdentity(1), sums: Anchor.Sums(), index: index)
            next += 1
        }
        result.anchors = count
        result.pairs = steps.reduce(0) { $0 + max(0, count - $1) }
        guard result.pairs > 0 else { return result }

        // Gauss–Newton over (t, g − b) up to the last anchor, read from the samples in each
        // iteration (nothing kept per sample).
        let last = anchors[count - 1].index
        let stream = (0..<(last + 1)).lazy.map { k -> SIMD4<Double> in
            let sample = samples[s0 + k]
            let u = sample.rotationRate - bias
            return SIMD4(sample.time, u.x, u.y, u.z)
        }
        let e = gaussNewton(stream, anchors: anchors, pairs: result.pairs, options: options, storage: storage, result: &result)
        let fitted = Matrix3(SIMD3(1 + e[0], e[1], e[2]), SIMD3(e[3], 1 + e[4], e[5]), SIMD3(e[6], e[7], 1 + e[8]))
        result.fittedMatrix = fitted
        let plausible = e.allSatisfy(\.isFinite)
            && [0, 4, 8].allSatisfy { e[$0].magnitude <= options.maximumScale }
            && [1, 2, 3, 5, 6, 7].allSatisfy { e[$0].magnitude <= options.maximumMisalignment }
        if plausible {
            result.matrix = fitted
            result.accepted = true
        }
        return result
    }

    /// An anchor as the fit keeps it (432 bytes): up there (unit, device frame), and in each
    /// Gauss–Newton iteration R_0k and S_k (below) at its sample k.
    struct Anchor {
        /// The nine sums S_k, vector p = 3·column + component of (g − b)·Δt.
        struct Sums {
            var v: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>, SIMD3<Double>, SIMD3<Double>,
                    SIMD3<Double>, SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
                = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)
        }
        var up: SIMD3<Double>
        var rotation: Matrix3
        var sums: Sums
        /// The sample index (from 0) of the window's centre.
        var index: Int
    }

    /// The most anchors `forEachPair` keeps in its ring: those between the two of a pair.
    static let ringCapacity = steps.max()! + 1

    /// Calls `body` with each anchor pair's number q (in the order of `steps`, then of the first
    /// anchor) and its two anchors, valid during the call. Anchors in the heap are read in
    /// place; others are read in order once per step into `ring` (room for `ringCapacity`).
    @inline(__always) static func forEachPair(_ anchors: StoredValues<Anchor>, ring: UnsafeMutablePointer<Anchor>,
                            _ body: (Int, UnsafePointer<Anchor>, UnsafePointer<Anchor>) -> Void) {
        let count = anchors.count
        var q = 0
        for step in steps where step < count {
            if let base = anchors.base {
                for a in 0..<(count - step) {
                    body(q, base + a, base + a + step)
                    q += 1
                }
                continue
            }
            let size = step + 1
            for k in 0..<step { ring[k] = anchors[k] }
            for a in 0..<(count - step) {
                let j = a + step
                ring[j % size] = anchors[j]
                body(q, ring + a % size, ring + j % size)
                q += 1
            }
        }
    }

    /// The Gauss–Newton steps over (t, g − b) per sample up to the last anchor: the entries of
    /// C − I, row by row; fills the residuals and solved directions of `result`. `pairs` is the
    /// number of anchor pairs (`forEachPair`), whose residual norms go to `storage`.
    static func gaussNewton<S: RandomAccessCollection>(_ stream: S, anchors: StoredValues<Anchor>, pairs: Int,
                                                        options: Options, storage: any SmootherStorage,
                                                        result: inout GyroscopeSelfCalibration) -> [Double]
        where S.Element == SIMD4<Double>, S.Index == Int {
        func norm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        let last = anchors[anchors.count - 1].index
        var e = [Double](repeating: 0, count: 9)
        let norms = StoredValues<Double>(storage, count: pairs)
        let ring = UnsafeMutablePointer<Anchor>.allocate(capacity: anchors.base == nil ? ringCapacity : 0)
        defer { ring.deallocate() }
        /// Sum p (`Anchor.Sums`) of an anchor, read in place.
        let sumsOffset = MemoryLayout<Anchor>.offset(of: \Anchor.sums)!
        func sum(_ anchor: UnsafePointer<Anchor>, _ p: Int) -> SIMD3<Double> {
            UnsafeRawPointer(anchor).load(fromByteOffset: sumsOffset + p * MemoryLayout<SIMD3<Double>>.stride, as: SIMD3<Double>.self)
        }
        for iteration in 0..<max(0, options.iterations) {
            let c = Matrix3(SIMD3(1 + e[0], e[1], e[2]), SIMD3(e[3], 1 + e[4], e[5]), SIMD3(e[6], e[7], 1 + e[8]))
            // R_0k and S_k = Σ_{l≤k} R_0l ⊗ (g_l − b)ᵀ Δt_l at the anchors.
            var r = Matrix3.scaledIdentity(1)
            var s0x = SIMD3<Double>.zero, s0y = SIMD3<Double>.zero, s0z = SIMD3<Double>.zero
            var s1x = SIMD3<Double>.zero, s1y = SIMD3<Double>.zero, s1z = SIMD3<Double>.zero
            var s2x = SIMD3<Double>.zero, s2y = SIMD3<Double>.zero, s2z = SIMD3<Double>.zero
            var next = 0, previousTime = stream[0].x, nextIndex = anchors[0].index
            for k in 0...last {
                let v = stream[k]
                let u = SIMD3(v.y, v.z, v.w)
                let dt = k == 0 ? 0 : v.x - previousTime
                previousTime = v.x
                if dt != 0 && dt.isFinite && u.x.isFinite && u.y.isFinite && u.z.isFinite {
                    let w = (c.r0 * u).sum(), y = (c.r1 * u).sum(), z = (c.r2 * u).sum()
                    let x = Self.exponential(SIMD3(w, y, z) * dt)
                    r = Matrix3(r.r0.x * x.r0 + r.r0.y * x.r1 + r.r0.z * x.r2,
                                r.r1.x * x.r0 + r.r1.y * x.r1 + r.r1.z * x.r2,
                                r.r2.x * x.r0 + r.r2.y * x.r1 + r.r2.z * x.r2)
                    let ud = u * dt
                    let c0 = SIMD3(r.r0.x, r.r1.x, r.r2.x), c1 = SIMD3(r.r0.y, r.r1.y, r.r2.y), c2 = SIMD3(r.r0.z, r.r1.z, r.r2.z)
                    s0x += c0 * ud.x; s0y += c0 * ud.y; s0z += c0 * ud.z
                    s1x += c1 * ud.x; s1y += c1 * ud.y; s1z += c1 * ud.z
                    s2x += c2 * ud.x; s2y += c2 * ud.y; s2z += c2 * ud.z
                }
                if k == nextIndex {
                    anchors.update(next) {
                        $0.rotation = r
                        $0.sums.v = (s0x, s0y, s0z, s1x, s1y, s1z, s2x, s2y, s2z)
                    }
                    next += 1
                    if next < anchors.count { nextIndex = anchors[next].index }
                }
            }
            // Residual norms, then the weighted normal equations.
            func residual(_ i: UnsafePointer<Anchor>, _ j: UnsafePointer<Anchor>) -> (SIMD3<Double>, Matrix3) {
                let rij = i.pointee.rotation.transposed * j.pointee.rotation
                let rjiT = rij.transposed
                return (rjiT * i.pointee.up - j.pointee.up, rjiT)
            }
            var nonFinite = false
            forEachPair(anchors, ring: ring) { q, i, j in
                let value = norm(residual(i, j).0)
                norms[q] = value
                if value.isNaN { nonFinite = true }
            }
            // The median as sorting finds it; with a NaN (a diverged step) by sorting.
            let median = nonFinite ? Self.median((0..<pairs).map { norms[$0] }) : ExactMedian.of(count: pairs) { norms[$0] } ?? 0
            let delta = 3 * median
            var normal = [Double](repeating: 0, count: 81), rhs = [Double](repeating: 0, count: 9)
            var weightSum = 0.0, weightedSquares = 0.0
            var jac = [SIMD3<Double>](repeating: .zero, count: 9)
            forEachPair(anchors, ring: ring) { q, i, j in
                let (res, rijT) = residual(i, j)
                let nq = norms[q]
                let w = nq <= delta ? 1.0 : delta / max(nq, .leastNormalMagnitude)
                weightSum += w
                weightedSquares += w * nq * nq
                let ri = i.pointee.rotation.transposed, up = i.pointee.up
                for p in 0..<9 {
                    let dphi = ri * (sum(j, p) - sum(i, p))
                    jac[p] = rijT * Self.cross(up, dphi)
                }
                for p in 0..<9 {
                    rhs[p] -= w * (jac[p] * res).sum()
                    for p2 in p..<9 { normal[9 * p + p2] += w * (jac[p] * jac[p2]).sum() }
                }
            }
            let rms = weightSum > 0 ? (weightedSquares / weightSum).squareRoot() : 0
            if iteration == 0 { result.initialResidual = rms }
            result.finalResidual = rms
            guard rms > 0, rms.isFinite else { break }
            let eigen = SymmetricEigen(normal, n: 9)
            let threshold = (rms / options.precision) * (rms / options.precision)
            var solved = 0
            for k in 0..<9 where eigen.values[k] >= threshold && eigen.values[k] > 0 {
                solved += 1
                var projection = 0.0
                for p in 0..<9 { projection += eigen.vectors[p * 9 + k] * rhs[p] }
                let scale = projection / eigen.values[k]
                for p in 0..<9 { e[p] += eigen.vectors[p * 9 + k] * scale }
            }
            result.solvedDirections = solved
        }
        return e
    }

    /// The rotation matrix exp([v]×) (Rodrigues), v a rotation vector, rad:
    /// I + A·[v]× + B·[v]×², A = sin θ / θ, B = (1 − cos θ) / θ², θ = |v|. Below 0.1 rad (a
    /// step of the fit at 100 Hz turning up to 10 rad/s) A and B are their Taylor series to θ⁸,
    /// whose next terms are below 3·10⁻¹⁸: no sine, cosine, root or division per sample.
    @inline(__always) static func exponential(_ v: SIMD3<Double>) -> Matrix3 {
        let t2 = (v * v).sum()
        let a: Double, b: Double
        if t2 < 0.01 {
            // Horner's rule with the coefficients' reciprocals (a multiplication, not a
            // division, per term).
            a = 1 + t2 * (-1.0 / 6 + t2 * (1.0 / 120 + t2 * (-1.0 / 5040 + t2 * (1.0 / 362_880))))
            b = 0.5 + t2 * (-1.0 / 24 + t2 * (1.0 / 720 + t2 * (-1.0 / 40320 + t2 * (1.0 / 3_628_800))))
        } else {
            guard t2 < .infinity else { return .scaledIdentity(1) }
            let angle = t2.squareRoot()
            a = Double.sin(angle) / angle
            b = (1 - Double.cos(angle)) / t2
        }
        let (x, y, z) = (v.x, v.y, v.z)
        // [v]×² = v·vᵀ − θ²·I.
        return Matrix3(SIMD3(1 - b * (y * y + z * z), -a * z + b * x * y, a * y + b * x * z),
                       SIMD3(a * z + b * x * y, 1 - b * (x * x + z * z), -a * x + b * y * z),
                       SIMD3(-a * y + b * x * z, a * x + b * y * z, 1 - b * (x * x + y * y)))
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// The median (mean of the two middle values for an even count), as numpy's.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let h = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2
    }
}

/// A recording with its gyroscope corrected by a `GyroscopeSelfCalibration`, read by index as
/// the smoother reads recordings (the other fields unchanged).
struct GyroscopeCorrectedSamples<Base: RandomAccessCollection>: RandomAccessCollection
    where Base.Element == MotionSample, Base.Index == Int {
    let base: Base
    let calibration: GyroscopeSelfCalibration
    var startIndex: Int { base.startIndex }
    var endIndex: Int { base.endIndex }
    subscript(i: Int) -> MotionSample {
        var s = base[i]
        s.rotationRate = calibration.corrected(s.rotationRate)
        return s
    }
}
