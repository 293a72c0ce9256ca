#if canImport(Glibc)
import Glibc
#endif
import Testing
import Poise
@testable import PoiseRecording

@Suite struct RecordingReaderTests {
    static let broadHeader = "t_s,acc_x_mps2,acc_y_mps2,acc_z_mps2,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT,gt_qw,gt_qx,gt_qy,gt_qz,gt_pos_x_m,gt_pos_y_m,gt_pos_z_m,movement"

    func read(_ text: String, strict: Bool = true, apple: Bool = false, bufferSize: Int = 1 << 20,
              memoryMap: Bool = true) throws -> Recording {
        let file = TemporaryFile(text)
        defer { file.remove() }
        return try Recording.load(path: file.path, options: ReadOptions(appleAccelerometerSign: apple, strict: strict,
                                                                         bufferSize: bufferSize, memoryMap: memoryMap))
    }

    func error(_ text: String, strict: Bool = true, bufferSize: Int = 1 << 20) -> RecordingError? {
        #expect(throws: RecordingError.self) { _ = try read(text, strict: strict, bufferSize: bufferSize) }
    }

    /// A multi-rate log (the magnetometer slower than the IMU): a row whose magnetometer fields
    /// are all empty holds the previous reading, in strict reading too; counted, first one stored.
    @Test func emptySensorFieldsHoldTheSlowerSensorsPreviousReading() throws {
        let header = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT\n"
        var text = header
        for i in 0..<40 {
            let mag = i % 4 == 0 ? "\(20 + i),1,-40" : ",,"
            text += "\(Double(i) / 100),0,0,1,0.1,0,0,\(mag)\n"
        }
        let recording = try read(text)
        #expect(recording.samples.count == 40)
        for (i, sample) in recording.samples.enumerated() {
            #expect(sample.magneticField == SIMD3(Double(20 + i / 4 * 4), 1, -40), "row \(i)")
            #expect(sample.acceleration == SIMD3(0, 0, 1))
        }
        #expect(recording.summary.issueCounts[.heldSensor] == 30)
        #expect(recording.issues.filter { $0.kind == .heldSensor }.count == 1)
        #expect(recording.summary.rowsRepaired == 0 && recording.summary.rowsDropped == 0)
        // Not held: a partly empty sensor, an empty time, an accelerometer empty in the first row.
        #expect(error(header + "0,0,0,1,0,0,0,1,2,3\n0.01,0,0,1,0,0,0,1,,3\n")?.column == 9)
        #expect(error(header + "0,0,0,1,0,0,0,1,2,3\n,0,0,1,0,0,0,,,\n")?.column == 1)
        #expect(error(header + ",,,0,0,0,1,2,3\n")?.line == 2)
        // A magnetometer before its first reading: samples without one.
        let late = try read(header + "0,0,0,1,0,0,0,,,\n0.01,0,0,1,0,0,0,,,\n0.02,0,0,1,0,0,0,5,6,7\n0.03,0,0,1,0,0,0,,,\n")
        #expect(late.samples.map(\.magneticField) == [nil, nil, SIMD3(5, 6, 7), SIMD3(5, 6, 7)])
    }

    @Test func broadRowsConvertUnitsAndMissingTruthBecomesNil() throws {
        let text = Self.broadHeader + "\n"
            + "0.000000,0.1154663,-0.001842788,9.860071,0.003195698,0.002131047,-0.004260349,-0.4840829,14.64445,-41.20704,nan,nan,nan,nan,0.09,-0.56,1.22,0\n"
            + "0.003500,0,0,9.80665,1,2,3,4,5,6,0.5,0.5,0.5,0.5,nan,nan,nan,1\n"
        let r = try read(text)
        #expect(r.samples.count == 2)
        #expect(r.schema.format == .poise)
        #expect(r.samples[0].truth == nil)
        #expect(r.samples[0].movement == false)
        #expect(r.samples[0].acceleration.x == 0.1154663 / 9.80665)
        #expect(r.samples[1].acceleration == SIMD3(0, 0, 9.80665 / 9.80665))
        #expect(r.samples[1].rotationRate == SIMD3(1, 2, 3))
        #expect(r.samples[1].magneticField == SIMD3(4, 5, 6))
        #expect(r.samples[1].truth == Quaternion(w: 0.5, x: 0.5, y: 0.5, z: 0.5))
        #expect(r.samples[1].movement == true)
        #expect(r.summary.rowsWithoutTruth == 1)
        #expect(r.issues.isEmpty)
    }

