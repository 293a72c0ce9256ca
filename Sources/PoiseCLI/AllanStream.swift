import Poise
import PoiseRecording
import PoiseRun

/// The one streaming pass of `poise allan`: the overlapping Allan deviation of the gyroscope
/// (rad/s) and accelerometer (g) axes the recording has, and what tells whether the recording
/// suits it (still, not saturated, finite, evenly timed). Keeps no samples beyond the first
/// `rateSamples` (for the sample rate) and the accumulator's bounded history, so memory does not
/// grow with the recording; reads standard input (`-`) like a file. The samples come from one
/// `Run` over the file, which stops at the first sample after `end` (`EndTimeSource`).
struct AllanStream {
    /// The axes analysed, in accumulator channel order.
    enum Axis: String, CaseIterable {
        case gyr_x, gyr_y, gyr_z, acc_x, acc_y, acc_z
        var isGyroscope: Bool { rawValue.hasPrefix("gyr") }
        func value(_ s: MotionSample) -> Double {
            switch self {
            case .gyr_x: s.rotationRate.x
            case .gyr_y: s.rotationRate.y
            case .gyr_z: s.rotationRate.z
            case .acc_x: s.acceleration.x
            case .acc_y: s.acceleration.y
            case .acc_z: s.acceleration.z
            }
        }
    }

    /// What the pass found.
    struct Result {
        var axes: [Axis]
        var adev: AllanDeviation
        var sampleRate: Double
        var rateFromTimestamps: Bool
        var firstTime: Double
        var lastTime: Double
        /// Samples outside still segments (rest detector), and the detector's description.
        var movingSamples: Int
        /// Intervals longer than 1.5 × the median, and the longest, s.
        var gaps: Int
        var longestGap: Double
        /// Per axis: the extreme value and how many samples sat on it.
        var extremes: [(value: Double, count: Int)]
        var firstNonFinite: (axis: Axis, index: Int, time: Double)?
    }

    /// Samples whose intervals give the sample rate (their median) before the accumulator starts.
    static let rateSamples = 2048

    let path: String
    let options: ReadOptions
    let start: Double?
    let end: Double?
    let rate: Double?
    let sizes: AllanClusterSizes
    /// Largest cluster time, s (nil: `defaultMaximumClusterSize` samples).
    let maximumClusterTime: Double?

    /// Largest cluster size by default: 2¹⁹ samples (1311 s at 400 Hz, 5243 s at 100 Hz), about
    /// 51 MB for six axes.
    static let defaultMaximumClusterSize = 1 << 19

    func run() throws -> Result {
        // With an end time, nothing after the first later sample is read.
        let opened = try RecordingSources.open(path: path, options: options)
        let reader: any SampleSource = end.map { EndTimeSource(opened, end: $0) } ?? opened
        let schema = reader.schema
        guard schema.hasGyroscope || schema.hasAccelerometer else {
            try schema.require([.gyroscope], file: path, for: "the Allan deviation")
            throw CommandError("\(path): no gyroscope or accelerometer columns")
        }
        let axes = Axis.allCases.filter { $0.isGyroscope ? schema.hasGyroscope : schema.hasAccelerometer }
        let detector = try RestDetector.forRecording(schema, file: path, purpose: "the still check of the Allan deviation")
        // One run over the file (no pipeline stages) into the pass, which selects the time range.
        var pass = Pass(stream: self, schema: schema, axes: axes, tracker: StillSegmentTracker(detector: detector))
        var run = Run(source: reader, pipeline: Pipeline(), clock: AsFastAsPossible())
        _ = try run.run(into: &pass)
        return try pass.result()
    }

    /// The pass's state: a sink, so that the per-sample work runs on its own stored properties
    /// (no captured variables, no dynamic exclusivity checks per sample).
    private struct Pass: Sink {
        let stream: AllanStream
        let schema: RecordingSchema
        let axes: [Axis]
        var tracker: StillSegmentTracker
        var still = 0
        var pending: [MotionSample] = []
        var accumulator: AllanDeviationAccumulator?
        var interval: Double?
        var previousTime: Double?
        var firstTime = 0.0, lastTime = 0.0, count = 0
        var gaps = 0, longestGap = 0.0, missing = 0
        var extremes: [(value: Double, count: Int)]
        var nonFinite: (axis: Axis, index: Int, time: Double)?
        /// Values not yet handed to the accumulator, channel after channel (`blockLength` slots
        /// each): they go in blocks (`add(channels:)`, the same sums as sample by sample, to the
        /// bit), not one call per sample.
        var block: [Double]
        var blockCount = 0
        static let blockLength = 1024
        let low: Double, high: Double

