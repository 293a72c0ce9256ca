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
    @usableFromInline var filter: ConcreteFilter
    @usableFromInline var previousTime: Double?

    /// The filter held by its concrete type. Calling a generic filter through an existential
    /// (`AnyFilter`) runs its unspecialised generic code: measured at about 1.1 µs per sample for
    /// `lowpass:cutoff=5` against tens of nanoseconds through this switch (docs/replay.md).
    @usableFromInline
    enum ConcreteFilter: Sendable {
        case lowPass(OnePoleLowPass<SIMD3<Double>>)
        case highPass(OnePoleHighPass<SIMD3<Double>>)
        case butterworth(ButterworthFilter<SIMD3<Double>>)
        case accelerometerGraph(AccelerometerGraphFilter<SIMD3<Double>>)
        case oneEuro(OneEuroFilter<SIMD3<Double>>)
        case adaptive(AdaptiveFilter<SIMD3<Double>>)
        case other(AnyFilter<SIMD3<Double>>)
        /// Held only while a payload is being mutated, so the payload is uniquely referenced
        /// (a Butterworth filter's state arrays are then updated in place, without a copy).
        case empty

        init(_ filter: AnyFilter<SIMD3<Double>>) {
            switch filter.base {
            case let f as OnePoleLowPass<SIMD3<Double>>: self = .lowPass(f)
            case let f as OnePoleHighPass<SIMD3<Double>>: self = .highPass(f)
            case let f as ButterworthFilter<SIMD3<Double>>: self = .butterworth(f)
            case let f as AccelerometerGraphFilter<SIMD3<Double>>: self = .accelerometerGraph(f)
            case let f as OneEuroFilter<SIMD3<Double>>: self = .oneEuro(f)
            case let f as AdaptiveFilter<SIMD3<Double>>: self = .adaptive(f)
            default: self = .other(filter)
            }
        }

        @inlinable
        mutating func process(_ x: SIMD3<Double>, dt: Double?) -> SIMD3<Double> {
            func run<F: Filter>(_ f: inout F) -> SIMD3<Double> where F.Value == SIMD3<Double> {
                if let dt { return f.process(x, dt: dt) } else { return f.process(x) }
            }
            switch self {
            case .lowPass(var f): self = .empty; let y = run(&f); self = .lowPass(f); return y
            case .highPass(var f): self = .empty; let y = run(&f); self = .highPass(f); return y
            case .butterworth(var f): self = .empty; let y = run(&f); self = .butterworth(f); return y
            case .accelerometerGraph(var f): self = .empty; let y = run(&f); self = .accelerometerGraph(f); return y
            case .oneEuro(var f): self = .empty; let y = run(&f); self = .oneEuro(f); return y
            case .adaptive(var f): self = .empty; let y = run(&f); self = .adaptive(f); return y
            case .other(var f): self = .empty; let y = run(&f); self = .other(f); return y
            case .empty: return x
            }
        }

        mutating func reset() {
            switch self {
            case .lowPass(var f): self = .empty; f.reset(); self = .lowPass(f)
            case .highPass(var f): self = .empty; f.reset(); self = .highPass(f)
            case .butterworth(var f): self = .empty; f.reset(); self = .butterworth(f)
            case .accelerometerGraph(var f): self = .empty; f.reset(); self = .accelerometerGraph(f)
            case .oneEuro(var f): self = .empty; f.reset(); self = .oneEuro(f)
            case .adaptive(var f): self = .empty; f.reset(); self = .adaptive(f)
            case .other(var f): self = .empty; f.reset(); self = .other(f)
            case .empty: break
            }
        }
    }

    /// Makes the stage for `sampleRate` Hz.
    ///
    /// - Throws: `FilterSpecError` when the spec does not suit the rate.
    public init(spec: FilterSpec, sampleRate: Double) throws(FilterSpecError) {
        self.spec = spec
        self.sampleRate = sampleRate
        filter = ConcreteFilter(try spec.makeFilter(SIMD3<Double>.self, sampleRate: sampleRate))
    }

    public var description: String { spec.description }
    public var outputs: StageOutputs { .acceleration }
    public var measuredSignal: StageSignal? { .acceleration }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        let time = sample.input.time
        sample.acceleration = filter.process(sample.acceleration, dt: previousTime.map { time - $0 })
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
            ("factor", "factor:k=K", "fixed-factor low-pass y ← k·x + (1−k)·y"),
            ("butter", "butter:lowpass,order=N,cutoff=HZ", "Butterworth low/high/band-pass"),
            ("accelgraph", "accelgraph:cutoff=HZ[,adaptive]", "Apple AccelerometerGraph filter"),
            ("oneeuro", "oneeuro:mincutoff=HZ,beta=B", "One Euro filter"),
            ("adaptive", "adaptive[:cutoff=HZ,threshold=G]", "Poise adaptive low-pass"),
        ]
        return FilterSpec.names.map { name in
            let usage = usages.first { $0.0 == name } ?? (name, name, "filter")
            return Entry(name: name, usage: usage.1, summary: usage.2) { stage, context in
                do {
                    return try FilterStage(spec: FilterSpec(parsing: stage.text), sampleRate: context.sampleRate)
                } catch let error as FilterSpecError {
                    let column = error.column > 0 ? stage.column + error.column - 1 : stage.column
                    let token = error.token.isEmpty ? "" : "'\(error.token)': "
                    throw PipelineError(pipeline: stage.pipeline, stage: stage.position, column: column,
                                        message: token + error.message)
                }
            }
        }
    }
}
