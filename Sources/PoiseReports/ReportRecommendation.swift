import Poise
import PoiseSpectral
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

    /// Settings checked at once per kind (in one pass over the recording).
    static let batch = 4

    /// - Parameters:
    ///   - sweep: the sweep of the recording.
    ///   - meter: measures the high-frequency share of a filter output; `nil`: no check.
    ///   - maximumShare: largest share of the noise band a recommended setting may keep.
    ///   - checksPerKind: most settings checked per kind, best-ranked first.
    ///   - spectra: the Welch PSDs (three axes) of each setting's output on the recording, `nil`
    ///     for a setting whose output has none; called with the next few settings of each kind
    ///     still undecided (one pass over the recording per call), in ranking order.
    init(sweep: SweepComparison, meter: HighFrequencyMeter?, maximumShare: Double, checksPerKind: Int = 12,
         spectra: ([SweepSetting]) throws -> [[PowerSpectrum]?]) rethrows {
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
        let ranked = sweep.entries.map { Array($0.result.points.filter(meets).sorted(by: ranks).prefix(checksPerKind)) }
        var choices = sweep.entries.map { Choice(kind: $0.kind, point: nil, shares: nil, passedOver: []) }
        if meter == nil {
            for k in choices.indices { choices[k].point = ranked[k].first }
        } else if let meter {
            var cursor = ranked.map { _ in 0 }
            var open = Set(choices.indices.filter { !ranked[$0].isEmpty })
            while !open.isEmpty {
                let round = open.sorted().map { k in (k, Array(ranked[k][cursor[k]..<min(ranked[k].count, cursor[k] + Self.batch)])) }
                let measured = try spectra(round.flatMap { $0.1.map(\.setting) })
                var next = 0
                for (k, points) in round {
                    for point in points {
                        let result = measured[next]; next += 1
                        guard open.contains(k) else { continue }
                        cursor[k] += 1
                        // A setting without a spectrum (or a raw signal without power in a
                        // band) is taken unchecked.
                        guard let result, let shares = meter.shares(result) else {
                            choices[k].point = point; open.remove(k); continue
                        }
                        if shares.aboveTwoHertz < 1 && shares.noiseBand < maximumShare {
                            choices[k].point = point; choices[k].shares = shares; open.remove(k)
                        } else {
                            choices[k].passedOver.append((point, shares))
                        }
                    }
                    if cursor[k] >= ranked[k].count { open.remove(k) }
                }
            }
        }
        self.choices = choices
        let candidates = choices.indices.filter { choices[$0].point != nil }
        overall = candidates.min { a, b in ranks(choices[a].point!, before: choices[b].point!) }
    }
}
