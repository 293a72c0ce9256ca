/// One `name:key=value,word,…` spec, split into its name and arguments with their positions:
/// the single parser of the grammar that filter specs, pipeline stages and sweep grids share.
///
/// Grammar (a *blank* is a space or a tab; blanks around every token are ignored):
/// ```
/// pipeline  := "none" | "" | stage { "|" stage }
/// stage     := name [ ":" arguments ]
/// arguments := argument { "," argument }
/// argument  := key "=" value | word
/// ```
/// - `name` is the text before the first `:`; it may not be empty.
/// - An argument is the text between two commas (or between `:` and a comma, or a comma and
///   the end). It may not be empty. With an `=`, the text before the first `=` is the `key` and
///   the rest the `value` (which may hold further `=` or `:`); neither may be empty. Without one
///   it is a bare `word`.
/// - Only a pipeline is split at `|`; in a lone stage (``init(parsing:subject:)``, a filter
///   spec) a `|` is an ordinary character. A sweep grid is `arguments` alone
///   (``arguments(parsing:subject:)``), so its values may hold `:`.
/// - Case is kept: readers decide (``FilterSpec`` and ``StageCatalog`` ignore the case of names,
///   keys and words; catalog stages compare keys and words exactly).
/// - Repeated keys are kept in order; readers decide (``FilterSpec`` and grids refuse them,
///   ``value(_:)`` takes the last).
///
/// Examples: `lowpass:cutoff=5`, `butter:lowpass,order=4,cutoff=5`, `fusion:9d`,
/// `lowpass:cutoff=5 | gravity | fusion:9d` (a pipeline), `k=0.02:0.3:0.02,order=2/4` (a grid).
///
/// Every token keeps its 1-based character column in the whole text, so each error
/// (``SpecError``) points at what is wrong. ``description`` is the canonical form
/// `name:argument,…` without blanks; parsing it gives the same name and arguments.
public struct StageSpec: Sendable, Equatable, CustomStringConvertible {
    /// One argument: `key=value` (key non-nil) or a bare word (key nil, the word in `value`).
    public struct Argument: Sendable, Equatable, CustomStringConvertible {
        /// The key of `key=value` (blanks around it removed), or `nil` for a bare word.
        public var key: String?
        /// The value of `key=value`, or the bare word (blanks around it removed).
        public var value: String
        /// The argument as written, blanks around it removed (`cutoff = 5`).
        public var text: String
        /// 1-based character column where ``text`` starts in the whole spec.
        public var column: Int

        /// An argument; `text` defaults to ``description``, `column` to 0 (not from a text).
        public init(key: String?, value: String, text: String? = nil, column: Int = 0) {
            self.key = key; self.value = value
            self.text = text ?? key.map { "\($0)=\(value)" } ?? value
            self.column = column
        }

        /// `key=value` or the word.
        public var description: String { key.map { "\($0)=\(value)" } ?? value }
    }

    /// The stage's text with surrounding blanks removed (`lowpass:cutoff=5`).
    public var text: String
    /// The stage name (before the first `:`, blanks removed).
    public var name: String
    /// The arguments in order.
    public var arguments: [Argument]
    /// 1-based position of the stage in its pipeline (1 for a lone stage).
    public var position: Int
    /// 1-based character column where the stage's text (its name) starts in ``source``.
    public var column: Int
    /// The whole text the stage was read from (the pipeline, or the spec itself), for errors.
    public var source: String
    /// What ``source`` is, for errors.
    public var subject: SpecError.Subject

    /// A stage from its parts, as ``init(parsing:subject:)`` and ``parse(_:)`` make them.
    public init(text: String, name: String, arguments: [Argument], position: Int = 1, column: Int = 1,
                source: String, subject: SpecError.Subject = .filter) {
        self.text = text; self.name = name; self.arguments = arguments
        self.position = position; self.column = column; self.source = source; self.subject = subject
    }

