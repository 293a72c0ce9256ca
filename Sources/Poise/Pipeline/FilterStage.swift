/// A pipeline stage that runs a filter from the filter core (`FilterSpec`) on the acceleration
/// signal, three axes at once, with the real time between samples.
///
/// Reads and writes `ProcessedSample.acceleration` (g); its measured signal is the acceleration.
/// The time step passed to the filter is the difference of consecutive timestamps (the first
/// sample counts as one nominal period), so time-aware filters follow irregular recordings;
/// fixed-rate designs (Butterworth, `factor`) ignore it, as `Filter` documents.
public struct FilterStage: PipelineStage {
    /// The filter's spec (canonical form).
    public let spec: FilterSpec
    /// The nominal sample rate the filter was designed for, Hz.
    public let sampleRate: Double
    /// The filter; `AnyFilter` dispatches to code specialised for the wrapped filter type.
    @usableFromInline var filter: AnyFilter<SIMD3<Double>>
    @usableFromInline var previousTime: Double?

    /// Makes the stage for `sampleRate` Hz.
    ///
    /// - Throws: ``SpecError`` at the parameter of the canonical spec that does not suit the rate.
    public init(spec: FilterSpec, sampleRate: Double) throws(SpecError) {
        try self.init(spec: spec, sampleRate: sampleRate, stage: nil)
    }

    /// Makes the stage; a parameter that does not suit the rate is an error at its argument in
    /// `stage` (by default in the canonical spec).
    init(spec: FilterSpec, sampleRate: Double, stage: StageSpec?) throws(SpecError) {
        self.spec = spec
        self.sampleRate = sampleRate
        do {
            filter = try spec.build(sampleRate: sampleRate)
        } catch {
            throw spec.specError(error, sampleRate: sampleRate, in: stage)
        }
    }

    public var description: String { spec.description }
    public var outputs: StageOutputs { .acceleration }
    public var measuredSignal: StageSignal? { .acceleration }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        let time = sample.input.time
        if let previousTime {
            sample.acceleration = filter.process(sample.acceleration, dt: time - previousTime)
        } else {
            sample.acceleration = filter.process(sample.acceleration)
        }
        previousTime = time
    }

    public mutating func reset() {
        filter.reset()
        previousTime = nil
    }
}

extension StageCatalog {
    /// Catalog entries for every filter of `FilterSpec` (`lowpass`, `butter`, `oneeuro`…), each
    /// a `FilterStage` on the acceleration.
    public static var filterEntries: [Entry] {
        let usages: [(String, String, String)] = [
            ("lowpass", "lowpass:cutoff=HZ", "one-pole low-pass"),
            ("highpass", "highpass:cutoff=HZ", "one-pole high-pass"),
            ("factor", "factor:k=K[,highpass]", "fixed-factor low-pass y ← k·x + (1−k)·y"),
            ("butter", "butter:lowpass|highpass,order=N,cutoff=HZ or butter:bandpass,order=N,low=HZ,high=HZ", "Butterworth low/high/band-pass"),
            ("accelgraph", "accelgraph:cutoff=HZ[,adaptive][,highpass]", "Apple AccelerometerGraph filter"),
            ("oneeuro", "oneeuro:mincutoff=HZ,beta=B[,dcutoff=HZ]", "One Euro filter"),
            ("adaptive", "adaptive[:cutoff=HZ,threshold=G]", "Poise adaptive low-pass"),
        ]
        return FilterSpec.names.map { name in
            let usage = usages.first { $0.0 == name } ?? (name, name, "filter")
            return Entry(name: name, usage: usage.1, summary: usage.2) { stage, context in
                try FilterStage(spec: FilterSpec(stage), sampleRate: context.sampleRate, stage: stage)
            }
        }
    }
}
