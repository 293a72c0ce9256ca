import Foundation
import Testing

/// Every `$ command` in the README's example blocks runs from a fresh clone: in a scratch folder
/// that sees only the repository's `data/`, with the built `poise` first on `PATH`. Each command
/// must exit 0, and the first line printed under it in the README (unless it is `…`) must be the
/// first line the command prints now.
@Suite struct ReadmeCommandTests {
    struct Example: CustomStringConvertible {
        var command: String
        var firstLine: String?
        var description: String { command }
    }

    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// The `$ ` lines of the README's fenced blocks (with `\` continuations joined) and the line after each.
    static func examples() throws -> [Example] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var inBlock = false
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.hasPrefix("```") { inBlock.toggle(); i += 1; continue }
            guard inBlock, line.hasPrefix("$ ") else { i += 1; continue }
            var command = String(line.dropFirst(2))
            while command.hasSuffix("\\"), i + 1 < lines.count {
                command = String(command.dropLast()) + " " + lines[i + 1].trimmingCharacters(in: .whitespaces)
                i += 1
            }
            let next = i + 1 < lines.count ? lines[i + 1] : "```"
            let first = (next.hasPrefix("$ ") || next.hasPrefix("```") || next.hasPrefix("…")) ? nil : next
            examples.append(Example(command: command, firstLine: first))
            i += 1
        }
        return examples
    }

    @Test func theReadmeHasExamples() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 10)
        #expect(examples.allSatisfy { !$0.command.contains("../shared") }, "README examples must run from a fresh clone")
    }

    @Test func everyReadmeExampleRunsFromAFreshClone() throws {
        let poise = try #require(PoiseProcess.executable, "the poise executable was not built next to the tests")
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.folder) }
        try FileManager.default.createSymbolicLink(at: scratch.folder.appendingPathComponent("data"),
                                                   withDestinationURL: Self.packageRoot.appendingPathComponent("data"))
        for example in try Self.examples() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", example.command]
            process.currentDirectoryURL = scratch.folder
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = poise.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(example.command): \(stderr)")
            if let first = example.firstLine {
                let printed = (stdout.isEmpty ? stderr : stdout).components(separatedBy: "\n").first ?? ""
                #expect(printed == first, "\(example.command)")
            }
        }
    }
}
