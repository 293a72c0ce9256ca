import Foundation
import Testing
import Poise
import PoiseRecording

/// `poise fuse --offline` and `poise evaluate --offline`: the library's `DeviceMotionSmoother` on
/// the recording (through the temporary spool), from a file or a pipe, on the formats Poise
/// reads, with the usual errors.
@Suite struct OfflineFusionCommandTests {
    static var root: URL { SpectrumCommandTests.packageRoot }

    /// The output of `fuse --offline` equals the smoother run on the recording in memory, number
    /// for number (the CSV holds each number's shortest round-trip form).
    @Test func offlineOutputEqualsTheLibrarySmoother() throws {
        let input = Self.root.appendingPathComponent("data/phone-tilt-steer-100hz.csv").path
        let samples = try Recording.load(path: input).samples
        let rate = try #require(DeviceMotionConfiguration.estimatedSampleRate(of: Array(samples.prefix(2048))))
        for (mode, reference) in [("9d", AttitudeReference.magneticNorthZVertical), ("6d", .arbitraryZVertical)] {
            let run = try PoiseProcess.run(["fuse", input, "--mode", mode, "--offline"])
            #expect(run.status == 0, "\(run.stderr)")
            let smoother = DeviceMotionSmoother(configuration: DeviceMotionSmoother.defaultConfiguration(sampleRate: rate, reference: reference))
            let expected = smoother.smooth(samples.map {
                MotionSample(time: $0.time, acceleration: $0.acceleration, rotationRate: $0.rotationRate,
                             magneticField: reference.usesMagnetometer ? $0.magneticField : nil)
            })
            let lines = run.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let header = try #require(lines.first)
            #expect(lines.count == samples.count + 1)
            func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "no column \(name)") }
            let q = try ["att_qw", "att_qx", "att_qy", "att_qz"].map(column)
            let g = try ["grav_x_g", "grav_y_g", "grav_z_g"].map(column), b = try ["bias_x_radps", "bias_y_radps", "bias_z_radps"].map(column)
            let heading = try column("heading_deg")
            for (motion, fields) in zip(expected, lines.dropFirst()) {
                #expect(q.map { Double(fields[$0]) } == [motion.attitude.w, motion.attitude.x, motion.attitude.y, motion.attitude.z])
                #expect(g.map { Double(fields[$0]) } == [motion.gravity.x, motion.gravity.y, motion.gravity.z])
                #expect(b.map { Double(fields[$0]) } == [motion.bias.x, motion.bias.y, motion.bias.z])
                #expect(Double(fields[heading]) == motion.heading || (motion.heading == nil && fields[heading] == "nan"))
            }
            // Not the causal estimate under another name.
            let online = try PoiseProcess.run(["fuse", input, "--mode", mode])
            #expect(online.stdout != run.stdout)
        }
    }

    /// From a pipe the recording is spooled like a file (the same output); the spool leaves no
    /// file behind (in a temporary folder of this test's own, so other processes' spools do not
    /// count); --json says offline.
    @Test func standardInputGivesTheFilesResult() throws {
        let input = Self.root.appendingPathComponent("data/rotations-with-breaks.csv").path
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("poise-offline-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let environment = ["TMPDIR": temporary]
        for command in [["fuse", "--mode", "9d", "--offline"], ["evaluate", "--mode", "6d", "--offline", "--json"]] {
            let fromFile = try PoiseProcess.run([command[0], input] + command.dropFirst(), environment: environment)
            let piped = try PoiseProcess.run([command[0], "-"] + command.dropFirst(),
                                             standardInput: try #require(FileHandle(forReadingAtPath: input)),
                                             environment: environment)
            #expect(fromFile.status == 0 && piped.status == 0, "\(piped.stderr)")
            #expect(!fromFile.stdout.isEmpty)
            #expect(piped.stdout == fromFile.stdout.replacingOccurrences(of: "\"file\":\"\(input)\"", with: "\"file\":\"-\""))
        }
        let summary = try json(try PoiseProcess.run(["evaluate", input, "--mode", "6d", "--offline", "--json"]).stdout)
        #expect(summary["offline"] as? Bool == true)
        let online = try json(try PoiseProcess.run(["evaluate", input, "--mode", "6d", "--json"]).stdout)
        #expect(online["offline"] as? Bool == false)
        #expect((summary["total_rmse_deg"] as? Double ?? 99) < (online["total_rmse_deg"] as? Double ?? 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "temporary spool left behind")
    }

    /// --json reports the gyroscope calibration the smoother fitted (the library's fit of the
    /// same samples), and null with the fit off.
    @Test func theSummaryReportsTheGyroscopeCalibration() throws {
        let input = Self.root.appendingPathComponent("data/rotations-with-breaks.csv").path
        let samples = try Recording.load(path: input).samples
        let fit = GyroscopeSelfCalibration.fit(samples)
        for command in [["evaluate", input, "--mode", "6d", "--offline", "--json"], ["fuse", input, "--mode", "9d", "--offline", "--json"]] {
            let run = try PoiseProcess.run(command)
            #expect(run.status == 0, "\(run.stderr)")
            let calibration = try #require(try json(run.stdout)["gyroscope_calibration"] as? [String: Any])
            #expect(calibration["accepted"] as? Bool == fit.accepted)
            #expect(calibration["anchors"] as? Int == fit.anchors && calibration["pairs"] as? Int == fit.pairs)
            let rows = try #require(calibration["fitted_matrix"] as? [[Double]])
            let m = fit.fittedMatrix
            #expect(rows == [[m.r0.x, m.r0.y, m.r0.z], [m.r1.x, m.r1.y, m.r1.z], [m.r2.x, m.r2.y, m.r2.z]])
            #expect((calibration["bias_radps"] as? [Double])?.count == 3 && (calibration["matrix"] as? [[Double]])?.count == 3)
        }
        let off = try PoiseProcess.run(["evaluate", input, "--mode", "6d", "--offline", "--json", "--set", "gyroscopeSelfCalibration=false"])
        #expect(try json(off.stdout)["gyroscope_calibration"] is NSNull)
    }

    /// Bad input: the reader's error (file:line:column) and no output file; a smoother setting
    /// without --offline, or a misspelt one, is a usage error.
    @Test func badInputAndSettingsAreReported() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps\n"
        for i in 0..<300 { text += "\(Double(i) / 100),0,0,1,0,0,0\n" }
        text += "3.0,0,zero,1,0,0,0\n"
        let input = scratch.path("bad.csv")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let out = scratch.path("motion.csv")
        let run = try PoiseProcess.run(["fuse", input, "--mode", "6d", "--offline", "--out", out])
        #expect(run.status == 1 && run.stderr.contains("bad.csv:302:"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let evaluate = try PoiseProcess.run(["evaluate", input, "--mode", "6d", "--offline"])
        #expect(evaluate.status == 1 && evaluate.stderr.contains("bad.csv:302:"), "\(evaluate.stderr)")
        let good = Self.root.appendingPathComponent("data/rotations-with-breaks.csv").path
        let online = try PoiseProcess.run(["fuse", good, "--set", "carryBias=false"])
        #expect(online.status == 64 && online.stderr.contains("carryBias"), "\(online.stderr)")
        let set = try PoiseProcess.run(["fuse", good, "--offline", "--set", "carryBias=false", "--set", "restWeightTime=10"])
        #expect(set.status == 0, "\(set.stderr)")
        let plain = try PoiseProcess.run(["fuse", good, "--offline"])
        let fixedBias = try PoiseProcess.run(["fuse", good, "--offline", "--set", "smoothedBias=true"])
        #expect(plain.status == 0 && fixedBias.status == 0 && fixedBias.stdout != plain.stdout, "\(fixedBias.stderr)")
        let misspelt = try PoiseProcess.run(["fuse", good, "--offline", "--set", "carryBias=maybe"])
        #expect(misspelt.status == 64, "\(misspelt.stderr)")
        #expect(scratch.leftovers.filter { $0 != "bad.csv" }.isEmpty)
    }

    /// The real exports in ../shared/data/formats that `fuse` reads (x-io NGIMU, x-IMU3 folder
    /// with its slower magnetometer, ROS 1 bags) are fused offline too, one row per input row.
    @Test(.enabled(if: RecordingFormatCommandTests.formatsPresent, "../shared/data/formats is absent"))
    func everyFormatFuseReadsIsFusedOffline() throws {
        let formats = RecordingFormatCommandTests.formats
        for (file, mode) in [("xio_ngimu_gait_tracking/short_walk.csv", "6d"), ("xio_ximu3_logged/Left Foot 64F0EBCE (UDP)", "9d"),
                             ("ros1_bag_imu/phidgets_imu_upside_down.bag", "9d"), ("ros1_bag_imu/test2.bag", "6d")] {
            let path = formats + "/" + file
            let online = try PoiseProcess.run(["fuse", path, "--mode", mode, "--json"])
            let offline = try PoiseProcess.run(["fuse", path, "--mode", mode, "--offline", "--json"])
            #expect(online.status == 0 && offline.status == 0, "\(file): \(offline.stderr)")
            let a = try json(online.stdout), b = try json(offline.stdout)
            #expect(a["samples"] as? Int == b["samples"] as? Int && (b["samples"] as? Int ?? 0) > 100, "\(file)")
            let q = b["final_quaternion_wxyz"] as? [Double] ?? []
            #expect(q.count == 4 && q.allSatisfy(\.isFinite), "\(file)")
        }
        // What fuse cannot read, fuse --offline cannot either, with the same message.
        let xsens = RecordingFormatCommandTests.xsens
        let online = try PoiseProcess.run(["fuse", xsens, "--mode", "6d"]), offline = try PoiseProcess.run(["fuse", xsens, "--mode", "6d", "--offline"])
        #expect(online.status == 1 && offline.status == 1 && online.stderr == offline.stderr, "\(offline.stderr)")
    }
}
