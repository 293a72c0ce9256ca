import Testing
@testable import Poise

@Suite struct FilterSpecTests {
    @Test func parsesEveryDocumentedForm() throws {
        #expect(try FilterSpec(parsing: "lowpass:cutoff=5") == .onePole(pass: .lowPass, cutoff: 5, start: .firstInput))
        #expect(try FilterSpec(parsing: "highpass:cutoff=0.5") == .onePole(pass: .highPass, cutoff: 0.5, start: .firstInput))
        #expect(try FilterSpec(parsing: "factor:k=0.1") == .factor(pass: .lowPass, k: 0.1, start: .firstInput))
        #expect(try FilterSpec(parsing: "factor:k=0.1,highpass,start=zero") == .factor(pass: .highPass, k: 0.1, start: .zero))
        #expect(try FilterSpec(parsing: "butter:lowpass,order=4,cutoff=5")
                == .butterworth(band: .lowPass(cutoff: 5), order: 4, start: .firstInput))
        #expect(try FilterSpec(parsing: " Butter : bandpass , low=0.5, high=5 ")
                == .butterworth(band: .bandPass(low: 0.5, high: 5), order: 2, start: .firstInput))
        #expect(try FilterSpec(parsing: "accelgraph:cutoff=5,adaptive")
                == .accelerometerGraph(pass: .lowPass, cutoff: 5, adaptive: true, start: .firstInput))
        #expect(try FilterSpec(parsing: "oneeuro:mincutoff=0.1,beta=2,dcutoff=1")
                == .oneEuro(minimumCutoff: 0.1, beta: 2, derivativeCutoff: 1))
        #expect(try FilterSpec(parsing: "adaptive") == .adaptive(restCutoff: 0.5, threshold: 0.03))
    }

    @Test(arguments: FilterPropertyTests.specs + ["oneeuro", "butter:bandpass,order=8,low=0.25,high=12.5"])
    func descriptionRoundTrips(spec: String) throws {
        let parsed = try FilterSpec(parsing: spec)
        #expect(try FilterSpec(parsing: parsed.description) == parsed)
    }

    /// The error for `spec` names `token` at `column` and says `words`.
    func expectError(_ spec: String, token: String, column: Int, saying words: String) {
        do {
            _ = try FilterSpec(parsing: spec)
            Issue.record("'\(spec)' parsed")
        } catch {
            #expect(error.token == token, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(words), "\(error)")
            #expect(spec.isEmpty || error.description.contains(spec))
        }
    }

    @Test func errorsNameTheTokenAndWhy() {
        expectError("lowpas:cutoff=5", token: "lowpas", column: 1, saying: "unknown filter")
        expectError("lowpass", token: "lowpass", column: 1, saying: "needs 'cutoff=…'")
        expectError("lowpass:cutoff=abc", token: "cutoff=abc", column: 9, saying: "not a finite number")
        expectError("lowpass:cutoff=", token: "cutoff=", column: 9, saying: "missing value")
        expectError("lowpass:cutoff=-2", token: "cutoff=-2", column: 9, saying: "positive")
        expectError("lowpass:cutof=5", token: "cutof=5", column: 9, saying: "unknown parameter")
        expectError("lowpass:cutoff=5,cutoff=6", token: "cutoff=6", column: 18, saying: "twice")
        expectError("butter:lowpass,order=9,cutoff=5", token: "order=9", column: 16, saying: "1…8")
        expectError("butter:lowpass,order=2.5,cutoff=5", token: "order=2.5", column: 16, saying: "whole number")
        expectError("butter:order=2,cutoff=5", token: "butter", column: 1, saying: "exactly one of")
        expectError("butter:bandpass,low=5,high=2", token: "high=2", column: 23, saying: "must exceed low")
        expectError("butter:lowpass,cutoff=5,low=1", token: "low=1", column: 25, saying: "is for bandpass")
        expectError("factor:k=2", token: "k=2", column: 8, saying: "(0, 1]")
        expectError("factor:k=0.1,,", token: "", column: 14, saying: "empty argument")
        expectError("accelgraph:cutoff=5,adaptive=1", token: "adaptive=1", column: 21, saying: "flag")
        expectError("oneeuro:beta=-1", token: "beta=-1", column: 9, saying: "≥ 0")
        expectError("oneeuro:start=zero", token: "start=zero", column: 9, saying: "unknown parameter")
        expectError("lowpass:cutoff=5,start=late", token: "start=late", column: 18, saying: "'first' or 'zero'")
        expectError("", token: "", column: 0, saying: "empty spec")
        expectError("lowpass,cutoff=5", token: "lowpass,cutoff=5", column: 1, saying: "the name ends at ':'")
        expectError("adaptive=1", token: "adaptive=1", column: 1, saying: "unknown filter")
    }

    @Test func makingChecksTheRateDependentLimits() throws {
        let spec = try FilterSpec(parsing: "butter:lowpass,order=4,cutoff=60")
        do {
            _ = try spec.makeFilter(Double.self, sampleRate: 100)
            Issue.record("cutoff above Nyquist accepted")
        } catch {
            #expect(error.token == "cutoff=60")
            #expect(error.message.contains("Nyquist"))
        }
        var filter = try spec.makeFilter(Float.self, sampleRate: 200)
        #expect(filter.process(1) == 1)
    }
}
