import Poise
import PoiseRun
import Testing

/// Filter specs, pipelines and sweep grids are read by one parser (`StageSpec`): malformed
/// arguments are refused by all of them with the same `SpecError`, at the same token.
@Suite struct SpecGrammarTests {
    /// Malformed argument lists: (arguments, token, column within them, words in the message).
    static let malformed: [(String, String, Int, String)] = [
        ("", "", 1, "empty argument"),
        ("cutoff=5,", "", 10, "empty argument"),
        ("cutoff=5,,order=2", "", 10, "empty argument"),
        (" ,cutoff=5", "", 2, "empty argument"),
        ("=5", "=5", 1, "no key before '='"),
        ("cutoff=5, =2", "=2", 11, "no key before '='"),
        ("cutoff=", "cutoff=", 1, "missing value after '='"),
        ("cutoff = ", "cutoff =", 1, "missing value after '='"),
    ]

    func expect(_ error: SpecError?, _ subject: SpecError.Subject, spec: String, stage: Int?, token: String,
                column: Int, words: String, _ what: String) {
        guard let error else { Issue.record("\(what): '\(spec)' was accepted"); return }
        #expect(error.subject == subject && error.spec == spec && error.stage == stage, "\(what): \(error)")
        #expect(error.token == token && error.column == column, "\(what): \(error)")
        #expect(error.message.contains(words), "\(what): \(error)")
    }

    @Test(arguments: malformed)
    func everyReaderRefusesTheSameMalformedArguments(arguments: String, token: String, column: Int, words: String) {
        let filter = "lowpass:" + arguments
        let offset = filter.count - arguments.count
        expect(catching { _ = try FilterSpec(parsing: filter) }, .filter, spec: filter, stage: nil,
               token: token, column: column + offset, words: words, "FilterSpec")
        let pipeline = "gravity | " + filter
        let pipelineOffset = pipeline.count - arguments.count
        expect(catching { _ = try StageSpec.parse(pipeline) }, .pipeline, spec: pipeline, stage: 2,
               token: token, column: column + pipelineOffset, words: words, "StageSpec.parse")
        expect(catching { _ = try StageCatalog.standard.pipeline(pipeline, context: StageContext(sampleRate: 100)) },
               .pipeline, spec: pipeline, stage: 2, token: token, column: column + pipelineOffset, words: words, "StageCatalog")
        expect(catching { _ = try ParameterGrid(parsing: arguments) }, .grid, spec: arguments, stage: nil,
               token: token, column: column, words: words, "ParameterGrid")
        let sweep: SpecError?
        do { _ = try FilterSweep(filter: filter); sweep = nil } catch { if case .spec(let e) = error { sweep = e } else { sweep = nil } }
        expect(sweep, .filter, spec: filter, stage: nil, token: token, column: column + offset, words: words, "FilterSweep")
    }

    @Test func aRepeatedKeyIsRefusedByFilterSpecsAndGridsAlike() throws {
        let filter = catching { _ = try FilterSpec(parsing: "lowpass:cutoff=5,Cutoff=6") }
        expect(filter, .filter, spec: "lowpass:cutoff=5,Cutoff=6", stage: nil, token: "Cutoff=6", column: 18, words: "given twice", "FilterSpec")
        let grid = catching { _ = try ParameterGrid(parsing: "cutoff=5,Cutoff=6") }
        expect(grid, .grid, spec: "cutoff=5,Cutoff=6", stage: nil, token: "Cutoff=6", column: 10, words: "given twice", "ParameterGrid")
    }

    @Test func aFilterStageOfAPipelineIsTheFilterSpecOfItsText() throws {
        for text in ["lowpass:cutoff=5", " Butter : bandpass , low=0.5, high=5 ", "accelgraph:cutoff=5,adaptive,start=zero", "adaptive"] {
            let stage = try #require(try StageSpec.parse("gravity |" + text).last)
            #expect(try FilterSpec(stage) == FilterSpec(parsing: text), "\(text)")
        }
    }

    @Test func filterErrorsInAPipelinePointAtTheArgumentInThePipeline() {
        let pipeline = "gravity | butter:lowpass,cutoff=80,order=2"
        let error = catching { _ = try StageCatalog.standard.pipeline(pipeline, context: StageContext(sampleRate: 100)) }
        expect(error, .pipeline, spec: pipeline, stage: 2, token: "cutoff=80", column: 26, words: "Nyquist", "rate check")
    }

    func catching(_ body: () throws -> Void) -> SpecError? {
        do { try body() } catch let error as SpecError { return error } catch { Issue.record("not a SpecError: \(error)") }
        return nil
    }
}
