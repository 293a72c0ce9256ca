/// Offline device-motion estimation over a whole recording: the attitude at every sample from
/// the samples before it and after it.
///
/// With `Options.gyroscopeSelfCalibration` (default) the smoother first fits the gyroscope's
/// scale factors and axis misalignment to the recording (`GyroscopeSelfCalibration`, from the
/// accelerometer's up direction at quasi-still moments; refused fits change nothing) and reads
/// every rate corrected. It then runs the online estimator (`DeviceMotionEstimator`, unchanged)
/// over the recording three times (in 9D after finding the magnetically disturbed spans,
/// `Options.magneticDisturbanceSpans`, which the first pass, or every pass, reads without the
/// magnetometer):
/// 1. forward, to learn the state at the end (gyroscope bias and its covariance, attitude) —
///    nothing is kept per sample;
/// 2. backward in time, started from that state (`Options.carryBias` and the other carry
///    options), keeping each sample's attitude, bias and its time since its last undisturbed
///    magnetometer reading and since its last rest;
/// 3. forward again, started from the backward pass's state at the first sample, combining each
///    sample's attitude with the backward one.
///
/// The backward pass fuses the time-reversed recording: sample k of it is sample n−1−k with time
/// −t, the same accelerometer and magnetometer readings, and rotation rate −ω of the sample
/// after it (the estimator integrates each sample's rate over the step before the sample, so the
/// step from t_{i+1} back to t_i turns by −ω_{i+1}; exact for irregular timestamps too). A bias
/// b of the forward recording is −b there.
///
/// Combination: the two attitudes (device → ENU) are averaged as quaternions with per-sample
/// weights 1 / (1 + τ / `Options.disturbanceWeightTime`), τ the time, s, for which that pass has
/// had no undisturbed magnetometer reading (0 in 6D), and normalised. In 6D the backward pass's
/// heading is first turned about the vertical by the circular mean of its heading difference to
/// the forward pass over the recording (6D heading is arbitrary per pass; this needs the
/// forward pass twice, once to find the mean and once to write the output).
///
/// Inclination (`Options.inclinationLowPassTime`, default 4 s): each sample's combined attitude
/// and bias are kept (the output waits for the whole recording); the rates less that bias
/// are integrated once over the recording, the accelerometer turned into that integrated frame
/// is low-passed forward and backward (zero phase), and each sample's output attitude is that
/// integrated attitude tilted so the low-passed vector points up, turned about the vertical to
/// the combined heading (offlineVQF's inclination; the heading stays the passes').
///
/// Outputs per sample, as `DeviceMotionEstimator` (units, frames and signs of `DeviceMotion`):
/// attitude (device → `configuration.earthFrame`), gravity (from the combined attitude),
/// user acceleration (measured specific force minus gravity, g), bias (mean of the two passes'
/// estimates, rad/s, device frame), rotation rate minus that bias, heading and the forward
/// pass's flags. References: magnetic north, true north (`declination`), arbitrary-corrected
/// (the magnetic-north attitude turned so that its heading at the first sample is 0) or 6D.
///
/// Memory: the values one pass hands to a later one go to a `SmootherStorage` (the heap unless
/// the caller provides other storage): 64 bytes per sample (the backward pass's attitude, bias
/// and τ, in one array), with the zero-phase inclination 176 more (each sample's combined
/// attitude and bias and the output pass's values, kept until the inclination is known), and in
/// 9D with the disturbed spans 114 more (`disturbedSpans`; 274 with `.earthFixed`),
/// besides the samples themselves, which the smoother reads by index in both directions (a
/// `RandomAccessCollection`: an array, or a spool on disk as `poise fuse --offline` uses). Every
/// array is visited in order, forward or backward, so storage that keeps them in files and
/// buffers a block of each (`poise`'s) leaves a working set that does not grow with the
/// recording. The zero-phase heading (`Options.headingLowPassTime`) keeps its values there too,
/// its medians of the field's norm and dip included (`ExactMedian`, read in order), and so does
/// the gyroscope fit given the same storage (`gyroscopeCalibration(for:storage:)`: 432 bytes per
/// quasi-still anchor, at most one per 0.1 s).
/// Time: the gyroscope fit (four passes of rotation integration), three estimator passes (four
/// in 6D) plus the combination, and with the zero-phase inclination one integration and two
/// filter passes more, O(n).
public struct DeviceMotionSmoother: Sendable {
    /// The estimator settings for both passes (`reference` selects 6D or 9D; `earthFrame` and
    /// `declination` apply to the combined output).
    public let configuration: DeviceMotionConfiguration
    /// The smoother's own settings.
    public var options: Options

