import Foundation
import Testing
@testable import PoiseCLI

@Suite struct ResponseCommandTests {
    @Test func jsonReportsCutoffAndDelay() throws {
        let output = try ResponseCommand.parse(["--filter", "butter:lowpass,order=2,cutoff=5", "--rate", "100", "--json"]).render()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(abs(try #require(document["minus_3db_hz"] as? Double) - 5) < 0.002)
        #expect(document["linear"] as? Bool == true)
        let frequencies = try #require(document["frequencies_hz"] as? [Double])
        #expect(frequencies.count == 2049)
        #expect((document["magnitude_db"] as? [Double])?.count == 2049)
        // A 2nd-order Butterworth at fc/fs = 0.05 delays slow signals by √2/(2π·fc)·(prewarp) ≈ 44 ms.
        let delay = try #require(document["low_frequency_delay_s"] as? Double)
        #expect(delay > 0.04 && delay < 0.05)
    }

    @Test func textFlagsAdaptiveFilters() throws {
        let text = try ResponseCommand.parse(["--filter", "oneeuro:mincutoff=1,beta=0.5", "--rate", "100", "--amplitude", "1"]).render()
        #expect(text.contains("linear time-invariant: NO — approximate"))
        let linear = try ResponseCommand.parse(["--filter", "lowpass:cutoff=5", "--rate", "100"]).render()
        #expect(linear.contains("linear time-invariant: yes"))
        #expect(linear.contains("−3 dB point (half power): 4.3"))
    }

    @Test func csvHasOneRowPerBin() throws {
        let csv = try ResponseCommand.parse(["--filter", "factor:k=0.1", "--rate", "60", "--length", "64", "--csv"]).render()
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "frequency_hz,magnitude_db,phase_rad,group_delay_s")
        #expect(lines.count == 1 + 33)
    }

    @Test func badSpecIsNamed() {
        func message(_ arguments: [String]) -> String {
            do { _ = try ResponseCommand.parse(arguments).render(); return "" } catch { return "\(error)" }
        }
        #expect(message(["--filter", "lowpass:cutof=5", "--rate", "100"]).contains("cutof"))
        #expect(message(["--filter", "butter:lowpass,cutoff=80", "--rate", "100"]).contains("cutoff"))
        #expect(message(["--filter", "lowpass:cutoff=5", "--rate", "0"]).contains("rate"))
    }
}