    @Test func unitsOfEveryRecognisedLayout() throws {
        let xio = try read("Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)\n0.5,180,0,-90,0,0,1,15,0.4,-41\n")
        #expect(xio.schema.format == .xioFusion)
        #expect(xio.samples[0].rotationRate == SIMD3(180 * (Double.pi / 180), 0, -90 * (Double.pi / 180)))
        #expect(xio.samples[0].acceleration == SIMD3(0, 0, 1))
        let phyphox = try read("Time (s),Acceleration x (m/s^2),Acceleration y (m/s^2),Acceleration z (m/s^2)\n1,0,0,9.80665\n")
        #expect(phyphox.schema.format == .phyphox)
        #expect(phyphox.samples[0].acceleration.z == 1)
        #expect(phyphox.samples[0].magneticField == nil)
        let euroc = try read("#timestamp [ns],w_RS_S_x [rad s^-1],w_RS_S_y [rad s^-1],w_RS_S_z [rad s^-1],a_RS_S_x [m s^-2],a_RS_S_y [m s^-2],a_RS_S_z [m s^-2]\n1403636579758555392,-0.099134701513277898,0.14032447186034408,0.02299070358956609,8.1476917083333333,-0.37592158333333331,-2.4026292499999999\n")
        #expect(euroc.schema.format == .euroc)
        #expect(euroc.samples[0].time == 1403636579758555392 * 1e-9)
        #expect(euroc.samples[0].rotationRate.x == -0.099134701513277898)
        let nanoseconds = try read("t_ns,gyr_x_dps,gyr_y_dps,gyr_z_dps,mag_x_nT,mag_y_nT,mag_z_nT\n2000000000,90,0,0,1000,0,-2000\n")
        #expect(nanoseconds.samples[0].time == 2)
        #expect(nanoseconds.samples[0].rotationRate.x == 90 * (Double.pi / 180))
        #expect(nanoseconds.samples[0].magneticField == SIMD3(1, 0, -2))
    }

    @Test func appleSignOnlyWhenAsked() throws {
        let text = "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0.1,0,-1\n"
        #expect(try read(text).samples[0].acceleration == SIMD3(0.1, 0, -1))
        #expect(try read(text, apple: true).samples[0].acceleration == SIMD3(-0.1, 0, 1))
    }

    @Test func spacesCarriageReturnsAndMissingFinalLineBreakAreFine() throws {
        let r = try read("t_s, acc_x_g ,acc_y_g,acc_z_g\r\n 0 , 1,2,3\r\n0.01,4,5,6")
        #expect(r.samples.map(\.acceleration) == [SIMD3(1, 2, 3), SIMD3(4, 5, 6)])
        #expect(r.issues.isEmpty)
    }

    // MARK: bad input, one test each

    @Test func emptyFile() {
        let e = error("")
        #expect(e?.line == 0 && e?.message.contains("empty file") == true)
    }

    @Test func headerWithoutRowsIsAWarning() throws {
        let r = try read("t_s,acc_x_g,acc_y_g,acc_z_g\n")
        #expect(r.samples.isEmpty)
        #expect(r.summary.issueCounts[.noData] == 1)
    }