    /// Settings of the passes and of their combination.
    public struct Options: Sendable, Codable, Equatable {
        /// Start the backward pass with the first forward pass's final gyroscope bias (negated
        /// across the time reversal) and its covariance, and the output pass with the backward
        /// pass's final ones (both are estimates at the same instant). Default true.
        public var carryBias: Bool = true
        /// Start each pass with the other pass's final attitude (device → ENU), so that a
        /// recording that starts or ends in motion does not begin a pass with an inclination
        /// taken from one accelerating sample. Default true.
        public var carryAttitude: Bool = true
        /// With `carryAttitude` in 9D: keep the carried heading (no fast initial heading
        /// convergence to the first magnetometer readings) always, so that a pass that starts
        /// at rest where the field is locally different does not take its heading from that spot
        /// alone (the other pass has corrected its heading over the whole recording); when
        /// false, only when the other pass ended in motion. Default true (chosen with the 20-s
        /// heading gain so that no BROAD trial is more than 5 % worse than offlineVQF,
        /// research/fusion-tuning.md).
        public var carryHeading: Bool = true
        /// Start each pass with the other pass's final magnetic reference field (norm, dip,
        /// disturbance state). 9D only. Default false.
        public var carryMagneticReference: Bool = false
        /// Time, s, after which a pass's weight has halved while its magnetometer is disturbed
        /// (heading uncorrected); 0: no such weighting. 9D only. Default 0.
        public var disturbanceWeightTime: Double = 0
        /// Time, s, after which a pass's weight has halved since it last detected rest (where
        /// the bias is learned); 0: no such weighting. Default 0.
        public var restWeightTime: Double = 0
        /// Time, s, over which a pass's weight grows from 0 at the pass's first sample: weight
        /// 1 − exp(−e / T), e the time the pass has run (from the first sample forward, from the
        /// last backward), so that each sample near one end of the recording takes its attitude
        /// mostly from the pass that has run longer there (the other is still converging from
        /// its start); 0: no such weighting. Default 0.
        public var convergenceWeightTime: Double = 0
        /// Time constant, s, of the zero-phase inclination (offlineVQF's approach): the rates
        /// less the combined bias integrated once over the whole recording from the combined
        /// attitude at the first sample, the accelerometer turned into that integrated frame and
        /// low-passed forward and backward (VQF's second-order accelerometer low-pass with this
        /// time constant), and each sample's inclination the one that turns that low-passed
        /// vector up; the heading stays the combined passes'. 0: the combined passes'
        /// inclination. One more integration and two filter passes, and 176 bytes per sample (240 in all at the peak). Default 4 (chosen
        /// by leave-trials-out cross-validation on the BROAD trials, research/fusion-tuning.md).
        public var inclinationLowPassTime: Double = 4
        /// Time constant, s, of the zero-phase heading correction (offlineVQF's heading, from its
        /// published description), 9D with `inclinationLowPassTime` > 0 only: per sample, the
        /// magnetometer reading less the output pass's offset estimate, turned into the output
        /// attitude's frame (ENU), gives the angle about the vertical by which that frame's
        /// north is off magnetic north; samples whose field norm is more than 10 % or whose dip
        /// is more than 10° from the recording's medians are left out; the unit vectors of the
        /// others' angles are low-passed forward and backward (first order, this time constant)
        /// and each sample's attitude is turned about the vertical by the angle of the result
        /// (counter-clockwise seen from above when north lies clockwise of the frame's). 0: the
        /// combined passes' heading. 128 bytes per sample more. Default 0.
        public var headingLowPassTime: Double = 0
        /// Combine the two passes' gyroscope biases per sample by their covariances (the
        /// minimum-variance combination b_f + P_f (P_f + P_b)⁻¹ (b_b − b_f), P each pass's bias
        /// covariance, as offlineVQF combines its passes' biases) instead of their mean; the
        /// combined bias is the output's and the one the zero-phase inclination integrates
        /// with. 72 bytes per sample more. Default false.
        public var biasCovarianceWeighting: Bool = false
        /// Fit the gyroscope's scale factors and axis misalignment to the recording
        /// (`GyroscopeSelfCalibration`, from the accelerometer's up direction at quasi-still
        /// moments) and run every pass on the corrected rates; a fit outside the plausible range
        /// is refused and changes nothing. Default true (chosen by leave-trials-out
        /// cross-validation on the BROAD trials, research/fusion-tuning.md).
        public var gyroscopeSelfCalibration: Bool = true
        /// With `gyroscopeSelfCalibration`: the largest axis misalignment (|C − I| off the
        /// diagonal, rad) of an accepted fit (`GyroscopeSelfCalibration.Options.maximumMisalignment`).
        /// Default 0.003.
        public var gyroscopeMaximumMisalignment: Double = 0.003
        /// Run the backward and the combining passes a second time with a fixed gyroscope bias,
        /// per sample the mean of the first forward and backward passes' estimates, instead of
        /// each pass's causal estimate (bias estimation off in those passes). Two more passes and
        /// 24 bytes per sample. Default false.
        public var smoothedBias: Bool = false
        /// 9D: find the magnetically disturbed spans from the whole recording before the passes
        /// and run passes without the magnetometer there (the heading bridged by the gyroscope,
        /// as offlineVQF bridges the spans both its passes flag): `.off`; `.firstPass`, the
        /// forward pass that only sets the other passes' starting state (its heading is
        /// otherwise averaged over the first `magnetometerTimeConstant` seconds, disturbed
        /// readings included); `.allPasses`, every pass, and the disturbed samples carry the
        /// `magneticDisturbance` flag; `.earthFixed`, as `.allPasses` without the readings an
        /// offset fitted around them explains. The spans: a first forward pass turns each magnetometer
        /// reading, less an offset estimate (a forward or backward pass's
        /// `magneticOffsetEstimation`, for a magnet fixed to the device, or an offset fitted to
        /// the recording's undisturbed readings), into its attitude's frame (ENU); a sample is
        /// disturbed when, with each estimate, the field's norm differs from the recording's
        /// median norm by more than `magneticNormThreshold` (relative) or its dip from the
        /// median dip by more than `magneticDipThreshold` (VQF's thresholds, as the online test),
        /// or when it lies within `magneticMinimumUndisturbedTime` of such a sample in either
        /// direction of time (the online test's wait after a disturbance, both ways); a span
        /// mostly at rest is then left out (`magneticDisturbanceMaximumRestShare`). The
        /// medians stand for the field most of the recording sees. Two estimator passes and a fit more
        /// (the smoother's first pass is the search's forward pass when no span is found)
        /// and 114 bytes per sample (274 with `.earthFixed`). Default `.earthFixed`, with
        /// `magneticDisturbanceMaximumRestShare` 0.5, `magneticDisturbanceMinimumSpanTime` 1.2 s
        /// and the passes' `magneticMaximumRejectionTime` 0 (`defaultConfiguration`): chosen by
        /// the protocol of research/fusion-offline-rejection.md, against `.off` no BROAD
        /// category with a higher mean and a lower mean over the simulated sensor matrix.
        public var magneticDisturbanceSpans: MagneticDisturbanceSpans = .earthFixed
        /// Which passes run without the magnetometer in the disturbed spans
        /// (`magneticDisturbanceSpans`).
        public enum MagneticDisturbanceSpans: String, Sendable, Codable, Equatable {
            case off
            case firstPass = "first-pass"
            case allPasses = "all-passes"
            /// As `.allPasses`, but a reading that a magnetometer offset fitted to the readings
            /// around it explains is not disturbed (`fitLocalMagneticOffsets`: a magnet fixed to
            /// the device, before the passes' own estimation has fitted it); the spans left are
            /// fields that stay off in the earth frame. 32 bytes per sample more, and 128 per
            /// reading that no other offset explains (those alone get the local fit).
            case earthFixed = "earth-fixed"
        }
        /// With `magneticDisturbanceSpans`: a span (a run of disturbed samples, margins
        /// included) more than this share of whose samples are at rest (the forward or the
        /// backward pass of the span search flags `atRest`, as `OfflineVQF` combines its
        /// passes' rest) is not disturbed, its readings read as elsewhere: at rest a constant
        /// offset of the field cannot be told from a disturbance, and the readings are what
        /// holds the heading there. 1: every span stays. Default 0.5 (chosen among 1/4, 1/2,
        /// 3/4 and 1 by the protocol of research/fusion-offline-disturbance.md: with
        /// `.earthFixed` the lowest BROAD and matrix means, and against 1 no BROAD trial or
        /// matrix cell higher).
        public var magneticDisturbanceMaximumRestShare: Double = 0.5
        /// With `magneticDisturbanceSpans`: a span that lasts no more than this, s (its first to
        /// its last sample, the `magneticMinimumUndisturbedTime` margins included), is not
        /// disturbed; 0: every span stays. Default 1.2 s: a span of one disturbed reading and
        /// its two 0.5-s margins is left out (such a blip costs less than the readings the span
        /// would remove; research/fusion-offline-rejection.md).
        public var magneticDisturbanceMinimumSpanTime: Double = 1.2

