import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// The ROS 1 bag reader on the real bags in ../shared/data/formats/ros1_bag_imu (skipped, and
/// reported so, when the folder is absent) and on small bags built here, sound and hostile.
@Suite struct RosBagReaderTests {
    static let folder = sharedDataFolder().map { $0 + "/formats/ros1_bag_imu" }

    // Reference values from Tests/Goldens/rosbag_first_messages.py (the `rosbags` package, 0.11.9,
    // reading the same files independently of Poise).

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func test2BagReadsItsImuTopicAt50Hz() throws {
        let path = try #require(Self.folder) + "/test2.bag"
        let reader = try RecordingSources.open(path: path)
        #expect(reader.schema.format == .rosBag1)
        #expect(reader.schema.hasAccelerometer && reader.schema.hasGyroscope && !reader.schema.hasMagnetometer && !reader.schema.hasTruth)
        #expect(reader.schema.columns.contains { $0.name == "/jackal_velocity_controller/odom" && $0.meaning == .ignored(reason: "nav_msgs/Odometry, not read") })
        var samples: [MotionSample] = []
        while try reader.read(into: &samples, maximumCount: 1000) > 0 {}
        #expect(samples.count == 3061)
        let first = samples[0]
        // /imu/data #1: stamp 47.580000000 acc -0.5942556862503618 0.15657528786590588 9.703827518410009
        // gyro 0.006656444803353631 -0.00236638747633773 0.04275138193045083
        #expect(first.time == 47.58)
        #expect(first.acceleration == SIMD3(-0.5942556862503618, 0.15657528786590588, 9.703827518410009) / 9.80665)
        #expect(first.rotationRate == SIMD3(0.006656444803353631, -0.00236638747633773, 0.04275138193045083))
        #expect(first.magneticField == nil && first.truth == nil)
        let rate = Double(samples.count - 1) / (samples.last!.time - first.time)
        #expect(abs(rate - 50) < 0.1)
        #expect(reader.summary.rowsDelivered == 3061 && reader.summary.issueCount == 0)
        // A read buffer smaller than the compressed chunks gives the same samples.
        #expect(try Recording.load(path: path, options: ReadOptions(bufferSize: 4096)).samples == samples)
    }

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func phidgetsBagMergesItsMagnetometerUpsideDown() throws {
        let path = try #require(Self.folder) + "/phidgets_imu_upside_down.bag"
        let reader = try RosBagReader(path: path)
        #expect(reader.imuTopic == "/imu/data_raw" && reader.magneticFieldTopic == "/imu/mag")
        var samples: [MotionSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(samples.count == 13_964)
        // 13,964 MagneticField messages, of which rosbags finds 6,990 with NaN fields (no reading).
        #expect(reader.magneticFieldMessagesWithoutReading == 6990)
        // Of the 6,974 readings, 29 are followed by another before the next IMU sample, which
        // then carries only the later one (this reader's own count, not from rosbags).
        #expect(samples.filter { $0.magneticField != nil }.count == 6945)
        let first = samples[0]
        // /imu/data_raw #1: stamp 1360242236.211312933 acc -0.202086008644104 -0.10555560451507569
        // -9.869743322172164 gyro 0.0 0.000351509311351658 0.004450415059660341
        #expect(first.time == 1360242236.0 + 211312933 * 1e-9)
        #expect(first.acceleration == SIMD3(-0.202086008644104, -0.10555560451507569, -9.869743322172164) / 9.80665)
        #expect(first.rotationRate == SIMD3(0.0, 0.000351509311351658, 0.004450415059660341))
        // /imu/mag #1 (same stamp): field 3.6360000000000004e-06 1.4241000000000001e-05 3.4542e-05 T
        let field = try #require(first.magneticField)
        #expect(abs(field.x - 3.636) < 1e-9 && abs(field.y - 14.241) < 1e-9 && abs(field.z - 34.542) < 1e-9)
        // Upside down: about −1 g on z.
        #expect(abs(first.acceleration.z + 1) < 0.02)
        let rate = Double(samples.count - 1) / (samples.last!.time - first.time)
        #expect(abs(rate - 248.3) < 0.5)
    }

    @Test(.enabled(if: sharedDataPresent, "../shared/data is absent"))
    func aCorruptBz2ChunkIsAnErrorAtItsByte() throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: try #require(Self.folder) + "/test2.bag")))
        // The first chunk record starts at byte 4117; damage its compressed data.
        for i in 5000..<5016 { bytes[i] ^= 0x5A }
        let file = TemporaryFile(bytes: bytes, name: "corrupt.bag")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte 4117: bz2 chunk") == true, "\(String(describing: error))")
    }