    @Test func unknownColumnIsIgnoredWithANoteInBothModes() throws {
        let text = "t_s,acc_x_g,acc_y_g,acc_z_g,speed_kmh\n0,0,0,1,12\n"
        for strict in [true, false] {
            let r = try read(text, strict: strict)
            #expect(r.samples.count == 1 && r.samples[0].acceleration.z == 1)
            #expect(r.issues.first?.kind == .unknownColumn && r.issues.first?.action == .kept)
            #expect(r.issues.first?.location.line == 1 && r.issues.first?.location.column == 5)
            #expect(r.schema.columns[4].meaning == .ignored(reason: "not a quantity Poise reads"))
        }
    }

    @Test func filesWithoutATimeColumnAreTimedByTheGivenRate() throws {
        let text = "acc_x_g,acc_y_g,acc_z_g\n0,0,1\n0,0,x\n\n0,1,0\n1,0,0\n"
        let file = TemporaryFile(text)
        defer { file.remove() }
        // Without a rate: a header error that says what to do.
        let missing = error("acc_x_g,acc_y_g,acc_z_g\n0,0,1\n")
        #expect(missing?.line == 1 && missing?.message.contains("--rate") == true)
        // With one: row n (counting the dropped bad row, not the blank line) at n / rate.
        let recording = try Recording.load(path: file.path, options: ReadOptions(strict: false, sampleRate: 50))
        #expect(recording.samples.map(\.time) == [0, 2.0 / 50, 3.0 / 50])
        #expect(recording.samples.map(\.acceleration) == [SIMD3(0, 0, 1), SIMD3(0, 1, 0), SIMD3(1, 0, 0)])
        #expect(recording.summary.rowsDropped == 1 && !recording.schema.hasTime)
        // Strict mode still stops at the bad row, naming line and column.
        #expect(throws: RecordingError.self) { _ = try Recording.load(path: file.path, options: ReadOptions(sampleRate: 50)) }
        do { _ = try Recording.load(path: file.path, options: ReadOptions(sampleRate: 50)) } catch let e as RecordingError {
            #expect(e.line == 3 && e.column == 3)
        }
        // A file with times keeps them; the rate is ignored.
        let timed = try read("t_s,acc_x_g,acc_y_g,acc_z_g\n0.5,0,0,1\n0.75,0,0,1\n")
        #expect(timed.samples.map(\.time) == [0.5, 0.75])
        for bad in [0.0, -5, .nan, .infinity] {
            #expect(throws: RecordingError.self) { _ = try Recording.load(path: file.path, options: ReadOptions(sampleRate: bad)) }
        }
        // The fast batch path is not used without times, and agrees with the per-row path.
        var long = "acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0..<5000 { long += "0.\(i % 97),-0.25,1.5\n" }
        let longFile = TemporaryFile(long)
        defer { longFile.remove() }
        let reader = try RecordingReader(path: longFile.path, options: ReadOptions(sampleRate: 200))
        var batch: [MotionSample] = []
        while try reader.read(into: &batch, maximumCount: 999) > 0 {}
        #expect(batch.count == 5000 && batch.enumerated().allSatisfy { $0.element.time == Double($0.offset) / 200 })
    }

    @Test func missingAndIncompleteAndDuplicateColumns() {
        #expect(error("acc_x_g,acc_y_g,acc_z_g\n0,0,1\n")?.message.contains("missing time column") == true)
        let incomplete = error("t_s,acc_x_g,acc_y_g\n0,0,1\n")
        #expect(incomplete?.message.contains("missing z") == true)
        let duplicate = error("t_s,acc_x_g,acc_y_g,acc_z_g,acc_x_mps2\n0,0,0,1,0\n")
        #expect(duplicate?.column == 5 && duplicate?.message.contains("duplicate") == true)
        // A header in one cell: no time or sensor column, and the error lists the header.
        let unsplit = error("t_s|acc_x_g|acc_y_g|acc_z_g\n0|0|0|1\n")
        #expect(unsplit?.message.contains("missing time column") == true && unsplit?.message.contains("Header: 't_s|acc_x_g") == true)
        #expect(error("t_s,gt_qw,gt_qx,gt_qy,gt_qz\n0,1,0,0,0\n")?.message.contains("no sensor columns") == true)
    }

