/// A problem found while reading a recording, with what the reader did about it.
///
/// Errors stop a strict read (they are thrown as `RecordingError`); in lenient mode the reader
/// repairs or drops the row and records an issue. Warnings (gaps, repeated timestamps…) never stop
/// a read: the row is kept and the issue is recorded in both modes.
public struct RecordingIssue: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// A row has more or fewer fields than the header.
        case wrongFieldCount
        /// A field is empty or not a number.
        case notANumber
        /// A sensor or time field is NaN or ±infinity.
        case nonFinite
        /// A sensor's fields are all empty in a row (a slower sensor without a new reading, as in
        /// a multi-rate log): the previous row's value of that sensor is held.
        case heldSensor
        /// A timestamp is earlier than the previous row's.
        case timeBackwards
        /// A timestamp equals the previous row's.
        case duplicateTime
        /// The interval before this row is more than 1.5× the typical interval.
        case gap
        /// The file ends without a line break and its last line is incomplete.
        case truncatedLastLine
        /// An empty line between rows.
        case blankLine
        /// A header column the reader does not understand (lenient mode ignores it).
        case unknownColumn
        /// The file has a header but no data rows.
        case noData
    }

    /// What the reader did with the row.
    public enum Action: String, Sendable, Codable {
        /// The row was kept unchanged (warnings).
        case kept
        /// The row was kept with the bad values replaced (lenient mode; the message says how).
        case repaired
        /// The row was left out (lenient mode).
        case dropped
        /// The read stopped here (strict mode; the same problem is thrown as `RecordingError`).
        case stopped
    }

    /// The kind of problem.
    public var kind: Kind
    /// What was done.
    public var action: Action
    /// Where and what (file, 1-based line and column, message).
    public var location: RecordingError

    public init(kind: Kind, action: Action, location: RecordingError) {
        self.kind = kind; self.action = action; self.location = location
    }

    /// `file:line:column: message (action)`.
    public var description: String { "\(location) [\(kind.rawValue), \(action.rawValue)]" }
}

/// Counts of what a read did, complete even when the stored issue list is capped.
public struct ReadSummary: Sendable, Equatable {
    /// Data rows delivered as samples.
    public var rowsDelivered = 0
    /// Data rows left out (lenient mode).
    public var rowsDropped = 0
    /// Data rows delivered with repaired values (lenient mode).
    public var rowsRepaired = 0
    /// Data rows whose ground-truth quaternion was missing (NaN) and was delivered as `nil`.
    public var rowsWithoutTruth = 0
    /// Lines between data rows skipped as comments (`ReadOptions.commentPrefixes`).
    public var commentLines = 0
    /// Number of issues of each kind (all of them, not only the stored ones).
    public var issueCounts: [RecordingIssue.Kind: Int] = [:]

    public init() {}

    /// Total number of issues.
    public var issueCount: Int { issueCounts.values.reduce(0, +) }
}
