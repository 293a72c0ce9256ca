import Foundation

/// Golden outputs written by Tests/Goldens/filter_goldens.py (scipy 1.17 and OneEuroFilter 0.2.1).
struct FilterGoldens: Decodable {
    struct ButterworthCase: Decodable {
        var band: String
        var order: Int
        var edges: [Double]
        var start: String
        var output: [Double]
    }
    struct OnePoleCase: Decodable {
        var cutoff: Double
        var lowpass_zero: [Double]
        var lowpass_first: [Double]
        var highpass_zero: [Double]
    }
    struct OneEuroCase: Decodable {
        var mincutoff: Double
        var beta: Double
        var dcutoff: Double
        var output: [Double]
    }
    var rate: Double
    var input: [Double]
    var times: [Double]
    var butterworth: [ButterworthCase]
    var one_pole: [OnePoleCase]
    var one_euro: [OneEuroCase]

    static let shared: FilterGoldens = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/filter_goldens.json")
        do {
            return try JSONDecoder().decode(FilterGoldens.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error) — run Tests/Goldens/filter_goldens.py")
        }
    }()
}

/// Largest |a − b| / (|b| + floor), floor = 1e-3 × peak |b|: relative error that does not blow
/// up where the reference crosses zero.
func maximumRelativeError(_ a: [Double], _ b: [Double]) -> Double {
    precondition(a.count == b.count)
    let floor = 1e-3 * (b.map(\.magnitude).max() ?? 0)
    return zip(a, b).map { ($0 - $1).magnitude / ($1.magnitude + floor) }.max() ?? 0
}