    /// Parses one stage (grammar above) that is the whole of `text`; `|` is not a separator.
    ///
    /// - Throws: ``SpecError`` for an empty spec, an empty name, an empty argument, key or value.
    public init(parsing text: String, subject: SpecError.Subject = .filter) throws(SpecError) {
        try self.init(reading: text[...], column: 1, position: 1, source: text, subject: subject)
    }

    /// Splits a pipeline into stages (grammar above). `""` and `none` (blanks around them
    /// ignored) give no stages.
    ///
    /// - Throws: ``SpecError`` (subject `.pipeline`, with the stage number) for an empty stage
    ///   (`a || b`), an empty name (`:x`), an empty argument, key or value (`a:,b`, `a:=3`, `a:k=`).
    public static func parse(_ pipeline: String) throws(SpecError) -> [StageSpec] {
        let whole = pipeline[...].trimmingBlanks
        if whole.isEmpty || whole == "none" { return [] }
        var stages: [StageSpec] = []
        var column = 1
        for (index, segment) in pipeline.split(separator: "|", omittingEmptySubsequences: false).enumerated() {
            stages.append(try StageSpec(reading: segment, column: column, position: index + 1, source: pipeline, subject: .pipeline))
            column += segment.count + 1
        }
        return stages
    }

    /// Parses `text` as `arguments` alone, with no name (a sweep grid).
    ///
    /// - Throws: ``SpecError`` for an empty argument, key or value; `""` is one empty argument.
    public static func arguments(parsing text: String, subject: SpecError.Subject) throws(SpecError) -> [Argument] {
        try Tokens(source: text, subject: subject, stage: nil).arguments(text[...], column: 1)
    }

    /// Reads the stage `segment`, which starts at `column` of `source`.
    init(reading segment: Substring, column: Int, position: Int, source: String, subject: SpecError.Subject) throws(SpecError) {
        let tokens = Tokens(source: source, subject: subject, stage: subject == .pipeline ? position : nil)
        let (text, textColumn) = segment.trimmingBlanksWithColumn(column)
        guard !text.isEmpty else {
            throw tokens.error(subject == .pipeline ? "empty stage (two '|' in a row, or '|' at an end)" : "empty spec",
                               token: "", column: subject == .pipeline ? textColumn : 0)
        }
        let colon = text.firstIndex(of: ":")
        let namePart = text[..<(colon ?? text.endIndex)]
        let name = namePart.trimmingBlanks
        guard !name.isEmpty else { throw tokens.error("no name before ':'", token: String(text), column: textColumn) }
        var arguments: [Argument] = []
        if let colon {
            arguments = try tokens.arguments(text[text.index(after: colon)...], column: textColumn + namePart.count + 1)
        }
        self.init(text: String(text), name: name, arguments: arguments, position: position, column: textColumn,
                  source: source, subject: subject)
    }

    /// `name` or `name:argument,…`, without blanks.
    public var description: String {
        arguments.isEmpty ? name : name + ":" + arguments.map(\.description).joined(separator: ",")
    }

    /// The stage number errors name: the position in a pipeline, none for other subjects.
    private var stageNumber: Int? { subject == .pipeline ? position : nil }

    /// An error about the stage as a whole, pointing at its name.
    public func error(_ message: String) -> SpecError {
        SpecError(subject, spec: source, stage: stageNumber, token: name, column: column, message: message)
    }

    /// An error about the stage as a whole: it needs a sensor the recording lacks
    /// (``SpecError/missingSensor``).
    public func missingSensor(_ message: String) -> SpecError {
        var error = error(message)
        error.missingSensor = true
        return error
    }

    /// An error about `argument`, pointing at it.
    public func error(_ message: String, at argument: Argument) -> SpecError {
        SpecError(subject, spec: source, stage: stageNumber, token: argument.text, column: argument.column, message: message)
    }

    /// An error about the last `key=value` whose key equals `key` ignoring case, or about the
    /// stage as a whole when there is none.
    public func error(_ message: String, key: String) -> SpecError {
        let wanted = key.lowercased()
        return arguments.last { $0.key?.lowercased() == wanted }.map { error(message, at: $0) } ?? error(message)
    }