        init(stream: AllanStream, schema: RecordingSchema, axes: [Axis], tracker: StillSegmentTracker) {
            self.stream = stream; self.schema = schema; self.axes = axes; self.tracker = tracker
            interval = stream.rate.map { 1 / $0 }
            extremes = Array(repeating: (0, 0), count: axes.count)
            block = Array(repeating: 0, count: axes.count * Self.blockLength)
            low = stream.start ?? -.infinity; high = stream.end ?? .infinity
        }

        mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) throws {
            let sample = record.input
            // `EndTimeSource` ends the run at the first sample after `end`.
            guard sample.time >= low, sample.time <= high else { return }
            if accumulator == nil {
                pending.append(sample)
                if pending.count >= AllanStream.rateSamples { try begin() }
            } else {
                feed(sample)
            }
        }

        mutating func begin() throws {
            let path = stream.path
            if interval == nil {
                var intervals: [Double] = []
                for (a, b) in zip(pending, pending.dropFirst()) where b.time - a.time > 0 && (b.time - a.time).isFinite {
                    intervals.append(b.time - a.time)
                }
                guard !intervals.isEmpty else {
                    throw CommandError("\(path): timestamps never increase in the first \(pending.count) samples; give the sample rate with --rate")
                }
                interval = intervals.sorted()[intervals.count / 2]
                try SampleRateCheck.check(rate: 1 / interval!, schema: schema, file: path)
            }
            let largest = stream.maximumClusterTime.map { Swift.max(1, Int(($0 / interval!).rounded(.down))) } ?? AllanStream.defaultMaximumClusterSize
            accumulator = AllanDeviationAccumulator(channelCount: axes.count, sizes: stream.sizes, maximumClusterSize: largest)
            let waiting = pending
            pending = []
            for sample in waiting { feed(sample) }
        }

        mutating func feed(_ sample: MotionSample) {
            if let previousTime, let interval {
                let step = sample.time - previousTime
                if step > 1.5 * interval {
                    gaps += 1; longestGap = Swift.max(longestGap, step)
                    missing += Int((step / interval).rounded()) - 1
                }
            }
            previousTime = sample.time
            for (c, axis) in axes.enumerated() {
                let value = axis.value(sample)
                block[c * Self.blockLength + blockCount] = value
                if !value.isFinite {
                    if nonFinite == nil { nonFinite = (axis, count, sample.time) }
                    continue
                }
                let magnitude = abs(value)
                if magnitude > extremes[c].value { extremes[c] = (magnitude, 1) } else if magnitude == extremes[c].value { extremes[c].count += 1 }
            }
            blockCount += 1
            if blockCount == Self.blockLength { addBlock() }
            for segment in tracker.add(sample) { still += segment.indices.count }
            if count == 0 { firstTime = sample.time }
            lastTime = sample.time
            count += 1
        }

        /// Hands the waiting values to the accumulator.
        mutating func addBlock() {
            guard blockCount > 0 else { return }
            let n = blockCount, length = Self.blockLength
            accumulator!.add(channels: axes.indices.map { c in Array(block[c * length..<c * length + n]) })
            blockCount = 0
        }

        mutating func result() throws -> Result {
            if accumulator == nil {
                guard pending.count >= 2 || stream.rate != nil else {
                    throw CommandError("\(stream.path): \(pending.count) sample\(pending.count == 1 ? "" : "s")\(stream.start != nil || stream.end != nil ? " in the selected time range" : ""); the Allan deviation needs at least \(AllanCommand.minimumSamples)")
                }
                try begin()
            }
            addBlock()
            for segment in tracker.finish() { still += segment.indices.count }
            // From the timestamps: the whole span over the sample steps (a missing sample counts as
            // one), more exact than the median of the first intervals.
            if stream.rate == nil, count > AllanStream.rateSamples, lastTime > firstTime { interval = (lastTime - firstTime) / Double(count - 1 + missing) }
            var adev = accumulator!.result(sampleInterval: interval!)
            adev.sampleCount = count
            return Result(axes: axes, adev: adev, sampleRate: 1 / interval!, rateFromTimestamps: stream.rate == nil,
                          firstTime: firstTime, lastTime: lastTime, movingSamples: count - still, gaps: gaps,
                          longestGap: longestGap, extremes: extremes, firstNonFinite: nonFinite)
        }
    }
}
