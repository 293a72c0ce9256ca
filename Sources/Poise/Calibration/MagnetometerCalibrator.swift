/// Magnetometer calibration: the hard-iron offset b and soft-iron matrix A with which the
/// calibrated field A · (raw − b) has one strength in every direction, from a recording in which
/// the device is turned through many directions in a steady field.
///
/// Algorithm:
/// 1. Non-finite samples are left out (and counted). Readings in time order whose spread about
///    their mean is within 10 × the sensor noise (the device did not turn; the noise from the
///    median length of consecutive differences), or whose directions about their
///    mean lie on one plane (turned about one axis only), are refused before any fit; after the
///    fit, the calibrated directions must cover enough of the sphere (``DirectionCoverage``:
///    `minimumShapeThickness`, `minimumShapeCoverage`). The errors say through how many degrees
///    the device turned about each axis and what to do.
/// 2. An ellipsoid is fitted (`EllipsoidFit`, the general quadric by least squares), and
///    A = F · E^½ with E the ellipsoid's matrix and F = det(E)^(−1/6), so det A = 1 and every
///    calibrated sample has length F, the field strength (symmetric square root by eigen
///    decomposition).
/// 3. Robustness: samples whose calibrated |B| lies more than `outlierThreshold` robust standard
///    deviations (1.4826 × the median absolute deviation) from the median (both taken over at
///    most 20 000 evenly spaced samples) — and at least
///    `minimumOutlierFraction` of the field strength from it — are left out as disturbed, and the
///    fit repeats until no sample changes side (at most `maximumIterations` fits).
public enum MagnetometerCalibrator {
    /// Settings of the fit.
    public struct Options: Sendable, Equatable {
        /// The ellipsoid fitted (default `.full`: hard and soft iron).
        public var model: EllipsoidModel = .full
        /// Robust standard deviations beyond which a sample is an outlier (default 4).
        public var outlierThreshold: Double = 4
        /// Smallest rejection distance as a fraction of the field strength (default 0.02), so
        /// a nearly noiseless recording does not lose good samples.
        public var minimumOutlierFraction: Double = 0.02
        /// Most fits (default 10).
        public var maximumIterations = 10
        /// Fewest finite samples (default 50).
        public var minimumSamples = 50
        /// Smallest thickness of the calibrated field directions (``DirectionCoverage/thickness``)
        /// for which the full and diagonal fits count as determined (default 0.15: directions
        /// within about 9° RMS of one plane are refused; a whole sphere has 0.58, BROAD's
        /// rotation trials 0.17–0.35). Half of it for the offset model, and half of it for the
        /// readings about their mean before the fit.
        public var minimumShapeThickness = 0.15
        /// Smallest share of the sphere (``DirectionCoverage/sphereFraction``) the calibrated
        /// directions must visit for the full and diagonal fits (default 0.2; BROAD's rotation
        /// trials 0.37–0.90); half of it for the offset model.
        public var minimumShapeCoverage = 0.2
        /// Smallest ratio of the readings' RMS spread about their mean to the sensor noise
        /// (estimated from the median length of consecutive differences) (default 10): below it
        /// the device did not turn.
        public var minimumSpreadOverNoise = 10.0

        /// The thickness required for `model`.
        func minimumThickness(_ model: EllipsoidModel) -> Double {
            model == .offset ? minimumShapeThickness / 2 : minimumShapeThickness
        }
        /// Sphere coverage below which the result carries a warning (default 0.4).
        public var warningCoverage = 0.4

        /// Default settings (see each property).
        public init() {}
    }

    /// Calibrates from magnetometer readings in time order (any unit; the results are in the same
    /// unit). Repeats of a held reading should be left out (they are not new measurements).
    ///
    /// - Throws: ``CalibrationError`` for too few finite samples, directions that do not determine
    ///   the ellipsoid ("the device turned through only 40° about X …; turn it in all
    ///   directions"), a fit that is not an ellipsoid, or more than half the samples rejected.
    /// - Complexity: O(n · iterations).
    public static func calibrate(_ fields: [SIMD3<Double>], options: Options = Options()) throws(CalibrationError) -> MagnetometerCalibration {
        return try calibrate(log: InMemoryValueLog(values: fields.map(MagneticReading.init)), options: options)
    }