    static let small = "t_s,acc_x_g,acc_y_g,acc_z_g\n"

    @Test func wrongFieldCount() throws {
        let text = Self.small + "0,0,0,1\n0.01,0,0\n0.02,0,0,1,5\n0.03,0,0,1\n"
        let e = error(text)
        #expect(e?.line == 3 && e?.column == 4 && e?.message.contains("expected 4 fields, found 3") == true)
        let r = try read(text, strict: false)
        #expect(r.samples.map(\.time) == [0, 0.03])
        #expect(r.summary.rowsDropped == 2 && r.summary.issueCounts[.wrongFieldCount] == 2)
        #expect(r.issues.map(\.location.line) == [3, 4] && r.issues.allSatisfy { $0.action == .dropped })
    }

    @Test func nonNumericAndEmptyFields() throws {
        let text = Self.small + "0,0,0,1\n0.01,0,abc,1\n0.02,0,,1\n0.03,0,0,1\n"
        let e = error(text)
        #expect(e?.line == 3 && e?.column == 3 && e?.message.contains("'abc' is not a number (column acc_y_g)") == true)
        let r = try read(text, strict: false)
        #expect(r.samples.count == 2 && r.summary.rowsDropped == 2)
        #expect(r.issues[1].location.line == 4 && r.issues[1].location.column == 3 && r.issues[1].location.message.contains("empty field"))
    }

    /// The same bad fields deep inside a long file (where the batch fast path runs) are caught too.
    @Test func badFieldsInTheMiddleOfALongFile() throws {
        var rows = (0..<400).map { "\(Double($0) / 100),0.5,-0.25,1" }
        rows[200] = "2,0.5,,1"
        rows[250] = "2.5,0.5,-,1"
        rows[300] = "3,0.5,abc,1"
        rows[350] = "3.5,0.5,0.25"
        let text = Self.small + rows.joined(separator: "\n") + "\n"
        let e = error(text)
        #expect(e?.line == 202 && e?.column == 3 && e?.message.contains("empty field") == true)
        let r = try read(text, strict: false)
        #expect(r.samples.count == 396 && r.summary.rowsDropped == 4)
        let dropped = r.issues.filter { $0.action == .dropped }
        #expect(dropped.map(\.location.line) == [202, 252, 302, 352])
        #expect(dropped.map(\.kind) == [.notANumber, .notANumber, .notANumber, .wrongFieldCount])
        // Each dropped row leaves a gap of two intervals before the next row, reported as a warning.
        #expect(r.issues.filter { $0.kind == .gap }.map(\.location.line) == [203, 253, 303, 353])
    }

    @Test func nonFiniteValuesAreErrorsOrHeldInLenientMode() throws {
        let text = Self.small + "0,0,0,1\n0.01,0,inf,1\n0.02,nan,0,1\nnan,0,0,1\n0.03,0,0,1\n"
        let e = error(text)
        #expect(e?.line == 3 && e?.column == 3 && e?.message.contains("non-finite") == true)
        let r = try read(text, strict: false)
        #expect(r.samples.map(\.time) == [0, 0.01, 0.02, 0.03])
        #expect(r.samples[1].acceleration == SIMD3(0, 0, 1))  // held from line 2
        #expect(r.summary.rowsRepaired == 2 && r.summary.rowsDropped == 1)
        #expect(r.issues.map(\.action) == [.repaired, .repaired, .dropped])
        #expect(r.issues[2].location.line == 5 && r.issues[2].location.column == 1)
        #expect(!r.samples.contains { !($0.acceleration.sum().isFinite) })
    }

    @Test func timeGoingBackwardsAndRepeatedTimes() throws {
        let text = Self.small + "0,0,0,1\n0.01,0,0,1\n0.01,0,0,1\n0.005,0,0,1\n0.02,0,0,1\n"
        let e = error(text)
        #expect(e?.line == 5 && e?.column == 1 && e?.message.contains("earlier") == true)
        let r = try read(text, strict: false)
        #expect(r.samples.map(\.time) == [0, 0.01, 0.01, 0.02])
        #expect(r.summary.issueCounts[.duplicateTime] == 1 && r.summary.issueCounts[.timeBackwards] == 1)
        #expect(r.issues.first { $0.kind == .duplicateTime }?.action == .kept)
    }

