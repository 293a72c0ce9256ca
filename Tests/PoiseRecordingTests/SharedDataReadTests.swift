import Foundation
import Testing
@testable import PoiseRecording

/// Reads the real recordings in ../shared/data (skipped, and reported so, when the folder is absent).
@Suite struct SharedDataReadTests {
    struct Summary: Decodable { var rows: Int; var gt_quat_nan_rows: Int }

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func broadTrialsReadWithTheirRowCountsAndLostTruth() throws {
        let data = try #require(sharedDataFolder())
        let summaries = try JSONDecoder().decode([String: Summary].self,
                                                 from: Data(contentsOf: URL(fileURLWithPath: data + "/broad/summary.json")))
        // Every trial file in the folder has a summary (15 trials: data/README.md of ../shared).
        let files = try FileManager.default.contentsOfDirectory(atPath: data + "/broad").filter { $0.hasSuffix(".csv") }
        #expect(summaries.count == 15)
        #expect(Set(files) == Set(summaries.keys.map { $0 + ".csv" }))
        for (name, summary) in summaries {
            let r = try Recording.load(path: "\(data)/broad/\(name).csv")
            #expect(r.samples.count == summary.rows, "\(name)")
            #expect(r.samples.filter { $0.truth == nil }.count == summary.gt_quat_nan_rows, "\(name)")
            #expect(r.summary.issueCounts[.gap] == nil, "\(name)")
            // At rest the accelerometer reads about +1 g (specific force, converted from m/s²).
            #expect(abs(r.samples[0].acceleration.z - 1) < 0.03, "\(name)")
        }
    }

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func xioReadsWithItsTenGaps() throws {
        let data = try #require(sharedDataFolder())
        let r = try Recording.load(path: data + "/xio/sensor_data.csv")
        #expect(r.schema.format == .xioFusion)
        #expect(r.samples.count == 13_514)
        #expect(r.summary.issueCounts[.gap] == 10)
        #expect(r.issues.allSatisfy { $0.kind == .gap && $0.action == .kept })
    }
}
