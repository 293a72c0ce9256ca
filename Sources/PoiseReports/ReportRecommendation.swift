import Poise
import PoiseRun

/// The report's filter recommendation: per swept kind, the setting that meets the target best
/// (lowest jitter within the latency target, or lowest latency within the jitter target, as the
/// sweep ranks them) among those that add no power above 2 Hz and keep less than `maximumShare`
/// of the raw power in the noise band (``HighFrequencyMeter``); overall, the best of those
/// per-kind choices.
///
/// The sweep measures jitter on still segments only, so a filter that is calm at rest but passes
/// or adds noise while the device moves ranks first there; this check keeps such a setting from
/// being recommended, and the page names it.
struct ReportRecommendation {
    /// One kind's choice.
    struct Choice {
        var kind: SweepKind
        /// The chosen setting; `nil` when no setting of the kind meets the target while filtering
        /// the noise band (within the settings checked).
        var point: SweepPoint?
        /// Shares of the raw power that `point` keeps.
        var shares: HighFrequencyMeter.Shares?
        /// Settings ranked better by the sweep but passed over, with the shares each keeps.
        var passedOver: [(point: SweepPoint, shares: HighFrequencyMeter.Shares)]
    }

    var choices: [Choice]
    /// Index into `choices` of the overall recommendation.
    var overall: Int?
    /// The largest share a recommended setting may keep.
    var maximumShare: Double

    /// The overall recommendation's point.
    var point: SweepPoint? { overall.flatMap { choices[$0].point } }

    /// - Parameters:
    ///   - sweep: the sweep of the recording.
    ///   - samples: the recording.
    ///   - meter: measures the high-frequency share of a filter output.
    ///   - maximumShare: largest share of the noise band a recommended setting may keep.
    ///   - checksPerKind: most settings checked per kind, best-ranked first.
    init(sweep: SweepComparison, samples: [MotionSample], rate: Double, meter: HighFrequencyMeter?,
         maximumShare: Double, checksPerKind: Int = 12) {
        self.maximumShare = maximumShare
        let target = sweep.target
        func meets(_ p: SweepPoint) -> Bool {
            guard p.jitter.isFinite, let ms = p.latency.milliseconds, let n = p.latency.samples else { return false }
            switch target {
            case .latencySamples(let limit): return n <= limit
            case .latencyMilliseconds(let limit): return ms <= limit
            case .jitter(let limit): return p.jitter <= limit
            }
        }
        func ranks(_ a: SweepPoint, before b: SweepPoint) -> Bool {
            let la = a.latency.milliseconds ?? .infinity, lb = b.latency.milliseconds ?? .infinity
            switch target {
            case .jitter: return la != lb ? la < lb : a.jitter < b.jitter
            default: return a.jitter != b.jitter ? a.jitter < b.jitter : la < lb
            }
        }
        choices = sweep.entries.map { entry in
            let ranked = entry.result.points.filter(meets).sorted(by: ranks)
            var choice = Choice(kind: entry.kind, point: nil, shares: nil, passedOver: [])
            guard let meter else {
                choice.point = ranked.first
                return choice
            }
            for point in ranked.prefix(checksPerKind) {
                guard var filter: AnyFilter<SIMD3<Double>> = try? point.setting.spec.makeFilter(sampleRate: rate) else { continue }
                let output = filterAcceleration(&filter, samples: samples)
                guard let shares = try? meter.shares(output) else {
                    choice.point = point
                    break
                }
                if shares.aboveTwoHertz < 1 && shares.noiseBand < maximumShare {
                    choice.point = point; choice.shares = shares
                    break
                }
                choice.passedOver.append((point, shares))
            }
            return choice
        }
        let candidates = choices.indices.filter { choices[$0].point != nil }
        overall = candidates.min { a, b in ranks(choices[a].point!, before: choices[b].point!) }
    }
}