    @Test func gapsAreWarningsWithTheirLine() throws {
        var text = Self.small
        var t = 0
        for i in 0..<100 {
            t += (i == 10 || i == 60) ? 30 : 10   // milliseconds; two gaps of 3 intervals
            text += "\(Double(t) / 1000),0,0,1\n"
        }
        let r = try read(text)  // strict: gaps never stop the read
        #expect(r.samples.count == 100)
        let gaps = r.issues.filter { $0.kind == .gap }
        #expect(gaps.map(\.location.line) == [12, 62])
        #expect(gaps.first?.location.message.contains("gap of 30.000 ms") == true)
        #expect(gaps.first?.location.message.contains("about 2 sample(s) missing") == true)
    }

    @Test func truncatedLastLine() throws {
        let text = Self.small + "0,0,0,1\n0.01,0,0,1\n0.02,0,0"
        let e = error(text)
        #expect(e?.line == 4 && e?.message.contains("truncated last line") == true)
        let r = try read(text, strict: false)
        #expect(r.samples.count == 2 && r.summary.issueCounts[.truncatedLastLine] == 1)
        let cut = try read(Self.small + "0,0,0,1\n0.01,0,0,1e", strict: false)
        #expect(cut.issues.first?.kind == .truncatedLastLine && cut.issues.first?.location.column == 4)
    }

    @Test func binaryFiles() {
        let file = TemporaryFile(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        defer { file.remove() }
        let e = #expect(throws: RecordingError.self) { _ = try Recording.load(path: file.path) }
        #expect(e?.message.contains("binary") == true)
        let later = TemporaryFile(bytes: Array((Self.small + "0,0,0,1\n0.01,0").utf8) + [0, 1, 2])
        defer { later.remove() }
        let e2 = #expect(throws: RecordingError.self) { _ = try Recording.load(path: later.path, options: ReadOptions(strict: false)) }
        #expect(e2?.line == 3)
        let noBreaks = String(repeating: "x", count: 300)
        #expect(error(noBreaks, bufferSize: 128)?.message.contains("longer than 128 bytes") == true)
        let long = TemporaryFile(Self.small + "0,0,0,1\n" + String(repeating: "7", count: 300) + "\n")
        defer { long.remove() }
        for memoryMap in [false, true] {
            let e = #expect(throws: RecordingError.self) {
                _ = try Recording.load(path: long.path, options: ReadOptions(bufferSize: 128, memoryMap: memoryMap))
            }
            #expect(e?.line == 3 && e?.message.contains("longer than 128 bytes") == true)
        }
        let invalidUTF8 = TemporaryFile(bytes: [0xFF, 0xFE, 0x41, 10])
        defer { invalidUTF8.remove() }
        #expect(throws: RecordingError.self) { _ = try Recording.load(path: invalidUTF8.path) }
    }

    @Test func missingFileNamesTheFile() {
        let e = #expect(throws: RecordingError.self) { _ = try Recording.load(path: "/nonexistent/x.csv") }
        #expect(e?.file == "/nonexistent/x.csv" && e?.message.contains("cannot open") == true)
    }

