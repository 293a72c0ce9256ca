/// A pause in a live stream while it happens, for the status line and standard error.
public struct LiveWait: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No sample has arrived for `seconds` so far.
        case waiting
        /// A sample arrived after a pause of `seconds` that was reported as waiting.
        case resumed
    }

    public var kind: Kind
    /// Seconds without a sample (wall time, from the previous sample's arrival, or from the start
    /// of the run before the first sample).
    public var seconds: Double
    /// True for the events worth a line of their own: the pause passing the silence limit, every
    /// `SilenceWatch.repeatInterval` after that while it lasts, and the resumption. The others
    /// (every `SilenceWatch.tick` while waiting) only update a status line.
    public var announce: Bool

    public init(kind: Kind, seconds: Double, announce: Bool) {
        self.kind = kind; self.seconds = seconds; self.announce = announce
    }
}