    // MARK: - Built bags

    static func sound(compression: String = "none") -> SyntheticRosBag {
        var bag = SyntheticRosBag(compression: compression)
        bag.connections = [.init(id: 0, topic: "/imu/data", type: "sensor_msgs/Imu", md5sum: SyntheticRosBag.imuMD5),
                           .init(id: 1, topic: "/imu/mag", type: "sensor_msgs/MagneticField", md5sum: SyntheticRosBag.magneticFieldMD5),
                           .init(id: 2, topic: "/odom", type: "nav_msgs/Odometry", md5sum: "cd5e73d190d741a2f92e81eda573aca7")]
        for k in 0..<4 {
            let nsec = UInt32(k) * 10_000_000
            bag.messages.append((0, SyntheticRosBag.imu(sec: 5, nsec: nsec, acceleration: [0, 0, 9.80665], angularVelocity: [0.1, 0, Double(k)])))
            bag.messages.append((2, [1, 2, 3]))
            if k == 1 || k == 2 {
                bag.messages.append((1, SyntheticRosBag.magneticField(sec: 5, nsec: nsec + 5_000_000, field: [20e-6, 0, Double(k) * 1e-5])))
            }
        }
        return bag
    }

    @Test func anUncompressedBagReadsInCoreUnitsWithTheMagnetometerOnTheNextSample() throws {
        let file = TemporaryFile(bytes: Self.sound().bytes(), name: "sound.bag")
        defer { file.remove() }
        let recording = try Recording.load(path: file.path)
        #expect(recording.schema.format == .rosBag1 && recording.schema.hasMagnetometer)
        #expect(recording.samples.map(\.time) == [5, 5.01, 5.02, 5.03])
        #expect(recording.samples.allSatisfy { $0.acceleration == [0, 0, 1] })
        #expect(recording.samples.map(\.rotationRate.z) == [0, 1, 2, 3])
        // A reading stamped 5.015 s goes with the sample at 5.02 s, the one at 5.025 s with 5.03 s.
        #expect(recording.samples.map { $0.magneticField?.z } == [nil, nil, 10, 20])
        #expect(recording.samples[2].magneticField?.x == 20)
    }

    @Test func topicOptionChoosesTheImuTopicAndNamesTheOthers() throws {
        let file = TemporaryFile(bytes: Self.sound().bytes(), name: "sound.bag")
        defer { file.remove() }
        #expect(try RosBagReader(path: file.path, options: ReadOptions(topic: "/imu/data")).imuTopic == "/imu/data")
        let wrong = #expect(throws: RecordingError.self) { try RosBagReader(path: file.path, options: ReadOptions(topic: "/odom")) }
        #expect(wrong?.message.contains("topic /odom is nav_msgs/Odometry, not sensor_msgs/Imu") == true)
        let missing = #expect(throws: RecordingError.self) { try RosBagReader(path: file.path, options: ReadOptions(topic: "/nope")) }
        #expect(missing?.message.contains("/imu/mag (sensor_msgs/MagneticField)") == true)
    }

