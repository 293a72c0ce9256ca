import Poise

/// Filtering metrics of a pipeline on a recording, per filtering stage (conventions.md):
/// latency to 90 % of the tilt and shake steps at the replay rate (without noise, and with noise
/// from the recording's longest still segment), jitter on the still segments with attenuation,
/// and lag on the moving segments.
///
/// The figures are those of ``StageMetricsAccumulator`` run over the samples; this type adds the
/// list of still segments (from the same detector) for reports that mark them.
///
/// Stage k is measured at its output *in the chain*: the pipeline's stages 1…k run together, so
/// a later stage's figures include what earlier stages add. The "whole pipeline" figures are those
/// of the last filtering stage, or of the raw acceleration when there is none (latency 1 sample,
/// attenuation 1).
public struct StageMetrics: Sendable {
    /// The still segments found (index ranges into the measured samples).
    public var stillSegments: [Range<Int>]
    /// The still segment whose noise was added to the steps, as (first, last) times in seconds;
    /// `nil` without a still segment.
    public var noiseSegment: ClosedRange<Double>?
    /// Per filtering stage, in pipeline order.
    public var stages: [StageReport]
    /// The whole pipeline.
    public var whole: StageReport

    /// Measures `pipeline` (as built, from its initial state) on `samples` delivered at
    /// `sampleRate` Hz.
    ///
    /// - Parameters:
    ///   - detector: finds still segments (the gyroscope test is switched off when `hasGyroscope`
    ///     is false).
    /// - Complexity: O(n × stages × (stages + lag samples)); memory of the accumulator plus the
    ///   segment list.
    public init(pipeline: Pipeline, samples: [MotionSample], sampleRate: Double,
                hasGyroscope: Bool = true, detector: RestDetector = RestDetector()) {
        var accumulator = StageMetricsAccumulator(pipeline: pipeline, sampleRate: sampleRate,
                                                  hasGyroscope: hasGyroscope, detector: detector)
        var running = pipeline
        for sample in samples { accumulator.add(sample, through: &running) }
        let summary = accumulator.finish()
        stillSegments = accumulator.detector.stillSegments(in: samples)
        noiseSegment = summary.noiseSegment
        stages = summary.stages
        whole = summary.whole
    }

    /// The same figures without the segment list.
    public var summary: StageMetricsSummary {
        StageMetricsSummary(stillSegmentCount: stillSegments.count, noiseSegment: noiseSegment, stages: stages, whole: whole)
    }
}
