/// A pipeline stage that applies an axis alignment (`AxisAlignment`, proper or a reflection) to
/// every vector of the record: `acceleration`, `rotationRate`, `magneticField`, `gravity`,
/// `userAcceleration` as `apply(v)`. A reflection gives a left-handed frame, which no attitude can
/// describe, so the record's `attitude` is cleared. The raw `input` is left as delivered.
///
/// For a proper alignment `RemapStage` (`remap:+Y-X+Z`) does the same and carries the attitude;
/// this stage is for `remap --axes … --allow-reflection` of a recording's vectors.
public struct AxisAlignmentStage: PipelineStage {
    /// The alignment applied.
    public let alignment: AxisAlignment

    /// Makes the stage.
    public init(alignment: AxisAlignment) { self.alignment = alignment }

    public var description: String { "axes:\(alignment)" }
    public var outputs: StageOutputs { [.acceleration, .rotation] }
    public var measuredSignal: StageSignal? { nil }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        sample.mapVectors({ alignment.apply($0) }, attitude: { _ in nil })
    }

    public mutating func reset() {}
}
