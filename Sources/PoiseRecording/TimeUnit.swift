/// The unit of a recording's time column. `ReadOptions.timeUnit` (the CLI's `--time-unit`)
/// overrides the unit the header names, for files whose `t_s` column holds milliseconds or epoch
/// nanoseconds.
public enum TimeUnit: String, Sendable, CaseIterable, Codable {
    case seconds = "s"
    case milliseconds = "ms"
    case microseconds = "us"
    case nanoseconds = "ns"

    /// Seconds in one unit (1, 1e-3, 1e-6, 1e-9).
    public var secondsPerUnit: Double {
        switch self {
        case .seconds: 1
        case .milliseconds: 1e-3
        case .microseconds: 1e-6
        case .nanoseconds: 1e-9
        }
    }

    /// The unit as `poise info` shows it (`s`, `ms`, `µs`, `ns`).
    public var label: String { self == .microseconds ? "µs" : rawValue }

    /// The accepted spellings, for messages: `s, ms, us, ns`.
    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