    @Test func aBagWithoutAnImuTopicListsItsTopics() throws {
        var bag = SyntheticRosBag()
        bag.connections = [.init(id: 0, topic: "/odom", type: "nav_msgs/Odometry", md5sum: "x")]
        bag.messages = [(0, [1, 2, 3])]
        let file = TemporaryFile(bytes: bag.bytes(), name: "odom.bag")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try RecordingSources.open(path: file.path) }
        #expect(error?.message == "no sensor_msgs/Imu topic; the bag has /odom (nav_msgs/Odometry)")
    }

    @Test func everyTruncationThrows() throws {
        let bytes = Self.sound().bytes()
        for length in stride(from: 13, to: bytes.count, by: 7) {
            let file = TemporaryFile(bytes: Array(bytes[..<length]), name: "cut.bag")
            defer { file.remove() }
            #expect(throws: RecordingError.self, "cut at \(length)") { try Recording.load(path: file.path) }
        }
    }

    @Test func everyByteDamagedEndsOrThrowsWithoutATrap() throws {
        let bytes = Self.sound().bytes()
        for index in stride(from: 13, to: bytes.count, by: 3) where !(30..<4000).contains(index) {
            var damaged = bytes
            damaged[index] ^= 0xFF
            let file = TemporaryFile(bytes: damaged, name: "damaged.bag")
            defer { file.remove() }
            do { _ = try Recording.load(path: file.path) } catch is RecordingError {}
        }
    }

    @Test func aHugeLengthFieldIsAnErrorAtItsRecord() throws {
        var bytes = Self.sound().bytes()
        // The chunk record starts after the magic line (13 bytes) and the 4096-byte bag header
        // record; its first record (a connection record) 4109 + header + 4 further on. Set the
        // chunk record's data length to 0xFFFFFFF0.
        let chunk = 13 + 4096
        let headerLength = Int(bytes[chunk]) | Int(bytes[chunk + 1]) << 8
        for k in 0..<4 { bytes[chunk + 4 + headerLength + k] = k == 0 ? 0xF0 : 0xFF }
        let file = TemporaryFile(bytes: bytes, name: "huge.bag")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte \(chunk): data length 4294967280 runs past byte") == true, "\(String(describing: error))")
    }

    @Test func compressionsOtherThanBz2AndLz4AreNamed() throws {
        let file = TemporaryFile(bytes: Self.sound(compression: "zstd").bytes(), name: "zstd.bag")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte 4109: chunk compressed with zstd") == true, "\(String(describing: error))")
    }

    @Test func anLz4ChunkReadsLikeTheUncompressedOne() throws {
        let plain = TemporaryFile(bytes: Self.sound().bytes(), name: "plain.bag")
        let lz4 = TemporaryFile(bytes: Self.sound(compression: "lz4").bytes(), name: "lz4.bag")
        defer { plain.remove(); lz4.remove() }
        #expect(try Recording.load(path: lz4.path).samples == Recording.load(path: plain.path).samples)
    }

    @Test func anUnknownOpCodeIsAnErrorAtItsRecord() throws {
        var bytes = Self.sound().bytes()
        // The chunk record's header starts with its op field: `len, op=\u{05}`.
        let chunk = 13 + 4096
        #expect(bytes[chunk + 8 ..< chunk + 11] == [UInt8(ascii: "o"), UInt8(ascii: "p"), UInt8(ascii: "=")])
        bytes[chunk + 11] = 0x42
        let file = TemporaryFile(bytes: bytes, name: "op.bag")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.description.hasSuffix("op.bag: record at byte \(chunk): unknown op code 0x42 (a ROS 1 bag v2.0 has 0x02…0x07)") == true, "\(String(describing: error))")
    }

    @Test(.enabled(if: folder != nil, "../shared/data/formats/ros1_bag_imu is absent"))
    func aBagCutShortSaysTruncatedAndLenientReadingKeepsTheChunksBeforeTheCut() throws {
        let path = try #require(Self.folder) + "/test2.bag"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let all = try Recording.load(path: path).samples
        let cut = bytes.count / 2  // inside a bz2 chunk; the index at the end is lost
        let file = TemporaryFile(bytes: Array(bytes[..<cut]), name: "cut.bag")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.contains("truncated at byte \(cut) (the recorder did not close the file?)") == true, "\(String(describing: error))")
        let lenient = try RosBagReader(path: file.path, options: ReadOptions(strict: false))
        #expect(!lenient.isIndexed)
        var samples: [MotionSample] = []
        while let sample = try lenient.next() { samples.append(sample) }
        #expect(samples.count > 100 && samples.count < all.count && Array(all.prefix(samples.count)) == samples, "\(samples.count) of \(all.count)")
        let issue = try #require(lenient.issues.first { $0.kind == .truncatedLastLine })
        #expect(issue.location.message.contains("truncated at byte \(cut)") && issue.location.message.contains("are lost"), "\(issue.location.message)")
        // A bag whose recorder never wrote its index (index_pos 0), also cut: the same prefix.
        var unindexed = Array(bytes[..<cut])
        let field = Array("index_pos=".utf8)
        let at = try #require((0 ..< 4096).first { Array(unindexed[$0 ..< $0 + field.count]) == field }) + field.count
        for i in 0 ..< 8 { unindexed[at + i] = 0 }
        let active = TemporaryFile(bytes: unindexed, name: "active.bag")
        defer { active.remove() }
        #expect(throws: RecordingError.self) { try Recording.load(path: active.path) }
        let scanned = try RosBagReader(path: active.path, options: ReadOptions(strict: false))
        var again: [MotionSample] = []
        while let sample = try scanned.next() { again.append(sample) }
        #expect(again == samples)
    }
}