        /// Creates settings; each argument sets the property of the same name (defaults as there).
        public init(carryBias: Bool = true, carryAttitude: Bool = true, carryHeading: Bool = true,
                    carryMagneticReference: Bool = false, disturbanceWeightTime: Double = 0, restWeightTime: Double = 0,
                    convergenceWeightTime: Double = 0, inclinationLowPassTime: Double = 4,
                    gyroscopeSelfCalibration: Bool = true, gyroscopeMaximumMisalignment: Double = 0.003, smoothedBias: Bool = false,
                    headingLowPassTime: Double = 0, biasCovarianceWeighting: Bool = false) {
            self.smoothedBias = smoothedBias
            self.biasCovarianceWeighting = biasCovarianceWeighting
            self.headingLowPassTime = headingLowPassTime
            self.gyroscopeSelfCalibration = gyroscopeSelfCalibration
            self.gyroscopeMaximumMisalignment = gyroscopeMaximumMisalignment
            self.carryBias = carryBias
            self.carryAttitude = carryAttitude
            self.carryHeading = carryHeading
            self.carryMagneticReference = carryMagneticReference
            self.disturbanceWeightTime = disturbanceWeightTime
            self.restWeightTime = restWeightTime
            self.convergenceWeightTime = convergenceWeightTime
            self.inclinationLowPassTime = inclinationLowPassTime
        }

        /// Whether a pass starts from the previous pass's state.
        var carriesState: Bool { carryBias || carryAttitude || carryMagneticReference }

        /// The names of the settings (for command-line overrides).
        public static let names = ["carryBias", "carryAttitude", "carryHeading", "carryMagneticReference", "disturbanceWeightTime", "restWeightTime",
                                   "convergenceWeightTime", "inclinationLowPassTime",
                                   "gyroscopeSelfCalibration", "gyroscopeMaximumMisalignment", "smoothedBias",
                                   "headingLowPassTime", "biasCovarianceWeighting", "magneticDisturbanceSpans",
                                   "magneticDisturbanceMaximumRestShare", "magneticDisturbanceMinimumSpanTime"]

        /// The settings of the gyroscope fit.
        var gyroscopeFitOptions: GyroscopeSelfCalibration.Options {
            var o = GyroscopeSelfCalibration.Options()
            o.maximumMisalignment = gyroscopeMaximumMisalignment
            return o
        }
    }

    /// One sample of the backward pass, kept for the output pass (64 bytes).
    @usableFromInline struct BackwardRecord {
        /// Attitude, device → ENU (magnetic north in 9D, the pass's own heading in 6D), (w, x, y, z).
        var attitude: SIMD4<Double>
        /// The bias estimate in the forward sense, rad/s.
        var bias: (x: Double, y: Double, z: Double)
        /// The pass's time since its last undisturbed magnetometer reading and since its last
        /// rest, s.
        var ages: SIMD2<Float>
    }

    /// The estimator settings the smoother uses by default: `DeviceMotionConfiguration`'s
    /// defaults with a slower heading correction, `magnetometerTimeConstant` 20 s (online: 9 s;
    /// the other pass covers the slower convergence; with `Options.carryHeading`, the slowest
    /// gain, and the best mean, with no BROAD trial more than 5 % worse than offlineVQF,
    /// research/fusion-tuning.md), and
    /// without the online field-direction test (`magneticDirectionThreshold` 0: with the slow
    /// heading gain it makes the smoother's BROAD 9D mean worse, 1.552° → 1.600° at 25 s), and
    /// with no full rejection of the readings the online disturbance test flags
    /// (`magneticMaximumRejectionTime` 0: they correct the heading at half the gain,
    /// `magneticRejectionFactor`, from the first one; the smoother's own disturbed spans,
    /// `Options.magneticDisturbanceSpans`, take the readings that are off in the earth frame out
    /// instead; research/fusion-offline-rejection.md).
    public static func defaultConfiguration(sampleRate: Double = 100,
                                            reference: AttitudeReference = .magneticNorthZVertical) -> DeviceMotionConfiguration {
        var c = DeviceMotionConfiguration(sampleRate: sampleRate, reference: reference)
        c.magnetometerTimeConstant = 20
        c.magneticDirectionThreshold = 0
        c.magneticMaximumRejectionTime = 0
        return c
    }