    /// Lines straddle buffer refills; a tiny buffer must give exactly the same samples.
    @Test func tinyBufferGivesTheSameSamplesAsALargeOne() throws {
        var text = Self.broadHeader + "\n"
        for i in 0..<500 {
            text += "\(Double(i) * 0.0035),\(Double(i).squareRoot()),-0.5,9.8,0.1,0.2,0.3,\(i),1,2,0.5,0.5,0.5,0.5,1,2,3,\(i % 2)\n"
        }
        let mapped = try read(text)
        let large = try read(text, memoryMap: false)
        let tiny = try read(text, bufferSize: 200, memoryMap: false)
        #expect(large.samples.count == 500)
        #expect(large.samples == tiny.samples && mapped.samples == tiny.samples)
        // The same bad rows are found on both input paths.
        let row = "\n\(Double(100) * 0.0035),"
        let bad = text.replacingOccurrences(of: row, with: row + "x")
        let issues = try read(bad, strict: false, bufferSize: 200, memoryMap: false).issues
        #expect(issues.contains { $0.kind == .notANumber && $0.location.line == 102 })
        func located(_ list: [RecordingIssue]) -> [String] { list.map { "\($0.kind) \($0.location.line):\($0.location.column) \($0.location.message)" } }
        #expect(try located(issues) == located(read(bad, strict: false).issues))
    }

    /// The streaming API equals the whole-file load, and memory stays at the one buffer: a file
    /// 100× the buffer size streams through it.
    @Test func streamingEqualsLoadInConstantMemory() throws {
        var text = Self.small
        text.reserveCapacity(2_000_000)
        for i in 0..<60_000 { text += "\(Double(i) / 100),\(Double(i % 7) / 3),0.25,1\n" }
        let file = TemporaryFile(text)
        defer { file.remove() }
        let options = ReadOptions(bufferSize: 16 * 1024, memoryMap: false)  // read(2) through one 16 KiB buffer
        let reader = try RecordingReader(path: file.path, options: options)
        var chunk: [MotionSample] = []
        chunk.reserveCapacity(256)
        var count = 0
        var sum = 0.0
        while true {
            chunk.removeAll(keepingCapacity: true)
            guard try reader.read(into: &chunk, maximumCount: 256) > 0 else { break }
            count += chunk.count
            sum += chunk.reduce(0) { $0 + $1.acceleration.x }
            #expect(chunk.capacity < 1024)
        }
        let loaded = try Recording.load(path: file.path, options: options)
        #expect(count == 60_000 && loaded.samples.count == 60_000)
        #expect(sum == loaded.samples.reduce(0) { $0 + $1.acceleration.x })
        let single = try RecordingReader(path: file.path, options: options)
        var index = 0
        var same = true
        while let s = try single.next() { same = same && s == loaded.samples[index]; index += 1 }
        #expect(same && index == 60_000)
    }

    /// A file cut short by another process while it is read (a recording being rewritten): the
    /// default read(2) path reports the cut line and never touches the lost bytes (a memory
    /// mapping would die with SIGBUS there, which is why mapping is opt-in).
    @Test func fileTruncatedDuringTheReadEndsWithATruncatedLineError() throws {
        var text = Self.small
        for i in 0..<20_000 { text += "\(Double(i) / 100),0.125,0.25,1\n" }
        let file = TemporaryFile(text)
        defer { file.remove() }
        #expect(ReadOptions().memoryMap == false)
        let reader = try RecordingReader(path: file.path, options: ReadOptions(bufferSize: 4096))
        var samples: [MotionSample] = []
        try reader.read(into: &samples, maximumCount: 1000)
        let consumed = reader.bytesConsumed
        #expect(samples.count == 1000 && consumed > 1000 * 15 && reader.fileSize == text.utf8.count)
        // Cut the file in the middle of a row well beyond what the buffer holds.
        let cut = consumed + 40_000 + 7
        #expect(truncate(file.path, off_t(cut)) == 0)
        let error = #expect(throws: RecordingError.self) { while try reader.read(into: &samples, maximumCount: 4096) > 0 {} }
        #expect(error?.message.contains("truncated last line") == true)
        // Every complete row before the cut was delivered, in order.
        let complete = text.utf8.prefix(cut).split(separator: 10).count - 2  // header, cut row
        #expect(samples.count == complete)
        #expect(samples.enumerated().allSatisfy { $0.element.time == Double($0.offset) / 100 })
    }

