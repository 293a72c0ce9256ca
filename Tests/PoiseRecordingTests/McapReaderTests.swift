import Foundation
import Poise
import Testing
@testable import PoiseRecording

/// The MCAP (ROS 2) reader on the files of Fixtures/mcap, written by Tests/Goldens/make_mcap_fixtures.py
/// with the `mcap` and `rosbags` packages from the first 4 s of test2.bag (robot_localization,
/// BSD-3-Clause; see Fixtures/mcap/SOURCE.md), and on damaged copies of them.
@Suite struct McapReaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mcap").path

    /// One message as mcap-ros2-support read it back (reference.csv).
    struct Reference {
        var file: String, topic: String, time: Double, values: [Double]
    }

    static let reference: [Reference] = {
        let text = (try? String(contentsOfFile: folder + "/reference.csv", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Reference(file: f[0], topic: f[1], time: Double(f[2])! + Double(f[3])! * 1e-9,
                             values: f[4...].compactMap { Double($0) })
        }
    }()

    /// Messages per file (files.csv).
    static let counts: [String: Int] = {
        let text = (try? String(contentsOfFile: folder + "/files.csv", encoding: .utf8)) ?? ""
        return Dictionary(uniqueKeysWithValues: text.split(separator: "\n").dropFirst().map {
            let f = $0.split(separator: ",")
            return (String(f[0]), Int(f[1])!)
        })
    }()

    static func samples(_ name: String, options: ReadOptions = ReadOptions()) throws -> (McapReader, [MotionSample]) {
        let reader = try McapReader(path: folder + "/" + name, options: options)
        var samples: [MotionSample] = []
        while try reader.read(into: &samples, maximumCount: 64) > 0 {}
        return (reader, samples)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }

    @Test(arguments: ["test2-zstd.mcap", "test2-lz4.mcap", "test2-none.mcap", "test2-unchunked.mcap", "test2-bigendian.mcap", "test2-unclosed.mcap",
                       "test2-odometry-last.mcap"])
    func everyVariantReadsWhatTheMcapLibraryReads(name: String) throws {
        let expected = Self.reference.filter { $0.file == "test2" }
        let count = try #require(Self.counts[name])
        #expect(expected.count == 200 && count <= 200)
        #expect(McapReader.recognizes(path: Self.folder + "/" + name))
        let source = try RecordingSources.open(path: Self.folder + "/" + name)
        #expect(source.schema.format == .mcap && source is McapReader)
        let (reader, samples) = try Self.samples(name)
        #expect(samples.count == count)
        for (sample, reference) in zip(samples, expected) {
            #expect(sample.time == reference.time)
            #expect(sample.acceleration == SIMD3(reference.values[0], reference.values[1], reference.values[2]) * (1 / 9.80665))
            #expect(sample.rotationRate == SIMD3(reference.values[3], reference.values[4], reference.values[5]))
            #expect(sample.magneticField == nil && sample.truth == nil)
        }
        #expect(reader.imuTopic == "/imu/data" && reader.magneticFieldTopic == nil && reader.profile == "ros2")
        #expect(reader.summary.rowsDelivered == count && reader.summary.issueCount == 0)
        #expect(reader.schema.columns.contains { $0.name == "/jackal_velocity_controller/odom" && $0.meaning == .ignored(reason: "nav_msgs/msg/Odometry, not read") })
        #expect(reader.isClosed == (name != "test2-unclosed.mcap") && reader.readSummary == reader.isClosed)
        // The chunks that hold only odometry messages are skipped by their index, undecompressed.
        #expect((reader.chunksSkipped > 0) == (name == "test2-odometry-last.mcap"))
        #expect(reader.chunksRead > 0 || name == "test2-unchunked.mcap" || name == "test2-bigendian.mcap")
    }

    @Test func test2IsAtRestWithGravityUpAt50Hz() throws {
        let (_, samples) = try Self.samples("test2-zstd.mcap")
        // The Jackal stands still for its first seconds: specific force +1 g on z (up).
        let z = samples.prefix(50).map(\.acceleration.z).reduce(0, +) / 50
        #expect(abs(z - 1) < 0.01, "\(z)")
        #expect(samples[0].time == 47.58)
        let rate = Double(samples.count - 1) / (samples.last!.time - samples[0].time)
        #expect(abs(rate - 50) < 0.01)
    }

    @Test func theMagnetometerGoesWithTheNextImuSample() throws {
        let (reader, samples) = try Self.samples("synthetic-mag.mcap")
        #expect(reader.imuTopic == "/imu/data" && reader.magneticFieldTopic == "/imu/mag")
        #expect(reader.schema.hasMagnetometer)
        let imu = Self.reference.filter { $0.file == "synthetic-mag" && $0.topic == "/imu/data" }
        let fields = Self.reference.filter { $0.file == "synthetic-mag" && $0.topic == "/imu/mag" }
        #expect(samples.count == imu.count && fields.count == 50)
        // Each reading (stamped 3 ms after an IMU sample) joins the next IMU sample, in µT.
        var expected = [SIMD3<Double>?](repeating: nil, count: imu.count)
        for field in fields {
            let k = try #require(imu.firstIndex { $0.time >= field.time })
            expected[k] = SIMD3(field.values[0], field.values[1], field.values[2]) * 1e6
        }
        #expect(samples.map(\.magneticField) == expected)
        #expect(samples.filter { $0.magneticField != nil }.count == 50)
    }

    @Test func topicOptionAndTheTopicList() throws {
        let path = Self.folder + "/test2-zstd.mcap"
        #expect(try McapReader(path: path, options: ReadOptions(topic: "/imu/data")).imuTopic == "/imu/data")
        let wrong = #expect(throws: RecordingError.self) { try McapReader(path: path, options: ReadOptions(topic: "/jackal_velocity_controller/odom")) }
        #expect(wrong?.message == "topic /jackal_velocity_controller/odom is nav_msgs/msg/Odometry, not sensor_msgs/msg/Imu; the MCAP file has /imu/data (sensor_msgs/msg/Imu), /jackal_velocity_controller/odom (nav_msgs/msg/Odometry)")
        let none = #expect(throws: RecordingError.self) { try RecordingSources.open(path: Self.folder + "/no-imu.mcap") }
        #expect(none?.message == "no sensor_msgs/msg/Imu topic; the MCAP file has /jackal_velocity_controller/odom (nav_msgs/msg/Odometry)")
    }

    @Test func infoSaysHowTheFileWasRead() throws {
        let closed = try RecordingInfo.inspect(path: Self.folder + "/test2-zstd.mcap")
        #expect(closed.format == "MCAP" && closed.rows == 200)
        #expect(closed.notes == ["channels and chunk index read from the summary section"])
        let open = try RecordingInfo.inspect(path: Self.folder + "/test2-unclosed.mcap")
        #expect(open.notes.first?.hasPrefix("not closed (no footer") == true)
        #expect(open.text.contains("  note: not closed (no footer"))
    }

    // MARK: - Damaged files

    /// The offset of the first chunk record (after the magic and the header record).
    static func firstChunk(_ bytes: [UInt8]) -> Int {
        let headerLength = Int(bytes[9]) | Int(bytes[10]) << 8
        let offset = 8 + 9 + headerLength
        #expect(bytes[offset] == 0x06)
        return offset
    }

    @Test func aDamagedZstdChunkIsAnErrorAtItsRecord() throws {
        var bytes = try Self.bytes("test2-zstd.mcap")
        let chunk = Self.firstChunk(bytes)
        for i in (chunk + 2000)..<(chunk + 2008) { bytes[i] ^= 0x5A }
        let file = TemporaryFile(bytes: bytes, name: "damaged.mcap")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte \(chunk): chunk record: ") == true, "\(String(describing: error))")
    }

    @Test func aWrongChunkCrcIsAnError() throws {
        var bytes = try Self.bytes("test2-none.mcap")
        let chunk = Self.firstChunk(bytes)
        // uncompressed_crc follows the opcode, length and three UInt64 fields.
        bytes[chunk + 9 + 24] ^= 0x01
        let file = TemporaryFile(bytes: bytes, name: "crc.mcap")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte \(chunk): chunk record: uncompressed_crc") == true, "\(String(describing: error))")
        #expect(error?.message.contains("(damaged chunk)") == true)
        // A changed message byte inside the uncompressed chunk is caught by the same CRC.
        var inside = try Self.bytes("test2-none.mcap")
        inside[chunk + 3000] ^= 0x10
        let second = TemporaryFile(bytes: inside, name: "inside.mcap")
        defer { second.remove() }
        #expect(throws: RecordingError.self) { try Recording.load(path: second.path) }
    }

    @Test func aWrongSummaryCrcIsAnError() throws {
        var bytes = try Self.bytes("test2-zstd.mcap")
        let footer = bytes.count - 8 - 29
        bytes[footer + 25] ^= 0xFF
        let file = TemporaryFile(bytes: bytes, name: "summary.mcap")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte \(footer): footer record: summary CRC") == true, "\(String(describing: error))")
    }

    /// test2-unclosed.mcap cut inside its last chunk; test2-none.mcap (one uncompressed chunk of
    /// 81,117 bytes at byte 87) cut in the middle of its only chunk.
    @Test(arguments: [("test2-unclosed.mcap", -300), ("test2-none.mcap", 87 + 9 + 40_000)])
    func aFileCutInsideARecordIsAnErrorOrAPrefixWithAnIssue(name: String, at: Int) throws {
        let bytes = try Self.bytes(name)
        let (_, all) = try Self.samples(name)
        let cut = at < 0 ? bytes.count + at : at
        let file = TemporaryFile(bytes: Array(bytes[..<cut]), name: "cut.mcap")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.contains("truncated at byte \(cut) (the recorder did not close the file?)") == true, "\(String(describing: error))")
        let lenient = try McapReader(path: file.path, options: ReadOptions(strict: false))
        var samples: [MotionSample] = []
        while let sample = try lenient.next() { samples.append(sample) }
        #expect(samples.count < all.count && samples.count > 50 && Array(all.prefix(samples.count)) == samples, "\(samples.count) of \(all.count)")
        #expect(lenient.summary.issueCounts[.truncatedLastLine] == 1)
        let issue = try #require(lenient.issues.first { $0.kind == .truncatedLastLine })
        #expect(issue.location.message.contains("truncated at byte \(cut)") && issue.location.message.contains("are lost"), "\(issue.location.message)")
    }

    @Test(arguments: ["test2-zstd.mcap", "test2-unchunked.mcap"])
    func everyTruncationThrowsOrReadsAPrefix(name: String) throws {
        let bytes = try Self.bytes(name)
        let (_, all) = try Self.samples(name)
        for length in stride(from: 0, to: bytes.count, by: 97) {
            let file = TemporaryFile(bytes: Array(bytes[..<length]), name: "cut.mcap")
            defer { file.remove() }
            do {
                let samples = try Recording.load(path: file.path).samples
                #expect(samples.count <= all.count && Array(all.prefix(samples.count)) == samples, "cut at \(length)")
            } catch is RecordingError {}
        }
    }

    @Test(arguments: ["test2-zstd.mcap", "test2-lz4.mcap", "test2-unchunked.mcap", "synthetic-mag.mcap"])
    func everyByteDamagedEndsOrThrowsWithoutATrap(name: String) throws {
        let bytes = try Self.bytes(name)
        for index in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 700)) {
            var damaged = bytes
            damaged[index] ^= 0xFF
            let file = TemporaryFile(bytes: damaged, name: "damaged.mcap")
            defer { file.remove() }
            do {
                let reader = try McapReader(path: file.path, options: ReadOptions(strict: false))
                while let sample = try reader.next() { #expect(sample.time.isFinite) }
            } catch is RecordingError {}
        }
    }

    @Test func otherCompressionsAreNamed() throws {
        var bytes = try Self.bytes("test2-lz4.mcap")
        let chunk = Self.firstChunk(bytes)
        // The compression string follows uncompressed_crc: length 3, "lz4" → "xz4".
        #expect(bytes[(chunk + 9 + 32)..<(chunk + 9 + 35)] == [UInt8(ascii: "l"), UInt8(ascii: "z"), UInt8(ascii: "4")])
        bytes[chunk + 9 + 32] = UInt8(ascii: "x")
        let file = TemporaryFile(bytes: bytes, name: "xz4.mcap")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.hasPrefix("record at byte \(chunk): chunk record: compressed with xz4: Poise reads uncompressed, lz4 and zstd chunks") == true,
                "\(String(describing: error))")
    }

    @Test func aZstdChunkCutInsideItsOnlyBlockSaysTruncatedNotNoTopics() throws {
        // A zstd chunk cut inside its one block holds nothing readable: the error says truncated,
        // not only that no topic was found.
        let zstd = try Self.bytes("test2-zstd.mcap")
        let zstdCut = TemporaryFile(bytes: Array(zstd[..<(87 + 9 + 10_000)]), name: "zstd-cut.mcap")
        defer { zstdCut.remove() }
        for strict in [true, false] {
            let error = #expect(throws: RecordingError.self) { try McapReader(path: zstdCut.path, options: ReadOptions(strict: strict)) }
            #expect(error?.message.hasPrefix("record at byte 87: truncated at byte \(87 + 9 + 10_000) (the recorder did not close the file?)") == true, "\(String(describing: error))")
        }
    }

    @Test func aFileWithoutItsLastBytesIsTruncatedNotSilentlyRead() throws {
        let bytes = try Self.bytes("test2-zstd.mcap")
        let (_, all) = try Self.samples("test2-zstd.mcap")
        let file = TemporaryFile(bytes: Array(bytes.dropLast(14)), name: "short.mcap")
        defer { file.remove() }
        let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
        #expect(error?.message.contains("truncated at byte \(bytes.count - 14) (the recorder did not close the file?)") == true, "\(String(describing: error))")
        let lenient = try McapReader(path: file.path, options: ReadOptions(strict: false))
        var samples: [MotionSample] = []
        while let sample = try lenient.next() { samples.append(sample) }
        #expect(samples == all)
        #expect(lenient.summary.issueCounts[.truncatedLastLine] == 1)
    }

    @Test func theDataSectionCrcIsCheckedWhenWritten() throws {
        // test2-none.mcap's data end record (found by walking the records) carries
        // data_section_crc 0: set it to the CRC-32 of the bytes before it, then to a wrong one.
        var bytes = try Self.bytes("test2-none.mcap")
        var offset = 8
        while bytes[offset] != 0x0F {
            offset += 9 + Int(bytes.withUnsafeBufferPointer { $0.littleEndianUInt64(at: offset + 1) })
        }
        let crc = bytes.withUnsafeBufferPointer { Crc32.checksum(UnsafeBufferPointer(rebasing: $0[..<offset])) }
        for (value, good) in [(crc, true), (crc ^ 1, false)] {
            for i in 0 ..< 4 { bytes[offset + 9 + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
            let file = TemporaryFile(bytes: bytes, name: "crc.mcap")
            defer { file.remove() }
            if good {
                #expect(try Recording.load(path: file.path).samples == Self.samples("test2-none.mcap").1)
            } else {
                let error = #expect(throws: RecordingError.self) { try Recording.load(path: file.path) }
                #expect(error?.message == "record at byte \(offset): data end record: data_section_crc 0x\(String(value, radix: 16)) differs from the data section's 0x\(String(crc, radix: 16)) (damaged file)",
                        "\(String(describing: error))")
            }
        }
    }
}