    /// The value of `key=value`, or `nil` when absent (the last one when repeated).
    public func value(_ key: String) -> String? {
        arguments.last { $0.key == key }?.value
    }

    /// The number given as `key=value`, or `defaultValue` when absent.
    ///
    /// - Throws: ``SpecError`` at the argument when the value is not a finite number or lies
    ///   outside `range`.
    public func number(_ key: String, default defaultValue: Double,
                       in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude ... Double.greatestFiniteMagnitude) throws(SpecError) -> Double {
        guard let argument = arguments.last(where: { $0.key == key }) else { return defaultValue }
        let text = argument.value
        guard let number = Double(text), number.isFinite else {
            throw error("'\(key)=\(text)' is not a number", at: argument)
        }
        guard range.contains(number) else {
            throw error("'\(key)=\(text)' is out of range \(range.lowerBound) … \(range.upperBound)", at: argument)
        }
        return number
    }

    /// The bare words, in order.
    public var words: [String] { arguments.compactMap { $0.key == nil ? $0.value : nil } }

    /// Throws at the first argument that is not among `keys` (for `key=value`) or `words` (bare words).
    public func requireKnown(keys: Set<String> = [], words allowedWords: Set<String> = []) throws(SpecError) {
        for argument in arguments {
            if let key = argument.key {
                if !keys.contains(key) {
                    let known = keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")
                    throw error("stage '\(name)' has no parameter '\(key)' (parameters: \(known))", at: argument)
                }
            } else if !allowedWords.contains(argument.value) {
                let known = allowedWords.isEmpty ? "none" : allowedWords.sorted().joined(separator: ", ")
                throw error("stage '\(name)' does not accept '\(argument.value)' (options: \(known))", at: argument)
            }
        }
    }
}

/// The tokeniser's view of one text: where errors point, and the splitting of arguments.
private struct Tokens {
    var source: String
    var subject: SpecError.Subject
    var stage: Int?

    func error(_ message: String, token: String, column: Int) -> SpecError {
        SpecError(subject, spec: source, stage: stage, token: token, column: column, message: message)
    }

    /// Splits `text`, which starts at `column` of the source, at commas into arguments.
    func arguments(_ text: Substring, column: Int) throws(SpecError) -> [StageSpec.Argument] {
        var result: [StageSpec.Argument] = []
        var pieceColumn = column
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let (item, itemColumn) = piece.trimmingBlanksWithColumn(pieceColumn)
            pieceColumn += piece.count + 1
            guard !item.isEmpty else {
                throw error("empty argument (two commas in a row, or a comma or ':' with nothing after it)", token: "", column: itemColumn)
            }
            guard let equals = item.firstIndex(of: "=") else {
                result.append(StageSpec.Argument(key: nil, value: String(item), text: String(item), column: itemColumn))
                continue
            }
            let key = item[..<equals].trimmingBlanks
            let value = item[item.index(after: equals)...].trimmingBlanks
            guard !key.isEmpty else { throw error("no key before '=' (write key=value)", token: String(item), column: itemColumn) }
            guard !value.isEmpty else { throw error("missing value after '='", token: String(item), column: itemColumn) }
            result.append(StageSpec.Argument(key: key, value: value, text: String(item), column: itemColumn))
        }
        return result
    }
}

extension Substring {
    /// Whether `character` is a blank of the spec grammar (space or tab).
    static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    /// The text without blanks at either end.
    var trimmingBlanks: String { String(trimmingBlanksWithColumn(0).text) }

    /// The text without blanks at either end, and the column of its first character when the
    /// text itself starts at `column`.
    func trimmingBlanksWithColumn(_ column: Int) -> (text: Substring, column: Int) {
        let leading = prefix(while: Self.isBlank).count
        var text = dropFirst(leading)
        while let last = text.last, Self.isBlank(last) { text = text.dropLast() }
        return (text, column + leading)
    }
}