    /// The batch path divides four fields at once (SIMD); every value must still have the bits of
    /// Double(String), −0 included, for any column count (padding lanes).
    @Test func batchPathValuesAreExactlyRounded() throws {
        var random = UInt64(77)
        func next() -> UInt64 { random = random &* 6364136223846793005 &+ 1442695040888963407; return random >> 11 }
        func shortValue() -> String {
            var text = next() & 1 == 0 ? "-" : ""
            for _ in 0..<Int(next() % 7 + 1) { text += String(next() % 10) }
            let fraction = Int(next() % 8)
            if fraction > 0 { text += "."; for _ in 0..<fraction { text += String(next() % 10) } }
            return text
        }
        for header in ["t_s,acc_x_g,acc_y_g,acc_z_g",
                       "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps",
                       "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT"] {
            let sensors = header.split(separator: ",").count - 1
            var text = header + "\n"
            var expected: [[Double]] = []
            for i in 0..<4000 {
                var fields = [String(format: "%.2f", Double(i) / 100)]
                for _ in 0..<sensors { fields.append(shortValue()) }
                if i == 7 { fields[1] = "-0.000" }
                text += fields.joined(separator: ",") + "\n"
                expected.append(fields.map { Double($0)! })
            }
            let file = TemporaryFile(text)
            defer { file.remove() }
            let samples = try Recording.load(path: file.path).samples
            #expect(samples.count == expected.count)
            for (sample, row) in zip(samples, expected) {
                var got = [sample.time, sample.acceleration.x, sample.acceleration.y, sample.acceleration.z]
                if sensors >= 6 { got += [sample.rotationRate.x, sample.rotationRate.y, sample.rotationRate.z] }
                if sensors >= 9, let m = sample.magneticField { got += [m.x, m.y, m.z] }
                #expect(got.map(\.bitPattern) == row.map(\.bitPattern), "\(row)")
            }
            #expect(samples[7].acceleration.x.sign == .minus)
        }
    }