    /// Creates a smoother; `configuration` as for `DeviceMotionEstimator`.
    public init(configuration: DeviceMotionConfiguration = DeviceMotionSmoother.defaultConfiguration(), options: Options = Options()) {
        self.configuration = configuration
        self.options = options
    }

    /// The configuration of every pass: ENU, magnetic north in 9D, the 6D reference otherwise
    /// (the output's reference and frame are applied to the combined attitude), and no output
    /// prediction (the passes' attitudes are states at the samples' times, carried between
    /// passes; the smoother's output is carried ahead once, at the end).
    var passConfiguration: DeviceMotionConfiguration {
        var c = configuration
        c.earthFrame = .eastNorthUp
        c.outputPrediction = 0
        c.reference = configuration.reference.usesMagnetometer ? .magneticNorthZVertical : .arbitraryZVertical
        return c
    }

    // MARK: Whole recording

    /// The device motion at every sample of `samples` (in time order), in order. Equal to
    /// collecting `smooth(_:emit:)`.
    public func smooth<C: RandomAccessCollection>(_ samples: C) -> [DeviceMotion] where C.Element == MotionSample, C.Index == Int {
        var output: [DeviceMotion] = []
        output.reserveCapacity(samples.count)
        smooth(samples) { _, motion in output.append(motion) }
        return output
    }

    /// Runs the passes over `samples` (in time order) and calls `emit` with each sample's index
    /// (0-based offset from `samples.startIndex`) and device motion, in order, after the
    /// backward pass (so a writer can stream the output). With
    /// `Options.gyroscopeSelfCalibration`, the gyroscope calibration is fitted first
    /// (`gyroscopeCalibration(for:storage:)`).
    public func smooth<C: RandomAccessCollection>(_ samples: C, emit: (Int, DeviceMotion) throws -> Void) rethrows
        where C.Element == MotionSample, C.Index == Int {
        try smooth(samples, gyroscopeCalibration: gyroscopeCalibration(for: samples), emit: emit)
    }

    /// The gyroscope calibration the smoother fits to `samples` (nil when
    /// `Options.gyroscopeSelfCalibration` is off; refused fits have `accepted` false and change
    /// nothing).
    /// `storage` keeps the fit's anchors (see `GyroscopeSelfCalibration`; the heap by default).
    public func gyroscopeCalibration<C: RandomAccessCollection>(for samples: C, storage: any SmootherStorage = InMemorySmootherStorage())
        -> GyroscopeSelfCalibration? where C.Element == MotionSample, C.Index == Int {
        options.gyroscopeSelfCalibration ? GyroscopeSelfCalibration.fit(samples, options: options.gyroscopeFitOptions, storage: storage) : nil
    }

    /// Runs the passes as `smooth(_:emit:)` with the given gyroscope calibration (nil or refused:
    /// the rates as recorded); the output rotation rate is the corrected one less the bias.
    /// `storage` keeps the per-sample values the passes hand on (see Memory above; in the heap
    /// by default).
    ///
    /// Samples in one block of memory (an array, a slice of one, a buffer) are read through a
    /// buffer pointer, with passes compiled for it; other collections through their
    /// `RandomAccessCollection` conformance, with passes generic over it when the caller is in
    /// another module.
    public func smooth<C: RandomAccessCollection>(_ samples: C, gyroscopeCalibration: GyroscopeSelfCalibration?,
                                                  storage: any SmootherStorage = InMemorySmootherStorage(),
                                                  emit: (Int, DeviceMotion) throws -> Void) rethrows
        where C.Element == MotionSample, C.Index == Int {
        let contiguous: Void? = try samples.withContiguousStorageIfAvailable {
            try smoothCalibrated($0, gyroscopeCalibration: gyroscopeCalibration, storage: storage, emit: emit)
        }
        if contiguous == nil {
            try smoothCalibrated(samples, gyroscopeCalibration: gyroscopeCalibration, storage: storage, emit: emit)
        }
    }

    func smoothCalibrated<C: RandomAccessCollection>(_ samples: C, gyroscopeCalibration: GyroscopeSelfCalibration?,
                                                     storage: any SmootherStorage, emit: (Int, DeviceMotion) throws -> Void) rethrows
        where C.Element == MotionSample, C.Index == Int {
        if let calibration = gyroscopeCalibration, calibration.accepted {
            try smoothPasses(GyroscopeCorrectedSamples(base: samples, calibration: calibration), storage: storage, emit: emit)
        } else {
            try smoothPasses(samples, storage: storage, emit: emit)
        }
    }

