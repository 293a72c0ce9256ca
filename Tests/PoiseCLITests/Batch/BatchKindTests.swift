import Foundation
import Testing
@testable import PoiseCLI

/// `BatchKind`: the batchable commands by name, each with its own output extension, added JSON
/// flag and summary columns (`BatchableCommand`).
@Suite struct BatchKindTests {
    @Test func namesParseToTheirCommands() throws {
        #expect(BatchKind.allCases.map(\.rawValue) == ["fuse", "evaluate", "info", "spectrum", "report", "convert"])
        #expect(BatchKind.allValueStrings == BatchKind.allCases.map(\.rawValue))
        for kind in BatchKind.allCases {
            let parsed = try #require(BatchKind(argument: kind.rawValue))
            #expect(ObjectIdentifier(parsed.command) == ObjectIdentifier(kind.command))
        }
        #expect(BatchKind(argument: "replay") == nil)
        #expect(BatchKind.namesInWords == "fuse, evaluate, info, spectrum, report or convert")
    }

    @Test func eachCommandSaysWhatItWritesAndSummarises() throws {
        func kind(_ name: String) throws -> BatchKind { try #require(BatchKind(rawValue: name)) }
        #expect(try kind("fuse").outputExtension(options: []) == "csv")
        #expect(try kind("fuse").writesOutOption && kind("report").writesOutOption && kind("convert").writesOutOption)
        #expect(try !kind("evaluate").writesOutOption && !kind("info").writesOutOption && !kind("spectrum").writesOutOption)
        #expect(try kind("spectrum").outputExtension(options: ["--csv"]) == "csv")
        #expect(try kind("spectrum").outputExtension(options: []) == "json")
        #expect(try kind("spectrum").addedArguments(options: ["--csv"]).isEmpty)
        #expect(try kind("evaluate").addedArguments(options: []) == ["--json"])
        #expect(try kind("report").outputExtension(options: []) == "html")
        #expect(try kind("convert").headlineColumns.isEmpty)
        #expect(try kind("evaluate").headlineColumns == ["scored_samples", "total_rmse_deg", "heading_rmse_deg", "inclination_rmse_deg"])
    }

    /// The summary cells come from the printed JSON: `rows` under the command's key, numbers
    /// under the column names, info's sensors from the columns' meanings.
    @Test func headlineReadsTheCommandsJSON() throws {
        let evaluate = try #require(BatchKind(rawValue: "evaluate"))
        let cells = evaluate.headline(fromJSON: Data(#"{"rows": 120, "scored_samples": 100, "total_rmse_deg": 1.5, "samples": 7}"#.utf8))
        #expect(cells == ["rows": .integer(120), "scored_samples": .integer(100), "total_rmse_deg": .number(1.5)])
        let fuse = try #require(BatchKind(rawValue: "fuse"))
        #expect(fuse.headline(fromJSON: Data(#"{"rows": 3, "samples": 7, "sample_rate_hz": 99.5}"#.utf8))
                == ["rows": .integer(7), "sample_rate_hz": .number(99.5)])
        let info = try #require(BatchKind(rawValue: "info"))
        let json = #"{"rows": 5, "duration_s": 2, "columns": [{"meaning": "acceleration.x"}, {"meaning": "truth.w"}, {"meaning": "time"}]}"#
        #expect(info.headline(fromJSON: Data(json.utf8)) == ["rows": .integer(5), "duration_s": .number(2), "sensors": .text("acc+truth")])
        #expect(try #require(BatchKind(rawValue: "report")).headline(fromJSON: Data("<html>".utf8)).isEmpty)
    }
}
