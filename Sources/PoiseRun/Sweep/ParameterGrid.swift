import Foundation
import Poise

/// A grid of filter-parameter values to sweep, parsed from text such as `k=0.02:0.3:0.02` or
/// `cutoff=1:10:1,order=2/4`.
///
/// Grammar: the `arguments` of ``StageSpec``, every one `key=value` (blanks around tokens are
/// ignored; names are case-insensitive and may be given once), each value one of:
/// ```
/// grid   := item { "," item }
/// item   := name "=" values
/// values := v                    one value
///         | a ":" b ":" step     a, a+step, a+2·step, … up to b (step > 0, b ≥ a)
///         | a ":" b ":*" ratio   a, a·ratio, a·ratio², … up to b (a > 0, ratio > 1)
///         | v1 "/" v2 "/" …      a list, in the order given
/// ```
/// Values are in the filter spec's units (see ``FilterSpec``: Hz for cutoffs, a plain number for
/// `k`, `beta`, `order`). Generated values are rounded to 12 significant digits, so
/// `0.1:0.5:0.1` gives exactly 0.1, 0.2, 0.3, 0.4, 0.5. The points are the Cartesian product of
/// the items, the last item varying fastest.
public struct ParameterGrid: Sendable, Equatable, CustomStringConvertible {
    /// One swept parameter.
    public struct Parameter: Sendable, Equatable {
        /// Name as written in a filter spec, lower-cased (for example `cutoff`).
        public var name: String
        /// Values in order.
        public var values: [Double]
        /// The item as written (for example `cutoff=1:10:1`), for error messages.
        public var token: String
        /// 1-based column of the item in the grid text.
        public var column: Int
    }

    /// Most points a grid may have (the product of the value counts).
    public static let maximumPoints = 100_000

    /// The parameters in the order given.
    public var parameters: [Parameter]

    /// The grid text as given.
    public var text: String

    public var description: String { text }

    /// Number of points (product of the value counts).
    public var count: Int { parameters.reduce(1) { $0 * $1.values.count } }

    /// Point `index` (`0 ..< count`) as (name, value) pairs in parameter order; the last
    /// parameter varies fastest.
    public func point(_ index: Int) -> [(name: String, value: Double)] {
        var remainder = index
        var result: [(name: String, value: Double)] = []
        for parameter in parameters.reversed() {
            result.append((parameter.name, parameter.values[remainder % parameter.values.count]))
            remainder /= parameter.values.count
        }
        return result.reversed()
    }

    /// Parses a grid (grammar above).
    ///
    /// - Throws: ``SpecError`` (subject `.grid`) naming the item, its column and what is wrong:
    ///   an empty item, a missing `=`, name or values, a repeated name, a value that is not a
    ///   finite number, a step ≤ 0, an end below the start, a ratio ≤ 1, too many points.
    public init(parsing text: String) throws(SpecError) {
        self.text = text
        parameters = []
        var total = 1
        for argument in try StageSpec.arguments(parsing: text, subject: .grid) {
            func fail(_ message: String) -> SpecError {
                SpecError(.grid, spec: text, token: argument.text, column: argument.column, message: message)
            }
            guard let key = argument.key else { throw fail("expected name=values, e.g. cutoff=1:10:1") }
            let name = key.lowercased()
            if parameters.contains(where: { $0.name == name }) { throw fail("'\(name)' given twice") }
            let values = try Self.values(argument.value, fail: fail)
            if total > Self.maximumPoints / values.count {
                throw fail("the grid would have more than \(Self.maximumPoints) points")
            }
            total *= values.count
            parameters.append(Parameter(name: name, values: values, token: argument.text, column: argument.column))
        }
    }

    /// The error for `parameter` (a grid item), with `message`.
    public func error(_ message: String, at parameter: Parameter) -> SpecError {
        SpecError(.grid, spec: text, token: parameter.token, column: parameter.column, message: message)
    }

    /// Expands one item's values.
    static func values(_ text: String, fail: (String) -> SpecError) throws(SpecError) -> [Double] {
        func number(_ part: Substring, _ what: String) throws(SpecError) -> Double {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed), value.isFinite else {
                throw fail(trimmed.isEmpty ? "missing \(what)" : "\(what) '\(trimmed)' is not a finite number")
            }
            return value
        }
        if text.contains("/") {
            var list: [Double] = []
            for part in text.split(separator: "/", omittingEmptySubsequences: false) { list.append(try number(part, "list value")) }
            return list
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return [try number(parts[0], "value")]
        case 3:
            let start = try number(parts[0], "start"), end = try number(parts[1], "end")
            guard end >= start else { throw fail("end \(end) is below start \(start)") }
            let stepText = parts[2].trimmingCharacters(in: .whitespaces)
            var values: [Double] = []
            if stepText.hasPrefix("*") {
                let ratio = try number(stepText.dropFirst(), "ratio")
                guard ratio > 1 else { throw fail("ratio must be greater than 1, got \(ratio)") }
                guard start > 0 else { throw fail("a geometric range needs a start above 0, got \(start)") }
                var value = start
                while value <= end * (1 + 1e-9) {
                    values.append(rounded(value))
                    if values.count > maximumPoints { throw fail("more than \(maximumPoints) values") }
                    value *= ratio
                }
            } else {
                let step = try number(parts[2], "step")
                guard step > 0 else { throw fail("step must be greater than 0, got \(step)") }
                let steps = ((end - start) / step + 1e-9).rounded(.down)
                guard steps < Double(maximumPoints) else { throw fail("more than \(maximumPoints) values") }
                for i in 0...Int(steps) { values.append(rounded(start + Double(i) * step)) }
            }
            return values
        default:
            throw fail("expected a value, start:end:step, start:end:*ratio or v1/v2/…")
        }
    }

    /// `value` rounded to 12 significant digits (removes binary noise such as 0.30000000000000004).
    static func rounded(_ value: Double) -> Double {
        Double(String(format: "%.12g", value)) ?? value
    }
}