    /// Calibrates from the readings of a ``MagneticFieldCollector`` (its `readings`), kept in the
    /// heap or elsewhere: every step is a pass over them in order (a few per rejection round),
    /// and the fit's state per reading is kept in their marks, so a log outside the heap keeps
    /// the memory fixed whatever the number of readings. The result equals that of
    /// `calibrate(_:options:)` over the same fields, to the last bit. Check the log's `failure`
    /// before using the result (or the error).
    public static func calibrate(_ readings: any ValueLog<MagneticReading>, options: Options = Options()) throws(CalibrationError) -> MagnetometerCalibration {
        try calibrate(log: readings, options: options)
    }

    /// `calibrate(_:options:)` compiled for the log's type (each pass over the readings a loop
    /// over the log's storage, its body inlined, not a call through the protocol per reading).
    static func calibrate<Log: ValueLog<MagneticReading>>(log readings: Log, options: Options) throws(CalibrationError) -> MagnetometerCalibration {
        let count = readings.count
        var nonFinite = 0
        readings.update { _, r in
            r.marks = 0
            r.usable = r.x.isFinite && r.y.isFinite && r.z.isFinite
            r.included = r.usable
            if !r.usable { nonFinite += 1 }
        }
        let clipped = Self.markClipped(readings)
        let finiteCount = count - nonFinite - clipped
        guard 2 * clipped <= count - nonFinite else {
            throw CalibrationError("\(clipped) of \(count - nonFinite) samples sit at the largest or smallest reading of an axis: the magnetometer saturates (a magnet too close, or a range set too small); record again")
        }
        guard finiteCount >= options.minimumSamples else {
            throw CalibrationError("\(finiteCount) usable magnetometer samples\(nonFinite > 0 ? " (\(nonFinite) not finite)" : "")\(clipped > 0 ? " (\(clipped) saturated)" : ""); calibration needs at least \(options.minimumSamples), recorded while the device turns in all directions")
        }
        // Did the device turn at all? The readings' spread about their mean against the sensor
        // noise, from the median length of consecutive differences (robust to the turning that
        // some differences contain): for Gaussian noise of σ per axis a difference has Maxwell-
        // distributed length with median 1.5382 · √2 σ, and the noise vector's RMS length is √3 σ.
        var mean = SIMD3<Double>.zero
        readings.forEach { _, r in if r.usable { mean += r.field } }
        mean /= Double(finiteCount)
        var spread = 0.0
        var differences: [Double] = []
        let step = Swift.max(1, count / Self.statisticsCount)
        var previous: MagneticReading?
        readings.forEach { i, r in
            defer { previous = r }
            guard r.usable else { return }
            let d = r.field - mean
            spread += (d * d).sum()
            if i % step == 0, i > 0, let previous, previous.usable {
                let e = r.field - previous.field
                differences.append((e * e).sum().squareRoot())
            }
        }
        spread = (spread / Double(finiteCount)).squareRoot()
        let noise = differences.isEmpty ? 0 : 3.squareRoot() * Self.median(differences) / (1.5382 * 2.squareRoot())
        let raw = DirectionCoverage(count: count) { step, add in
            readings.forEach(every: step) { _, r in add(r.usable ? r.field - mean : nil) }
        }
        guard spread >= options.minimumSpreadOverNoise * noise, spread > 0 else {
            throw CalibrationError("the device hardly turned: the readings vary by \(Self.text(spread)) (RMS about their mean, in the sensor's unit), no more than \(Int(options.minimumSpreadOverNoise)) × the sensor noise (\(Self.text(noise))); calibration needs a recording in which the device turns in all directions")
        }
        // Readings on one plane (a device turned about one axis only) cannot determine the ellipsoid.
        guard raw.thickness >= options.minimumThickness(options.model) / 2 else {
            throw undetermined(raw, options: options)
        }
        var iterations = 0
        var fit: EllipsoidFit
        var correction = SensorCorrection(offset: .zero, matrix: .scaledIdentity(1))
        var strength = 0.0
        while true {
            iterations += 1
            do throws(CalibrationError) {
                fit = try EllipsoidFit(model: options.model) { body in Self.includedFields(readings, body) }
            } catch {
                throw CalibrationError(error.message + "; the device turned \(raw.turnText): turn it in all directions")
            }
            let root = SymmetricEigen(fit.shape)
            // F = det(E)^(−1/6), so det(F · E^½) = 1.
            strength = 1 / cubeRoot(root.values.map { Swift.max(0, $0).squareRoot() }.reduce(1, *))
            let matrix = root.map3 { strength * $0.squareRoot() }
            correction = SensorCorrection(offset: fit.center, matrix: matrix)
            guard iterations < options.maximumIterations else { break }
            // Median and MAD of the kept samples' |B|, from at most 20 000 evenly spaced ones.
            var kept: [Double] = []
            kept.reserveCapacity(Swift.min(count, 2 * Self.statisticsCount))
            let current = correction
            readings.forEach(every: step) { _, r in if r.included { kept.append(Self.magnitude(r, current)) } }
            let median = Self.median(kept)
            for k in kept.indices { kept[k] = (kept[k] - median).magnitude }
            let deviation = 1.4826 * Self.median(kept)
            let limit = Swift.max(options.outlierThreshold * deviation, options.minimumOutlierFraction * strength)
            var changed = false
            var keptCount = 0
            readings.forEachBlock(writing: true) { _, block in
                var changedHere = false, keptHere = 0
                for j in block.indices {
                    if block[j].usable {
                        let inside = (Self.magnitude(block[j], current) - median).magnitude <= limit
                        if inside != block[j].included { block[j].included = inside; changedHere = true }
                    }
                    if block[j].included { keptHere += 1 }
                }
                if changedHere { changed = true }
                keptCount += keptHere
            }
            if !changed { break }
            guard 2 * keptCount >= finiteCount else {
                throw CalibrationError("more than half of the \(finiteCount) samples disagree with one field strength: the field was not steady (a magnet or steel nearby?); record again away from metal")
            }
        }
        // One last pass: the residual, the spreads before and after, and the calibrated
        // directions' coverage (every `step`-th reading).
        var kept = 0
        var squares = 0.0
        var before = MagnitudeSpread.Sums(), after = MagnitudeSpread.Sums(), afterAll = MagnitudeSpread.Sums()
        let finalCorrection = correction, fieldStrength = strength
        let coverage = DirectionCoverage(count: count) { step, add in
            var next = 0
            readings.forEachBlock(writing: false) { first, block in
                var keptHere = kept, squaresHere = squares
                var beforeHere = before, afterHere = after, afterAllHere = afterAll
                for j in block.indices {
                    let r = block[j]
                    var calibrated: SIMD3<Double>?
                    if r.usable {
                        let c = finalCorrection.apply(r.field)
                        let m = (c * c).sum().squareRoot()
                        afterAllHere.add(length: m)
                        if r.included {
                            keptHere += 1
                            squaresHere += (m - fieldStrength) * (m - fieldStrength)
                            let raw = r.field
                            beforeHere.add(length: (raw * raw).sum().squareRoot())
                            afterHere.add(length: m)
                            calibrated = c
                        }
                    }
                    if first + j == next {
                        add(calibrated)
                        next += step
                    }
                }
                (kept, squares) = (keptHere, squaresHere)
                (before, after, afterAll) = (beforeHere, afterHere, afterAllHere)
            }
        }
        let coverageNeeded = options.model == .offset ? options.minimumShapeCoverage / 2 : options.minimumShapeCoverage
        guard coverage.thickness >= options.minimumThickness(options.model), coverage.sphereFraction >= coverageNeeded else {
            throw undetermined(coverage, options: options)
        }
        var warnings: [String] = []
        if coverage.sphereFraction < options.warningCoverage {
            warnings.append("the field directions cover only \(Int((coverage.sphereFraction * 100).rounded())) % of the sphere (\(coverage.turnText)); \(options.model == .offset ? "the offset" : "the soft-iron matrix") is weakly determined: turn the device in all directions")
        }
        if clipped > 0 {
            warnings.append("\(clipped) samples at the largest or smallest reading of an axis were left out as saturated")
        }
        let rejected = finiteCount - kept
        if rejected * 10 > finiteCount {
            warnings.append("\(rejected) of \(finiteCount) samples (\(Int((Double(rejected) * 100 / Double(finiteCount)).rounded())) %) were left out as disturbed: the field was not steady during the recording")
        }
        return MagnetometerCalibration(
            correction: correction, model: options.model, fieldStrength: strength,
            residual: (squares / Double(kept)).squareRoot(),
            before: MagnitudeSpread(before), after: MagnitudeSpread(after), afterAll: MagnitudeSpread(afterAll),
            coverage: coverage,
            samples: count, rejected: rejected, nonFinite: nonFinite, saturated: clipped, iterations: iterations, warnings: warnings)
    }