    /// Machine-written columns keep their fraction width (`%.4f`), and the short path then
    /// expects it. Widths that change — wider, narrower, in a middle column or the last, with a
    /// CR LF ending — must still give Double(String)'s bits on every row.
    @Test func fixedFractionWidthsThatChangeAreStillReadExactly() throws {
        var random = UInt64(1234)
        func next() -> UInt64 { random = random &* 6364136223846793005 &+ 1442695040888963407; return random >> 11 }
        func value(width: Int) -> String {
            var text = next() % 3 == 0 ? "-" : ""
            for _ in 0..<Int(next() % 4 + 1) { text += String(next() % 10) }
            text += "."
            for _ in 0..<width { text += String(next() % 10) }
            return text
        }
        let header = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT"
        var widths = [3, 4, 4, 6, 6, 6, 7, 1, 2, 5]
        for ending in ["\n", "\r\n"] {
            var text = header + ending
            var expected: [[Double]] = []
            for i in 0..<6000 {
                // Every 500 rows one column changes width (the last column every 1500).
                if i % 500 == 250 {
                    let column = i % 1500 == 250 ? widths.count - 1 : 1 + Int(next() % 8)
                    widths[column] = 1 + (widths[column] + Int(next() % 5)) % 7
                }
                var fields = [String(format: "%.\(widths[0])f", Double(i) / 100)]
                for column in 1..<widths.count { fields.append(value(width: widths[column])) }
                // Single rows that break the pattern: one digit more or fewer, no fraction.
                if i % 997 == 3 { fields[4] += "1" }
                if i % 991 == 5 { fields[9] = String(fields[9].dropLast()) }
                if i % 983 == 7, widths[2] > 1 { fields[2] = String(fields[2].dropLast()) }
                if i % 977 == 11 { fields[5] = "12" }
                text += fields.joined(separator: ",") + ending
                expected.append(fields.map { Double($0) ?? .nan })
            }
            let file = TemporaryFile(text)
            defer { file.remove() }
            let samples = try Recording.load(path: file.path).samples
            #expect(samples.count == expected.count)
            var mismatches = 0
            for (sample, row) in zip(samples, expected) {
                let m = sample.magneticField ?? .zero
                let got = [sample.time, sample.acceleration.x, sample.acceleration.y, sample.acceleration.z,
                           sample.rotationRate.x, sample.rotationRate.y, sample.rotationRate.z, m.x, m.y, m.z]
                if got.map(\.bitPattern) != row.map(\.bitPattern) { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }
    }

    @Test func issueStorageIsCappedButCountsAreComplete() throws {
        var text = Self.small
        for i in 0..<50 { text += "\(i),x,0,1\n" }
        let file = TemporaryFile(text)
        defer { file.remove() }
        let reader = try RecordingReader(path: file.path, options: ReadOptions(strict: false, maximumStoredIssues: 5))
        var seen = 0
        reader.onIssue = { _ in seen += 1 }
        while try reader.next() != nil {}
        #expect(reader.issues.count == 5 && reader.summary.rowsDropped == 50 && seen == 50)
        #expect(reader.summary.issueCounts[.notANumber] == 50)
    }

    @Test func xsensPacketCounterWrapsAt65536WithoutTimeGoingBackwards() throws {
        // 100 Hz packets 65,530 … 65,535, 0 … 9 (the counter wraps), then one lost packet at 11.
        var text = "// Update Rate: 100.0Hz\nPacketCounter\tAcc_X\tAcc_Y\tAcc_Z\n"
        let counters = Array(65530 ... 65535) + Array(0 ... 9) + [11, 12]
        for c in counters { text += String(format: "%05d\t0\t0\t9.80665\n", c) }
        let file = TemporaryFile(text)
        defer { file.remove() }
        let recording = try Recording.load(path: file.path)
        #expect(recording.samples.count == counters.count)
        let scale = 1 / 100.0  // the reader's factor: counter / update rate
        let expected: [Double] = counters.enumerated().map { i, c in Double(i >= 6 ? c + 65536 : c) * scale }
        #expect(recording.samples.map(\.time) == expected)
        #expect(recording.summary.issueCounts[.timeBackwards] == nil)
        // A counter that merely steps back (less than half the modulus) is still an error.
        let back = TemporaryFile("// Update Rate: 100.0Hz\nPacketCounter\tAcc_X\tAcc_Y\tAcc_Z\n00100\t0\t0\t1\n00101\t0\t0\t1\n00050\t0\t0\t1\n")
        defer { back.remove() }
        #expect { try Recording.load(path: back.path) } throws: { "\($0)".contains("earlier than the previous row") }
    }

    @Test func aLongRunOfBlankLinesIsCountedLineByLine() throws {
        // 5,000 blank lines (some \r\n) between rows, read through a 256-byte buffer (the run
        // crosses many refills), mapped, and with an `onIssue` that sees every one.
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g\n0.00,0,0,1\n0.01,0,0,1\n"
        for i in 0 ..< 5000 { text += i % 7 == 0 ? "\r\n" : "\n" }
        text += "0.02,0,0,1\n0.03,0,0,1\n"
        let file = TemporaryFile(text)
        defer { file.remove() }
        for (bufferSize, memoryMap) in [(256, false), (1 << 20, false), (1 << 20, true)] {
            let options = ReadOptions(bufferSize: bufferSize, maximumStoredIssues: 100, memoryMap: memoryMap)
            let reader = try RecordingReader(path: file.path, options: options)
            var samples: [MotionSample] = []
            while let sample = try reader.next() { samples.append(sample) }
            #expect(samples.map(\.time) == [0, 0.01, 0.02, 0.03])
            #expect(reader.summary.issueCounts[.blankLine] == 5000)
            #expect(reader.issues.map(\.location.line) == Array(4 ..< 104), "buffer \(bufferSize)")
            var seen: [Int] = []
            let watched = try RecordingReader(path: file.path, options: options)
            watched.onIssue = { seen.append($0.location.line) }
            while try watched.next() != nil {}
            #expect(seen == Array(4 ..< 5004))
        }
    }
}
