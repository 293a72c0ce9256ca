import ArgumentParser
import PoiseRun

/// `--max-gap SECONDS` and `--keep-gaps`, for the commands that run a clock over a recording
/// (replay, tilt --frame-rate). A gap is an interval between samples longer than the limit
/// (default `GapPolicy.defaultLimit`: the longer of 1 s and 100 sample periods). Gaps are
/// reported; by default a real-time replay does not wait them out and no frames are emitted in
/// them.
struct GapOptions: ParsableArguments {
    @Option(name: .customLong("max-gap"),
            help: ArgumentHelp("Intervals between samples longer than this are gaps: reported and skipped (a replay does not wait them out; frame clocks emit no frames in them). Default: the longer of 1 s and 100 sample periods.",
                               valueName: "seconds"))
    var maximumGap: Double?

    @Flag(name: .customLong("keep-gaps"), help: "Replay gaps in full: wait them out and emit frames through them.")
    var keepGaps = false

    func validate() throws {
        if let maximumGap, !(maximumGap > 0 && maximumGap.isFinite) {
            throw ValidationError("--max-gap must be a positive number of seconds, not \(maximumGap)")
        }
        if keepGaps && maximumGap != nil { throw ValidationError("choose one of --max-gap and --keep-gaps") }
    }

    /// The gap limit in seconds for a recording at `rate` Hz; `.infinity` with `--keep-gaps`.
    func limit(rate: Double) -> Double {
        keepGaps ? .infinity : maximumGap ?? GapPolicy.defaultLimit(rate: rate)
    }

    /// The limit for `ReplayRequest.gapLimit` (nil: the replay's default for its delivery rate).
    var requestLimit: Double? { keepGaps ? .infinity : maximumGap }
}
