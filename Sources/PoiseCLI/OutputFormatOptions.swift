import ArgumentParser
import Foundation

/// `--json` / `--csv` flags shared by commands that print a report (spectrum, response).
public struct OutputFormatOptions: ParsableArguments {
    @Flag(help: "Print JSON (keys carry their units, e.g. frequencies_hz).")
    public var json = false

    @Flag(help: "Print CSV, one row per frequency.")
    public var csv = false

    public init() {}

    public func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
    }

    /// Compact JSON with sorted keys and a final newline.
    func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}

/// A command whose whole output is computed by `render()` (so tests can compare it) and printed
/// by `run()`.
public protocol RenderingCommand: ParsableCommand {
    /// The command's whole output.
    func render() throws -> String
}

extension RenderingCommand {
    public func run() throws {
        print(try render(), terminator: "")
    }

    /// `x` with `digits` decimals; values that round to zero print as 0, never −0.
    func fixed(_ x: Double, _ digits: Int, width: Int = 0) -> String {
        let shown = abs(x) < 0.5 * pow(10, -Double(digits)) ? 0 : x
        return String(format: "%\(width).\(digits)f", shown)
    }
}
