/// The issues found while reading one recording, and the policy for them: in strict mode an
/// error stops the read (thrown as `RecordingError`); in lenient mode the row is dropped. Warnings
/// keep the row in both modes. Every issue is counted in `summary`; the first
/// `ReadOptions.maximumStoredIssues` are stored in `issues`; all are passed to `onIssue`.
final class ReadIssueLog {
    /// The name used in every message.
    let path: String
    let strict: Bool
    let maximumStoredIssues: Int
    /// The first `maximumStoredIssues` issues, in file order.
    private(set) var issues: [RecordingIssue] = []
    /// Counts of dropped and repaired rows and of issues by kind (`rowsDelivered` is the reader's).
    var summary = ReadSummary()
    /// Called for every issue as it is found (also beyond the stored ones).
    var onIssue: ((RecordingIssue) -> Void)?

    init(path: String, options: ReadOptions) {
        self.path = path
        strict = options.strict
        maximumStoredIssues = options.maximumStoredIssues
    }

    /// Whether another issue would be neither stored nor seen by `onIssue` (so a long run of
    /// them can be counted in one step).
    var onlyCounts: Bool { onIssue == nil && issues.count >= maximumStoredIssues }

    /// Records a problem at `line`, `column` (1-based; 0 when not known). Errors throw in strict
    /// mode and drop the row in lenient mode; warnings keep it.
    func problem(_ kind: RecordingIssue.Kind, line: Int, column: Int, message: String, isError: Bool) throws {
        let location = RecordingError(file: path, line: line, column: column, message: message)
        if isError {
            if strict {
                record(RecordingIssue(kind: kind, action: .stopped, location: location))
                throw location
            }
            summary.rowsDropped += 1
            record(RecordingIssue(kind: kind, action: .dropped, location: location))
        } else {
            record(RecordingIssue(kind: kind, action: .kept, location: location))
        }
    }

    func record(_ issue: RecordingIssue) {
        summary.issueCounts[issue.kind, default: 0] += 1
        if issues.count < maximumStoredIssues { issues.append(issue) }
        onIssue?(issue)
    }
}
