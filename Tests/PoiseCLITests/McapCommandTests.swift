import Foundation
import PoiseCLI
import Testing

/// Commands on the MCAP test files of Tests/PoiseRecordingTests/Fixtures/mcap (committed), and
/// against the ROS 1 bag they were converted from (../shared/data, skipped when absent).
@Suite("Commands on MCAP files")
struct McapCommandTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = package.appendingPathComponent("Tests/PoiseRecordingTests/Fixtures/mcap").path
    static let test2Bag: String? = {
        let path = package.deletingLastPathComponent().appendingPathComponent("shared/data/formats/ros1_bag_imu/test2.bag").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    @Test("info names the format and how the file was read; --topic picks the IMU topic or lists the topics")
    func info() throws {
        let text = try InfoCommand.parse([Self.fixtures + "/test2-zstd.mcap", "--topic", "/imu/data"]).output()
        #expect(text.contains("format MCAP, 200 rows"))
        #expect(text.contains("sample rate 50.000 Hz"))
        #expect(text.contains("  note: channels and chunk index read from the summary section"))
        let open = try InfoCommand.parse([Self.fixtures + "/test2-unclosed.mcap"]).output()
        #expect(open.contains("  note: not closed (no footer"))
        let error = #expect(throws: (any Error).self) { try InfoCommand.parse([Self.fixtures + "/no-imu.mcap"]).output() }
        #expect("\(error!)".contains("no sensor_msgs/msg/Imu topic; the MCAP file has /jackal_velocity_controller/odom (nav_msgs/msg/Odometry)"))
        // A CSV mapping is refused, not dropped.
        let mapped = #expect(throws: (any Error).self) { try InfoCommand.parse([Self.fixtures + "/test2-zstd.mcap", "--skip-lines", "1"]).output() }
        #expect("\(mapped!)".contains("an MCAP file's topics are chosen with --topic"))
    }

    @Test("convert gives the rows the ROS 1 bag gives, for its first 200 messages",
          .enabled(if: test2Bag != nil, "../shared/data/formats/ros1_bag_imu/test2.bag is absent (fresh clone): skipped"))
    func convertMatchesTheBag() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fromBag = scratch.path("bag.csv"), fromMcap = scratch.path("mcap.csv")
        #expect(try PoiseProcess.run(["convert", try #require(Self.test2Bag), "--out", fromBag]).status == 0)
        #expect(try PoiseProcess.run(["convert", Self.fixtures + "/test2-zstd.mcap", "--out", fromMcap]).status == 0)
        let bagLines = try String(contentsOfFile: fromBag, encoding: .utf8).split(separator: "\n")
        let mcapLines = try String(contentsOfFile: fromMcap, encoding: .utf8).split(separator: "\n")
        #expect(mcapLines.count == 201 && bagLines.count == 3062)
        #expect(Array(bagLines.prefix(201)) == mcapLines)
    }

    @Test("a file that ends inside a record does not convert (strict); info names the truncation")
    func truncatedFilesAreNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/test2-zstd.mcap"))
        let short = scratch.path("short.mcap"), cut = scratch.path("cut.mcap")
        try bytes.dropLast(14).write(to: URL(fileURLWithPath: short))
        try bytes.prefix(87 + 9 + 10_000).write(to: URL(fileURLWithPath: cut))
        let converted = try PoiseProcess.run(["convert", short, "--out", scratch.path("short.csv")])
        #expect(converted.status == 1 && converted.stderr.contains("truncated at byte \(bytes.count - 14) (the recorder did not close the file?)"), "\(converted)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("short.csv")))
        let info = try PoiseProcess.run(["info", cut])
        #expect(info.status == 1 && info.stderr.contains("truncated at byte \(87 + 9 + 10_000)") && !info.stderr.hasPrefix("no sensor"), "\(info)")
    }
}
