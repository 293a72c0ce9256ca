/// A `name:key=value` text (a filter spec, a pipeline or a sweep grid) that cannot be parsed or
/// built, located by the offending token and its character column.
///
/// Every reader of the grammar of ``StageSpec`` throws this one type: the tokeniser for syntax
/// errors (an empty stage, argument, key or value), and ``FilterSpec``, the stage factories of
/// ``StageCatalog`` and the sweep grids for what they do not accept.
///
/// ``headline`` is one line (`filter spec 'lowpass:cutof=5', 'cutof=5' at column 9: unknown
/// parameter …`); ``description`` adds the spec again with a caret under the token:
/// ```
/// filter spec 'lowpass:cutof=5', 'cutof=5' at column 9: unknown parameter 'cutof' for lowpass; …
///   lowpass:cutof=5
///           ^~~~~~~
/// ```
public struct SpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of text the spec is; it opens the message.
    public enum Subject: String, Sendable, Equatable {
        /// One filter (``FilterSpec``), also a sweep's base filter.
        case filter = "filter spec"
        /// A pipeline of stages separated by `|` (``StageSpec/parse(_:)``).
        case pipeline
        /// A sweep grid: arguments without a name (``StageSpec/arguments(parsing:subject:)``).
        case grid
        /// A recording's explicit column mapping (`t=time:ns,acc=ax,ay,az:mps2`, the CLI's
        /// `--columns`).
        case columns = "column mapping"
        /// How a sensor is mounted (`x=-y,y=x,z=z`, `-Y+X+Z` or `roll,pitch,yaw`, the CLI's
        /// `--mount`).
        case mount
    }

    /// What kind of text `spec` is.
    public var subject: Subject
    /// The whole text as given.
    public var spec: String
    /// 1-based position of the stage in a pipeline; `nil` for other subjects.
    public var stage: Int?
    /// The offending token as written (for example `order=9`); empty for an empty token or the
    /// spec as a whole.
    public var token: String
    /// 1-based character column of the token in `spec`; 0 when the error is about the whole spec.
    public var column: Int
    /// What is wrong.
    public var message: String
    /// Whether the spec is well formed but asks for a sensor the recording lacks (`fusion` on a
    /// file without a gyroscope): a mismatch of spec and data, which the CLI reports as a data
    /// error (exit 1), not a usage error.
    public var missingSensor = false

    /// An error about `token` at `column` of `spec` (no token and column 0: the spec as a whole).
    public init(_ subject: Subject, spec: String, stage: Int? = nil, token: String = "", column: Int = 0, message: String) {
        self.subject = subject; self.spec = spec; self.stage = stage
        self.token = token; self.column = column; self.message = message
    }

    /// One line: subject, spec, stage, token and column, message
    /// (`pipeline 'a | b:x', stage 2, 'x' at column 7: …`).
    public var headline: String {
        var place = "\(subject.rawValue) '\(spec)'"
        if let stage { place += ", stage \(stage)" }
        if column > 0 { place += token.isEmpty ? ", at column \(column)" : ", '\(token)' at column \(column)" }
        return place + ": " + message
    }

    /// The spec indented by two spaces and, under it, a caret at ``column`` followed by a tilde
    /// under every further character of the token; `nil` when the error has no column or the spec
    /// spans lines.
    public var pointer: String? {
        guard column > 0, !spec.contains(where: \.isNewline) else { return nil }
        let indent = "  " + String(repeating: " ", count: column - 1)
        return "  " + spec + "\n" + indent + "^" + String(repeating: "~", count: max(0, token.count - 1))
    }

    /// ``headline`` and, on the next lines, ``pointer``.
    public var description: String {
        pointer.map { headline + "\n" + $0 } ?? headline
    }
}