    func smoothPasses<C: RandomAccessCollection>(_ samples: C, storage: any SmootherStorage, emit: (Int, DeviceMotion) throws -> Void) rethrows
        where C.Element == MotionSample, C.Index == Int {
        let frame = configuration.earthFrame
        let usesMagnetometer = configuration.reference.usesMagnetometer
        var referenceYaw: Double?
        let halfPrediction = configuration.outputPrediction.isFinite && configuration.outputPrediction > 0
            ? configuration.outputPrediction / 2 : 0
        /// A sample's device motion from its combined attitude (ENU), bias, and the output
        /// pass's time, measured rate, acceleration and flags after the sample; carried
        /// `outputPrediction` ahead with the last integrated rate less the bias, as the online
        /// outputs.
        func motion(_ combined: Quaternion<Double>, bias: SIMD3<Double>, _ p: PassSample) -> DeviceMotion {
            let enu = halfPrediction > 0 ? fusionPredicted(combined, rate: p.integratedRate - bias, halfInterval: halfPrediction) : combined
            // The output reference's yaw about the vertical (ENU), found at the first sample.
            if referenceYaw == nil {
                switch configuration.reference {
                case .arbitraryZVertical, .magneticNorthZVertical: referenceYaw = 0
                case .trueNorthZVertical: referenceYaw = -configuration.declination * .pi / 180
                case .arbitraryCorrectedZVertical: referenceYaw = -Self.yaw(enu)
                }
            }
            let yaw = referenceYaw ?? 0
            let attitude = yaw == 0 ? enu : Self.aboutVertical(yaw) * enu
            let up = Self.up(enu)
            return DeviceMotion(
                time: p.time,
                attitude: frame == .eastNorthUp ? attitude : frame.fromEastNorthUp * attitude,
                earthFrame: frame, gravity: up, userAcceleration: p.acceleration == .zero ? .zero : p.acceleration - up,
                rotationRate: p.rate.isFinite ? p.rate - bias : .zero, bias: bias,
                heading: usesMagnetometer ? DeviceMotionEstimator.compassHeading(eastNorthUp: attitude) : nil,
                flags: p.flags)
        }
        if options.inclinationLowPassTime > 0 && !options.smoothedBias {
            // The passes once, keeping each sample's combined attitude and bias and the output
            // pass's values; the zero-phase inclination from them; then the output.
            let n = samples.count
            let kept = StoredValues<KeptSample>(storage, count: n)
            let correctsHeading = usesMagnetometer && options.headingLowPassTime > 0
            let offsets = StoredValues<SIMD3<Double>>(storage, count: correctsHeading ? n : 0)
            combine(samples, storage: storage) { i, forward, enu, bias in
                kept[i] = KeptSample(attitude: enu.components, bias: bias, pass: PassSample(forward))
                if correctsHeading { offsets[i] = forward.state.magneticOffset }
            }
            let period = 1 / configuration.sampleRate
            let tilts = Self.zeroPhaseInclination(samples, bias: { kept[$0].bias }, start: Self.quaternion(n > 0 ? kept[0].attitude : SIMD4(1, 0, 0, 0)),
                                                  timeConstant: options.inclinationLowPassTime, period: period, storage: storage)
            if correctsHeading {
                let turns = Self.zeroPhaseHeading(samples, offsets: { offsets[$0] },
                                                  attitude: { Self.inclination(of: tilts[$0], heading: Self.quaternion(kept[$0].attitude)) },
                                                  timeConstant: options.headingLowPassTime, period: period, storage: storage)
                for i in 0..<n {
                    let k = kept[i]
                    try emit(i, motion(turns[i] * Self.inclination(of: tilts[i], heading: Self.quaternion(k.attitude)), bias: k.bias, k.pass))
                }
            } else {
                for i in 0..<n {
                    let k = kept[i]
                    try emit(i, motion(Self.inclination(of: tilts[i], heading: Self.quaternion(k.attitude)), bias: k.bias, k.pass))
                }
            }
        } else if options.smoothedBias {
            // The mean bias of the two passes, then the passes again with it fixed.
            let biases = StoredValues<SIMD3<Double>>(storage, count: samples.count)
            combine(samples, storage: storage) { i, _, _, bias in biases[i] = bias }
            let corrected = BiasCorrectedSamples(base: samples, bias: biases)
            try combine(corrected, storage: storage, fixedBias: true) { i, forward, enu, bias in
                var p = PassSample(forward)
                p.rate += biases[i]
                p.integratedRate += biases[i]
                try emit(i, motion(enu, bias: bias + biases[i], p))
            }
        } else {
            try combine(samples, storage: storage) { i, forward, enu, bias in
                try emit(i, motion(enu, bias: bias, PassSample(forward)))
            }
        }
    }

    /// The output pass's values after a sample that the output needs besides the attitude and
    /// bias: time (s; the last finite one), rotation rate (rad/s) and acceleration (g) as the
    /// estimator took them, and flags.
    struct PassSample {
        var rate: SIMD3<Double>
        /// The last integrated rate (rad/s, as the estimator took it), for the output prediction.
        var integratedRate: SIMD3<Double>
        var acceleration: SIMD3<Double>
        var time: Double
        var flags: DeviceMotion.Flags
        init(_ e: DeviceMotionEstimator) {
            time = e.state.lastTime ?? 0
            rate = e.lastSample.rotationRate
            integratedRate = e.lastSample.integratedRotationRate
            acceleration = e.lastSample.acceleration
            flags = e.lastSample.flags
        }
    }

    /// A sample kept for the zero-phase inclination's output: combined attitude (device → ENU),
    /// combined bias (rad/s) and the output pass's values.
    struct KeptSample {
        var attitude: SIMD4<Double>
        var bias: SIMD3<Double>
        var pass: PassSample
    }

    /// Scores the smoothed attitude against the samples' `truth` with the BROAD metric, as
    /// `DeviceMotionEstimator.evaluate` does for the online estimate (movement mask, ENU,
    /// heading alignment in 6D).
    public func evaluate<C: RandomAccessCollection>(_ samples: C) -> OrientationError where C.Element == MotionSample, C.Index == Int {
        var accumulator = OrientationErrorAccumulator()
        let start = samples.startIndex
        smooth(samples) { i, motion in
            let s = samples[start + i]
            guard s.movement ?? true, let truth = s.truth else { return }
            let enu = configuration.earthFrame == .eastNorthUp ? motion.attitude : configuration.earthFrame.fromEastNorthUp.conjugate * motion.attitude
            accumulator.add(estimate: enu, truth: truth)
        }
        return accumulator.result(alignHeading: !configuration.reference.usesMagnetometer)
    }

    // MARK: Passes