    /// The calibrated |B| of a reading.
    @inline(__always)
    static func magnitude(_ r: MagneticReading, _ correction: SensorCorrection) -> Double {
        let c = correction.apply(r.field)
        return (c * c).sum().squareRoot()
    }

    /// Hands `body` the fields of the readings included in the fit, in order, in blocks of at
    /// most 4,096 (copied into one buffer on the stack).
    static func includedFields<Log: ValueLog<MagneticReading>>(_ readings: Log, _ body: (UnsafeBufferPointer<SIMD3<Double>>) -> Void) {
        withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: 4096) { scratch in
            var n = 0
            readings.forEachBlock(writing: false) { _, block in
                var k = n
                for r in block where r.included {
                    scratch[k] = r.field
                    k += 1
                    if k == scratch.count {
                        body(UnsafeBufferPointer(rebasing: scratch[..<k]))
                        k = 0
                    }
                }
                n = k
            }
            if n > 0 { body(UnsafeBufferPointer(rebasing: scratch[..<n])) }
        }
    }

    /// Marks as unusable the readings sitting at an axis's largest or smallest reading when at
    /// least 0.5 % of the usable readings (and at least 10) share that exact value: a saturated
    /// sensor repeats its limit, a good one reaches its extremes once or twice. Returns how many.
    static func markClipped<Log: ValueLog<MagneticReading>>(_ readings: Log) -> Int {
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        var count = 0
        readings.forEach { _, r in
            guard r.usable else { return }
            low = pointwiseMin(low, r.field); high = pointwiseMax(high, r.field); count += 1
        }
        let needed = Swift.max(10, count / 200)
        var atLow = SIMD3<Int>.zero, atHigh = SIMD3<Int>.zero
        readings.forEach { _, r in
            guard r.usable else { return }
            let v = r.field
            for axis in 0..<3 {
                if v[axis] == low[axis] { atLow[axis] += 1 }
                if v[axis] == high[axis] { atHigh[axis] += 1 }
            }
        }
        var clipped = 0
        readings.update { _, r in
            guard r.usable else { return }
            let v = r.field
            // An axis that never changed (low = high) did not saturate: the device did not turn.
            for axis in 0..<3 where low[axis] < high[axis] && ((atLow[axis] >= needed && v[axis] == low[axis])
                || (atHigh[axis] >= needed && v[axis] == high[axis])) {
                r.usable = false
                r.included = false
                clipped += 1
                break
            }
        }
        return clipped
    }

    /// The error for directions that do not determine the ellipsoid.
    static func undetermined(_ coverage: DirectionCoverage, options: Options) -> CalibrationError {
        let least = (0..<3).min { coverage.turn[$0] < coverage.turn[$1] } ?? 0
        let axis = ["X", "Y", "Z"][least]
        let degrees = asin(Swift.min(1, coverage.thickness)) * 180 / .pi
        let advice = options.model == .offset ? "turn it in all directions" : "turn it in all directions (or fit the hard-iron offset only: model offset)"
        if coverage.turn.max() < 20 {
            return CalibrationError("the device hardly turned (the field direction moved through at most \(Int(coverage.turn.max().rounded()))°); calibration needs a recording in which the device turns in all directions")
        }
        return CalibrationError("the device turned through only \(Int(coverage.turn[least].rounded()))° about \(axis) (\(coverage.turnText)), the field directions cover \(Int((coverage.sphereFraction * 100).rounded())) % of the sphere and stay within \(Int(degrees.rounded()))° (RMS) of one plane, so the \(options.model.rawValue) ellipsoid is not determined; \(advice)")
    }

    /// Most samples the median and MAD of each outlier-rejection pass are computed from (evenly spaced).
    static let statisticsCount = 20_000

    /// A number with three significant decimals for messages.
    static func text(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return "\(scaled)"
    }

    /// Median of `values` (NaN when empty), by selection: O(n).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        var copy = values
        let middle = copy.count / 2
        let upper = select(&copy, middle)
        guard copy.count % 2 == 0 else { return upper }
        // The lower middle is the largest of the elements left of `middle` after selection.
        return (copy[0..<middle].max()! + upper) / 2
    }

    /// Reorders `values` so that `values[k]` is the k-th smallest, everything before it not larger
    /// and everything after it not smaller (Hoare's selection, median-of-three pivots); returns it.
    static func select(_ values: inout [Double], _ k: Int) -> Double {
        var low = 0, high = values.count - 1
        while low < high {
            let mid = low + (high - low) / 2
            if values[mid] < values[low] { values.swapAt(mid, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[mid] { values.swapAt(high, mid) }
            let pivot = values[mid]
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j { values.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return values[k]
    }
}

/// x^(1/3) for x > 0.
@inline(__always) func cubeRoot(_ x: Double) -> Double { cbrt(x) }

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
