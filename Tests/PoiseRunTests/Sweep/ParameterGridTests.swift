import Poise
import PoiseRun
import Testing

@Suite("Parameter grids")
struct ParameterGridTests {
    @Test("Ranges, geometric ranges, lists and single values expand in order, rounded")
    func expansion() throws {
        let grid = try ParameterGrid(parsing: "k=0.1:0.5:0.1, mincutoff=0.05:3.2:*2,beta=0/0.3/1,order=4")
        #expect(grid.parameters.map(\.name) == ["k", "mincutoff", "beta", "order"])
        #expect(grid.parameters[0].values == [0.1, 0.2, 0.3, 0.4, 0.5])
        #expect(grid.parameters[1].values == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2])
        #expect(grid.parameters[2].values == [0, 0.3, 1])
        #expect(grid.parameters[3].values == [4])
        #expect(grid.count == 5 * 7 * 3)
        // The last item varies fastest.
        #expect(grid.point(0).map(\.value) == [0.1, 0.05, 0, 4])
        #expect(grid.point(1).map(\.value) == [0.1, 0.05, 0.3, 4])
        #expect(grid.point(3).map(\.value) == [0.1, 0.1, 0, 4])
        #expect(grid.point(grid.count - 1).map(\.value) == [0.5, 3.2, 1, 4])
    }

    @Test("An end that is not on the step is not passed")
    func endNotOnStep() throws {
        #expect(try ParameterGrid(parsing: "cutoff=1:10:4").parameters[0].values == [1, 5, 9])
        #expect(try ParameterGrid(parsing: "cutoff=2:2:1").parameters[0].values == [2])
    }

    @Test("Errors name the item and its column", arguments: [
        ("k=0.1:0.5:0", "k=0.1:0.5:0", 1, "step must be greater than 0"),
        ("cutoff=1:10:1,k=abc", "k=abc", 15, "'abc' is not a finite number"),
        ("cutoff=1:10:1, k", "k", 16, "expected name=values"),
        ("k=0.5:0.1:0.1", "k=0.5:0.1:0.1", 1, "below start"),
        ("k=0.1,k=0.2", "k=0.2", 7, "given twice"),
        ("k=0:1:*2", "k=0:1:*2", 1, "start above 0"),
        ("k=1:8:*1", "k=1:8:*1", 1, "ratio must be greater than 1"),
        ("k=1:2", "k=1:2", 1, "expected a value, start:end:step"),
        ("k=0.1,,cutoff=1", "", 7, "empty argument"),
        ("k=1/x/3", "k=1/x/3", 1, "list value 'x'"),
        ("=3", "=3", 1, "no key before '='"),
        ("a=1:1000:1,b=1:1000:1", "b=1:1000:1", 12, "more than 100000 points"),
    ])
    func errors(text: String, token: String, column: Int, message: String) {
        #expect {
            try ParameterGrid(parsing: text)
        } throws: { error in
            guard let error = error as? SpecError else { return false }
            return error.subject == .grid && error.token == token && error.column == column && error.message.contains(message)
                && error.description.contains(token.isEmpty ? ", at column \(column)" : "'\(token)' at column \(column)")
        }
    }

    @Test("A sweep plan builds one spec per point from the kind's base")
    func plan() throws {
        let sweep = try FilterSweep(filter: "butter", grid: "order=2/4,cutoff=1:3:1")
        #expect(sweep.base == "butter:lowpass")
        #expect(sweep.settings.map(\.spec.description) == [
            "butter:lowpass,order=2,cutoff=1", "butter:lowpass,order=2,cutoff=2", "butter:lowpass,order=2,cutoff=3",
            "butter:lowpass,order=4,cutoff=1", "butter:lowpass,order=4,cutoff=2", "butter:lowpass,order=4,cutoff=3",
        ])
        let fixed = try FilterSweep(filter: "accelgraph:adaptive", grid: "cutoff=5")
        #expect(fixed.settings.map(\.spec) == [try FilterSpec(parsing: "accelgraph:cutoff=5,adaptive")])
        for kind in SweepKind.allCases {   // every default grid is valid
            let sweep = try FilterSweep(filter: kind.rawValue)
            #expect(sweep.settings.count == sweep.grid.count && sweep.settings.count > 1)
        }
    }

    @Test("Plan errors name the grid item or the filter token")
    func planErrors() {
        func gridError(_ filter: String, _ grid: String) -> SpecError? {
            do { _ = try FilterSweep(filter: filter, grid: grid) } catch { if case .spec(let e) = error, e.subject == .grid { return e } }
            return nil
        }
        let range = gridError("factor", "k=0.5:1.5:0.5")   // k = 1.5 is out of (0, 1]
        #expect(range?.token == "k=0.5:1.5:0.5" && range?.message.hasPrefix("k=1.5:") == true)
        let unknown = gridError("factor", "k=0.1,cutoff=5")
        #expect(unknown?.token == "cutoff=5" && unknown?.column == 7 && unknown?.message.contains("sweeps k") == true)
        let fixedTwice = gridError("butter:lowpass,order=4", "order=2/4")
        #expect(fixedTwice?.token == "order=2/4" && fixedTwice?.message.contains("already fixed") == true)
        #expect(throws: SweepError.self) { try FilterSweep(filter: "kalman") }
        #expect(throws: SweepError.self) { try FilterSweep(filter: "butter:highpass") }
    }
}