    /// The three passes; `body` gets, per sample in order, its index, the output pass's
    /// estimator after the sample, the combined attitude (device → ENU, magnetic north in 9D)
    /// and the combined bias (rad/s).
    func combine<C: RandomAccessCollection>(_ samples: C, storage: any SmootherStorage, fixedBias: Bool = false,
                                            body: (Int, DeviceMotionEstimator, Quaternion<Double>, SIMD3<Double>) throws -> Void) rethrows
        where C.Element == MotionSample, C.Index == Int {
        let n = samples.count
        guard n > 0 else { return }
        let start = samples.startIndex
        var pass = passConfiguration
        if fixedBias {
            pass.motionBiasEstimation = false
            pass.restBiasEstimation = false
        }
        let sixD = !pass.reference.usesMagnetometer
        let weightTimes = SIMD2(sixD ? 0 : options.disturbanceWeightTime, options.restWeightTime)
        let carries = options.carriesState
        // 0. 9D: the magnetically disturbed spans; the passes read no magnetometer there.
        var disturbed = SpanSet(ranges: []), searchedForward: DeviceMotionEstimator?
        if !sixD && options.magneticDisturbanceSpans != .off {
            let search = Self.disturbedSpansAndForwardPass(samples, configuration: pass,
                                                           localOffsets: options.magneticDisturbanceSpans == .earthFixed,
                                                           maximumRestShare: options.magneticDisturbanceMaximumRestShare,
                                                           minimumSpanTime: options.magneticDisturbanceMinimumSpanTime, storage: storage)
            disturbed = SpanSet(search.disturbed)
            searchedForward = search.forward
        }
        func field(_ i: Int, _ s: MotionSample) -> SIMD3<Double>? { disturbed.isEmpty || !disturbed.contains(i) ? s.magneticField : nil }
        // (no spans in 6D, where `disturbed` is empty whatever the option)
        let allPasses = !disturbed.isEmpty
            && (options.magneticDisturbanceSpans == .allPasses || options.magneticDisturbanceSpans == .earthFixed)
        func laterField(_ i: Int, _ s: MotionSample) -> SIMD3<Double>? { allPasses ? field(i, s) : s.magneticField }
        // 1. Forward, for the state at the end (without spans, the span search's forward pass
        // has read the same samples with the same configuration: its end state).
        var first = DeviceMotionEstimator(configuration: pass)
        if carries {
            if let searchedForward, disturbed.isEmpty {
                first = searchedForward
            } else {
                for i in 0..<n {
                    let s = samples[start + i]
                    first.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: field(i, s))
                }
            }
        }
        // 2. Backward (and the recording's duration, the sum of its steps' |Δt|, s).
        var duration = 0.0
        let weighsBias = options.biasCovarianceWeighting
        let covariances = StoredValues<Matrix3>(storage, count: weighsBias ? n : 0)
        let records = StoredValues<BackwardRecord>(storage, count: n)
        do {
            var backward = DeviceMotionEstimator(configuration: pass)
            if carries { backward.carry(from: first, options) }
            var ages = SIMD2<Double>.zero, lastTime: Double?, runTime = 0.0
            // The rate of the sample after the current one (read in the step before).
            var laterRate = SIMD3<Double>.zero
            for k in 0..<n {
                let i = n - 1 - k
                let s = samples[start + i]
                let rate = k == 0 ? s.rotationRate : laterRate
                laterRate = s.rotationRate
                backward.update(time: -s.time, acceleration: s.acceleration, rotationRate: -rate, magneticField: laterField(i, s))
                ages = Self.ages(ages, flags: backward.lastSample.flags, time: s.time, lastTime: &lastTime, runTime: &runTime)
                let q = backward.attitudeEastNorthUp
                let b = backward.state.bias
                if weighsBias { covariances[i] = backward.state.biasP }
                records[i] = BackwardRecord(attitude: SIMD4(q.w, q.x, q.y, q.z), bias: (-b.x, -b.y, -b.z), ages: SIMD2<Float>(ages))
            }
            duration = runTime
            if carries { first = backward }
        }
        let carried = first
        // 6D: the backward pass's heading offset (circular mean of the heading difference).
        if sixD {
            var forward = DeviceMotionEstimator(configuration: pass)
            if carries { forward.carry(from: carried, options) }
            var sum = SIMD2<Double>.zero
            for i in 0..<n {
                let s = samples[start + i]
                forward.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField)
                let d = forward.attitudeEastNorthUp * Self.quaternion(records[i].attitude).conjugate
                let angle = 2 * Double.atan2(y: d.z, x: d.w)
                sum += SIMD2(Double.cos(angle), Double.sin(angle))
            }
            let offset = sum == .zero ? 0 : Double.atan2(y: sum.y, x: sum.x)
            let turn = Self.aboutVertical(offset)
            for i in 0..<n {
                let q = turn * Self.quaternion(records[i].attitude)
                records[i].attitude = SIMD4(q.w, q.x, q.y, q.z)
            }
        }
        // 3. Forward, combining.
        var forward = DeviceMotionEstimator(configuration: pass)
        if carries { forward.carry(from: carried, options) }
        var ages = SIMD2<Double>.zero, lastTime: Double?, runTime = 0.0
        let convergenceTime = options.convergenceWeightTime
        for i in 0..<n {
            let s = samples[start + i]
            forward.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: laterField(i, s))
            if allPasses && disturbed.contains(i) { forward.lastSample.flags.insert(.magneticDisturbance) }
            ages = Self.ages(ages, flags: forward.lastSample.flags, time: s.time, lastTime: &lastTime, runTime: &runTime)
            let r = records[i]
            let f = forward.attitudeEastNorthUp.components
            var b = r.attitude
            if (f * b).sum() < 0 { b = -b }
            var wf = Self.weight(ages, weightTimes), wb = Self.weight(SIMD2<Double>(r.ages), weightTimes)
            if convergenceTime > 0 {
                let cf = 1 - Double.exp(-runTime / convergenceTime), cb = 1 - Double.exp(-max(0, duration - runTime) / convergenceTime)
                if cf + cb > 0 { wf *= cf; wb *= cb }
            }
            let c = f * wf + b * wb
            let q = Self.quaternion(c / (c * c).sum().squareRoot())
            let backwardBias = SIMD3(r.bias.x, r.bias.y, r.bias.z)
            let bias = weighsBias ? Self.combinedBias(forward.state.bias, forward.state.biasP, backwardBias, covariances[i])
                                  : (forward.state.bias + backwardBias) * 0.5
            try body(i, forward, q, bias)
        }
    }

    /// Per sample, an attitude (device → ENU, arbitrary heading) whose inclination is the
    /// zero-phase estimate of `Options.inclinationLowPassTime`: the rates less `bias` (rad/s)
    /// integrated from `start` (each sample's rate over the step before it; steps with a
    /// non-finite time or rate are not turned), the accelerometer turned by it and low-passed
    /// forward and backward, and the rotation that turns that vector up (+z) applied.
    static func zeroPhaseInclination<C: RandomAccessCollection>(_ samples: C, bias: (Int) -> SIMD3<Double>, start: Quaternion<Double>,
                                                                timeConstant: Double, period: Double,
                                                                storage: any SmootherStorage = InMemorySmootherStorage()) -> StoredValues<SIMD4<Double>>
        where C.Element == MotionSample, C.Index == Int {
        let n = samples.count
        let attitudes = StoredValues<SIMD4<Double>>(storage, count: n)
        guard n > 0 else { return attitudes }
        let first = samples.startIndex
        let coefficients = CriticalLowPassCoefficients(timeConstant: timeConstant, period: period.isFinite && period > 0 ? period : 0.01)
        let filtered = StoredValues<SIMD3<Double>>(storage, count: n)
        var g = start, lastTime: Double?, input = SIMD3<Double>(0, 0, 1)
        var low = CriticalLowPassState<SIMD3<Double>>()
        for i in 0..<n {
            let s = samples[first + i]
            if let last = lastTime, s.time.isFinite {
                let turn = (s.rotationRate - bias(i)) * (s.time - last)
                if turn.isFinite { g = (g * Quaternion(rotationVector: turn)).normalized }
            }
            if s.time.isFinite { lastTime = s.time }
            attitudes[i] = g.components
            let a = g.act(s.acceleration)
            if a.isFinite && a != .zero { input = a }
            if i == 0 { low.settle(on: input, coefficients) }
            filtered[i] = low.step(input, coefficients)
        }
        low = CriticalLowPassState()
        for i in stride(from: n - 1, through: 0, by: -1) {
            if i == n - 1 { low.settle(on: filtered[i], coefficients) }
            let up = low.step(filtered[i], coefficients)
            // The shortest rotation that turns `up` to +z: (1 + u·z, u × z) normalised, u = up / |up|
            // (none when up points down or is not finite).
            let u = up / (up * up).sum().squareRoot()
            let h = SIMD4(1 + u.z, u.y, -u.x, 0), norm = (h * h).sum().squareRoot()
            if norm > 1e-12 && norm.isFinite { attitudes[i] = (quaternion(h / norm) * quaternion(attitudes[i])).components }
        }
        return attitudes
    }

    /// Per sample, the zero-phase heading correction of `Options.headingLowPassTime`: a turn
    /// about the vertical (ENU) to apply before the sample's `attitude` (device → ENU). Each
    /// sample's magnetometer reading less `offsets` (µT, device frame), turned by its attitude,
    /// gives δ = atan2(east, north) (rad) and the field's norm and dip; samples without a finite
    /// reading, or whose norm is more than 10 % or dip more than 10° from the medians of all the
    /// others, weigh 0, the rest 1; (w cos δ, w sin δ) is low-passed forward and then backward
    /// (first order, `timeConstant` s, both directions from 0) and the turn is by the angle of
    /// the result (none where every weight is 0).
    static func zeroPhaseHeading<C: RandomAccessCollection>(_ samples: C, offsets: (Int) -> SIMD3<Double>, attitude: (Int) -> Quaternion<Double>,
                                                            timeConstant: Double, period: Double,
                                                            storage: any SmootherStorage = InMemorySmootherStorage()) -> StoredValues<Quaternion<Double>>
        where C.Element == MotionSample, C.Index == Int {
        let n = samples.count
        let first = samples.startIndex
        // The field in ENU per sample (non-finite: no reading).
        let fields = StoredValues<SIMD3<Double>>(storage, count: n)
        // Each sample's field norm and dip (NaN: no reading), for their medians.
        let normsAndDips = StoredValues<SIMD2<Double>>(storage, count: n)
        for i in 0..<n {
            fields[i] = SIMD3(repeating: .nan)
            normsAndDips[i] = SIMD2(repeating: .nan)
            guard let m = samples[first + i].magneticField else { continue }
            let e = attitude(i).act(m - offsets(i))
            let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
            guard e.isFinite, horizontal > 0 else { continue }
            fields[i] = e
            normsAndDips[i] = SIMD2((e * e).sum().squareRoot(), Double.atan2(y: e.z, x: horizontal))
        }
        let identity = Quaternion<Double>(w: 1, x: 0, y: 0, z: 0)
        let turns = StoredValues<Quaternion<Double>>(storage, count: n)
        guard let medianNorm = ExactMedian.of(count: n, { normsAndDips[$0].x }),
              let medianDip = ExactMedian.of(count: n, { normsAndDips[$0].y }) else {
            for i in 0..<n { turns[i] = identity }
            return turns
        }
        let maximumDip = 10 * Double.pi / 180
        let sums = StoredValues<SIMD2<Double>>(storage, count: n)
        for i in 0..<n {
            let e = fields[i]
            guard e.isFinite else { continue }
            let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
            let norm = (e * e).sum().squareRoot()
            guard (norm / medianNorm - 1).magnitude <= 0.1, (Double.atan2(y: e.z, x: horizontal) - medianDip).magnitude <= maximumDip else { continue }
            sums[i] = SIMD2(e.y, e.x) / horizontal
        }
        let a = 1 - Double.exp(-(period.isFinite && period > 0 ? period : 0.01) / timeConstant)
        var state = SIMD2<Double>.zero
        for i in 0..<n {
            state += a * (sums[i] - state)
            sums[i] = state
        }
        state = .zero
        for i in stride(from: n - 1, through: 0, by: -1) {
            state += a * (sums[i] - state)
            let norm = (state * state).sum().squareRoot()
            // cos δ̄ and sin δ̄, then the half angle's (δ̄ in (−π, π]).
            turns[i] = identity
            guard norm > 0, norm.isFinite else { continue }
            let c = state.x / norm, s = state.y / norm
            let halfCos = ((1 + c) / 2).squareRoot(), halfSin = ((1 - c) / 2).squareRoot()
            turns[i] = Quaternion(w: halfCos, x: 0, y: 0, z: s < 0 ? -halfSin : halfSin)
        }
        return turns
    }

    /// The minimum-variance combination of two estimates `a` and `b` of a bias with covariances
    /// `pa` and `pb`: a + pa (pa + pb)⁻¹ (b − a); their mean when pa + pb is singular or the
    /// result not finite.
    static func combinedBias(_ a: SIMD3<Double>, _ pa: Matrix3, _ b: SIMD3<Double>, _ pb: Matrix3) -> SIMD3<Double> {
        let sum = Matrix3(pa.r0 + pb.r0, pa.r1 + pb.r1, pa.r2 + pb.r2).inverse
        let c = a + pa * (sum * (b - a))
        return c.isFinite && sum.r0 != .zero ? c : (a + b) * 0.5
    }

    /// The attitude with the inclination of `tilt` (device → ENU) and the heading of `enu`:
    /// `tilt` turned about the vertical by the twist of enu · tilt⁻¹ (`enu` itself when that
    /// twist is undefined).
    static func inclination(of tilt: SIMD4<Double>, heading enu: Quaternion<Double>) -> Quaternion<Double> {
        let t = quaternion(tilt)
        let d = enu * t.conjugate
        let norm = (d.w * d.w + d.z * d.z).squareRoot()
        guard norm > 1e-12, t.w.isFinite else { return enu }
        return Quaternion(w: d.w / norm, x: 0, y: 0, z: d.z / norm) * t
    }

    /// A pass's ages after a sample: the time since its last sample without a magnetic
    /// disturbance and since its last sample at rest, s (|Δt| of the pass's steps; 0 on such a
    /// sample); adds the step's |Δt| to `runTime` (the time the pass has run, s).
    static func ages(_ ages: SIMD2<Double>, flags: DeviceMotion.Flags, time: Double, lastTime: inout Double?,
                     runTime: inout Double) -> SIMD2<Double> {
        defer { if time.isFinite { lastTime = time } }
        var step = 0.0
        if let last = lastTime, time.isFinite { step = (time - last).magnitude }
        runTime += step
        return SIMD2(flags.contains(.magneticDisturbance) ? ages.x + step : 0, flags.contains(.atRest) ? 0 : ages.y + step)
    }

    /// A pass's weight for its ages: the product of 1 / (1 + age / time) over the ages whose
    /// time is positive.
    static func weight(_ ages: SIMD2<Double>, _ times: SIMD2<Double>) -> Double {
        var w = 1.0
        if times.x > 0 { w /= 1 + ages.x / times.x }
        if times.y > 0 { w /= 1 + ages.y / times.y }
        return w
    }

    static func quaternion(_ v: SIMD4<Double>) -> Quaternion<Double> { Quaternion(w: v.x, x: v.y, y: v.z, z: v.w) }

    /// A rotation by `angle` rad about +z (counter-clockwise seen from above).
    static func aboutVertical(_ angle: Double) -> Quaternion<Double> {
        Quaternion(w: Double.cos(angle / 2), x: 0, y: 0, z: Double.sin(angle / 2))
    }

    /// The rotation about +z of a device → ENU attitude: 2·atan2(z, w) of its twist, rad.
    static func yaw(_ q: Quaternion<Double>) -> Double { 2 * Double.atan2(y: q.z, x: q.w) }

    /// Up in device coordinates: the third row of the device → ENU matrix (unit length).
    static func up(_ q: Quaternion<Double>) -> SIMD3<Double> {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        return SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }
}

