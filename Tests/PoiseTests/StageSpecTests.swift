import Poise
import Testing

@Suite struct StageSpecTests {
    @Test func tokensKeepTheirTextAndColumn() throws {
        let stage = try StageSpec(parsing: " Butter : lowpass , order = 4,cutoff=5 ")
        #expect(stage.name == "Butter")
        #expect(stage.text == "Butter : lowpass , order = 4,cutoff=5")
        #expect(stage.column == 2)
        #expect(stage.arguments.map(\.key) == [nil, "order", "cutoff"])
        #expect(stage.arguments.map(\.value) == ["lowpass", "4", "5"])
        #expect(stage.arguments.map(\.text) == ["lowpass", "order = 4", "cutoff=5"])
        #expect(stage.arguments.map(\.column) == [11, 21, 31])
        #expect(stage.words == ["lowpass"])
        #expect(stage.description == "Butter:lowpass,order=4,cutoff=5")
    }

    @Test func valuesMayHoldEqualsAndColonsAndALoneStageKeepsBars() throws {
        let stage = try StageSpec(parsing: "a:k=x=y:z,w|v")
        #expect(stage.arguments == [.init(key: "k", value: "x=y:z", column: 3), .init(key: nil, value: "w|v", column: 11)])
        let grid = try StageSpec.arguments(parsing: "k=0.1:0.5:0.1, order=2/4", subject: .grid)
        #expect(grid.map(\.description) == ["k=0.1:0.5:0.1", "order=2/4"])
        #expect(grid.map(\.column) == [1, 16])
    }

    @Test(arguments: ["lowpass", "lowpass:cutoff=5", "butter:lowpass,order=4,cutoff=5", " fusion : 9d ",
                      "remap:roll=10,pitch=-5,yaw=0", "tilt:deadzone=3,curve=1.5,dynamic", "a:k=x=y:z"])
    func descriptionParsesBackToTheSameStage(text: String) throws {
        let stage = try StageSpec(parsing: text)
        let again = try StageSpec(parsing: stage.description)
        #expect(again.name == stage.name)
        #expect(again.arguments.map(\.description) == stage.arguments.map(\.description))
        #expect(again.description == stage.description)
    }

    @Test func pipelineStagesRoundTripThroughTheirDescriptions() throws {
        let stages = try StageSpec.parse("lowpass: cutoff=5 |gravity | fusion:9d")
        let again = try StageSpec.parse(stages.map(\.description).joined(separator: " | "))
        #expect(again.map(\.description) == ["lowpass:cutoff=5", "gravity", "fusion:9d"])
        #expect(again.map(\.description) == stages.map(\.description))
    }

    /// Syntax errors: (text, token, column, words in the message).
    @Test(arguments: [
        ("lowpass:", "", 9, "empty argument"),
        ("lowpass:cutoff=5,", "", 18, "empty argument"),
        ("lowpass:cutoff=5, ,order=2", "", 19, "empty argument"),
        ("lowpass:=5", "=5", 9, "no key before '='"),
        ("lowpass:cutoff=", "cutoff=", 9, "missing value after '='"),
        ("lowpass: cutoff =  ", "cutoff =", 10, "missing value after '='"),
        (" :cutoff=5", ":cutoff=5", 2, "no name before ':'"),
        ("  ", "", 0, "empty spec"),
    ] as [(String, String, Int, String)])
    func syntaxErrorsPointAtTheToken(text: String, token: String, column: Int, words: String) {
        #expect {
            _ = try StageSpec(parsing: text)
        } throws: { error in
            guard let error = error as? SpecError else { return false }
            return error.subject == .filter && error.stage == nil && error.token == token && error.column == column
                && error.message.contains(words)
        }
    }

    @Test func pipelineErrorsNameTheStageAndTheColumnInTheWholePipeline() {
        #expect(throws: SpecError(.pipeline, spec: "gravity | lowpass:cutoff=", stage: 2, token: "cutoff=", column: 19,
                                  message: "missing value after '='")) {
            try StageSpec.parse("gravity | lowpass:cutoff=")
        }
        #expect(throws: SpecError(.pipeline, spec: "gravity |  | fusion", stage: 2, column: 12,
                                  message: "empty stage (two '|' in a row, or '|' at an end)")) {
            try StageSpec.parse("gravity |  | fusion")
        }
    }

    @Test func theDescriptionDrawsACaretUnderTheToken() throws {
        let error = SpecError(.pipeline, spec: "gravity | lowpass:cutof=5", stage: 2, token: "cutof=5", column: 19,
                              message: "unknown parameter")
        #expect(error.headline == "pipeline 'gravity | lowpass:cutof=5', stage 2, 'cutof=5' at column 19: unknown parameter")
        #expect(error.description == """
            pipeline 'gravity | lowpass:cutof=5', stage 2, 'cutof=5' at column 19: unknown parameter
              gravity | lowpass:cutof=5
                                ^~~~~~~
            """)
        let empty = SpecError(.grid, spec: "k=1,,", column: 5, message: "empty argument")
        #expect(empty.description == "grid 'k=1,,', at column 5: empty argument\n  k=1,,\n      ^")
        let whole = SpecError(.filter, spec: "", message: "empty spec")
        #expect(whole.description == "filter spec '': empty spec")
        #expect(whole.pointer == nil)
    }

    @Test func stageErrorsPointAtTheArgumentTheyAreAbout() throws {
        let stage = try StageSpec.parse("gravity | tilt:deadzone=3,curve=x, static")[1]
        #expect(throws: SpecError(.pipeline, spec: stage.source, stage: 2, token: "static", column: 36,
                                  message: "stage 'tilt' does not accept 'static' (options: dynamic)")) {
            try stage.requireKnown(keys: ["deadzone", "curve"], words: ["dynamic"])
        }
        #expect(throws: SpecError(.pipeline, spec: stage.source, stage: 2, token: "deadzone=3", column: 16,
                                  message: "'deadzone=3' is out of range 0.0 … 1.0")) {
            try stage.number("deadzone", default: 0, in: 0 ... 1)
        }
        #expect(stage.error("bad", key: "CURVE").column == 27)
        #expect(stage.error("bad", key: "tau").token == "tilt")
        #expect(stage.error("bad").column == 11)
    }
}
