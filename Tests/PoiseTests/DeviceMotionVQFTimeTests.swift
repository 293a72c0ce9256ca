import Foundation
import Testing
@testable import Poise

/// VQF exactly, whatever the timestamps: `DeviceMotionConfiguration.vqfDefaults` (online) and
/// `OfflineVQF` with it equal the `vqf` package's `VQF` and `offlineVQF` to 1e-9 rad on simulated
/// recordings with jittered timestamps, held samples, gaps and repeated timestamps, and
/// resampled onto another rate. Golden: Fixtures/vqf_time.csv, made by
/// Tests/Goldens/vqf_time_golden.py (inputs and VQF's outputs at every 20th sample and the last).
@Suite struct DeviceMotionVQFTimeTests {
    struct Case {
        var rate = 0.0
        var samples: [MotionSample] = []
        /// Sample index → online q6, q9, bias, offline q6, q9, bias.
        var golden: [(index: Int, values: [Double])] = []
    }

    static func cases() throws -> [(String, Case)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/vqf_time.csv")
        var cases: [String: Case] = [:], order: [String] = []
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: ",").map(String.init)
            let name = f[1]
            if cases[name] == nil { order.append(name); cases[name] = Case() }
            if f[0] == "in" {
                let v = f[4...].compactMap(Double.init)
                try #require(v.count == 10, "\(line)")
                cases[name]?.rate = try #require(Double(f[2]))
                cases[name]?.samples.append(MotionSample(time: v[0], acceleration: SIMD3(v[1], v[2], v[3]),
                                                         rotationRate: SIMD3(v[4], v[5], v[6]), magneticField: SIMD3(v[7], v[8], v[9])))
            } else {
                let v = f[3...].compactMap(Double.init)
                try #require(v.count == 22, "\(line)")
                cases[name]?.golden.append((try #require(Int(f[2])), v))
            }
        }
        return order.map { ($0, cases[$0]!) }
    }

    /// Rotation angle between p and q, accurate for tiny angles, rad.
    static func difference(_ p: Quaternion<Double>, _ v: ArraySlice<Double>) -> Double {
        let q = Quaternion(w: v[v.startIndex], x: v[v.startIndex + 1], y: v[v.startIndex + 2], z: v[v.startIndex + 3])
        let d = p * q.conjugate
        return 2 * atan2((d.x * d.x + d.y * d.y + d.z * d.z).squareRoot(), abs(d.w))
    }

    static func biasDifference(_ b: SIMD3<Double>, _ v: ArraySlice<Double>) -> Double {
        let i = v.startIndex
        return max(abs(b.x - v[i]), abs(b.y - v[i + 1]), abs(b.z - v[i + 2]))
    }

    @Test func casesCoverIrregularTime() throws {
        let cases = try Self.cases()
        #expect(cases.map(\.0) == ["jitter", "held", "gaps", "resampled"])
        for (name, c) in cases {
            let period = 1 / c.rate
            let steps = zip(c.samples.dropFirst(), c.samples).map { $0.time - $1.time }
            let irregular = steps.filter { abs($0 - period) > 0.001 * period }.count
            #expect(c.golden.last?.index == c.samples.count - 1, "\(name)")
            switch name {
            case "jitter": #expect(irregular > c.samples.count / 2)
            case "gaps":
                #expect(steps.contains { $0 == 0 })
                #expect(steps.contains { $0 > 0.5 })
            case "held": #expect(zip(c.samples.dropFirst(), c.samples).filter { $0.rotationRate == $1.rotationRate }.count > c.samples.count / 3)
            default: #expect(c.rate == 60)
            }
        }
    }

    @Test func onlineEqualsVQF() throws {
        for (name, c) in try Self.cases() {
            var six = DeviceMotionEstimator(configuration: .vqfDefaults(sampleRate: c.rate, reference: .arbitraryZVertical))
            var nine = DeviceMotionEstimator(configuration: .vqfDefaults(sampleRate: c.rate, reference: .magneticNorthZVertical))
            var next = 0, worst6 = 0.0, worst9 = 0.0, worstBias = 0.0
            for (i, s) in c.samples.enumerated() {
                six.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate)
                nine.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate, magneticField: s.magneticField)
                guard next < c.golden.count, c.golden[next].index == i else { continue }
                let v = c.golden[next].values
                worst6 = max(worst6, Self.difference(six.attitude, v[0..<4]))
                worst9 = max(worst9, Self.difference(nine.attitude, v[4..<8]))
                worstBias = max(worstBias, Self.biasDifference(nine.state.bias, v[8..<11]))
                next += 1
            }
            #expect(next == c.golden.count, "\(name)")
            #expect(worst6 < 1e-9, "\(name): online 6D differs from VQF by \(worst6) rad")
            #expect(worst9 < 1e-9, "\(name): online 9D differs from VQF by \(worst9) rad")
            #expect(worstBias < 1e-9, "\(name): online bias differs from VQF by \(worstBias) rad/s")
        }
    }

    /// Poise's own handling of time (the default, `fixedTimeStep` false) differs from VQF on
    /// these cases: the comparison above sees the option.
    @Test func realTimeStepsDifferFromVQF() throws {
        for (name, c) in try Self.cases() where name != "resampled" {
            var configuration = DeviceMotionConfiguration.vqfDefaults(sampleRate: c.rate, reference: .arbitraryZVertical)
            configuration.fixedTimeStep = false
            var six = DeviceMotionEstimator(configuration: configuration)
            for s in c.samples { six.update(time: s.time, acceleration: s.acceleration, rotationRate: s.rotationRate) }
            let last = try #require(c.golden.last)
            #expect(Self.difference(six.attitude, last.values[0..<4]) > 1e-6, "\(name)")
        }
    }

    @Test func offlineEqualsOfflineVQF() throws {
        for (name, c) in try Self.cases() {
            let out = OfflineVQF(configuration: .vqfDefaults(sampleRate: c.rate)).estimate(c.samples)
            let sixOnly = OfflineVQF(configuration: .vqfDefaults(sampleRate: c.rate, reference: .arbitraryZVertical)).estimate(c.samples)
            #expect(out.count == c.samples.count)
            var worst6 = 0.0, worst9 = 0.0, worstBias = 0.0, worstSixOnly = 0.0
            for (i, v) in c.golden {
                worst6 = max(worst6, Self.difference(out[i].attitude6D, v[11..<15]))
                worst9 = max(worst9, Self.difference(out[i].attitude, v[15..<19]))
                worstBias = max(worstBias, Self.biasDifference(out[i].bias, v[19..<22]))
                worstSixOnly = max(worstSixOnly, Self.difference(sixOnly[i].attitude, v[11..<15]))
            }
            #expect(worst6 < 1e-9, "\(name): offline 6D differs from offlineVQF by \(worst6) rad")
            #expect(worst9 < 1e-9, "\(name): offline 9D differs from offlineVQF by \(worst9) rad")
            #expect(worstSixOnly < 1e-9, "\(name): offline 6D without magnetometer differs by \(worstSixOnly) rad")
            #expect(worstBias < 1e-9, "\(name): offline bias differs from offlineVQF by \(worstBias) rad/s")
        }
    }
}