extension DeviceMotionEstimator {
    /// Starts this estimator (fresh, same configuration) from `other`'s final state, taken at
    /// the same instant with time running the other way, as `options` say: the bias negated with
    /// its covariance, the attitude (ENU, as the gyroscope attitude; with `carryHeading`, or when
    /// `other` ended in motion, no initial heading snap), the
    /// magnetic reference field and disturbance state.
    mutating func carry(from other: DeviceMotionEstimator, _ options: DeviceMotionSmoother.Options) {
        if options.carryBias {
            state.bias = -other.state.bias
            state.biasP = other.state.biasP
        }
        if options.carryAttitude {
            state.gyroscopeAttitude = other.attitudeEastNorthUp
            if coefficients.usesMagnetometer && (options.carryHeading || !other.state.restDetected) { state.magneticInitialGain = 0 }
        }
        if options.carryMagneticReference && coefficients.usesMagnetometer {
            state.magneticReferenceNorm = other.state.magneticReferenceNorm
            state.magneticReferenceDip = other.state.magneticReferenceDip
            state.magneticDisturbanceDetected = other.state.magneticDisturbanceDetected
            state.magneticUndisturbedTime = other.state.magneticUndisturbedTime
        }
    }
}

/// Samples with a per-sample gyroscope bias subtracted from the rotation rate (rad/s, device
/// frame; `bias` indexed from 0 at `base.startIndex`).
struct BiasCorrectedSamples<Base: RandomAccessCollection>: RandomAccessCollection
    where Base.Element == MotionSample, Base.Index == Int {
    let base: Base
    let bias: StoredValues<SIMD3<Double>>
    var startIndex: Int { base.startIndex }
    var endIndex: Int { base.endIndex }
    subscript(i: Int) -> MotionSample {
        var s = base[i]
        s.rotationRate -= bias[i - base.startIndex]
        return s
    }
}
