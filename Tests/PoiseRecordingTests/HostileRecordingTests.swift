import Foundation
import Testing
@testable import PoiseRecording
import Poise

/// The reader and inspector on recordings that would otherwise give confident wrong numbers: a
/// time column in the wrong unit, missing sensors, carriage-return line ends, dropped rows.
@Suite struct HostileRecordingTests {
    /// `count` rows at 100 Hz, time written as `t × scale`, under `header`'s time column name.
    func recording(timeColumn: String = "t_s", scale: Double = 1, count: Int = 200, lineEnd: String = "\n") -> String {
        var text = "\(timeColumn),acc_x_g,acc_y_g,acc_z_g" + lineEnd
        for i in 0 ..< count {
            text += "\(Double(i) / 100 * scale),0.001,\(Double(i % 7) * 0.001),1" + lineEnd
        }
        return text
    }

    // MARK: - Time unit

    @Test func timeUnitOverridesTheHeaderUnitAndShowsInTheSchema() throws {
        let file = TemporaryFile(recording(scale: 1000))
        defer { file.remove() }
        let asHeader = try Recording.load(path: file.path)
        let asMilliseconds = try Recording.load(path: file.path, options: ReadOptions(timeUnit: .milliseconds))
        #expect(asHeader.samples.count == asMilliseconds.samples.count)
        for (a, b) in zip(asHeader.samples, asMilliseconds.samples) {
            #expect(b.time == a.time * 1e-3)
            #expect(a.acceleration == b.acceleration)
        }
        let column = try #require(asMilliseconds.schema.columns.first)
        #expect(column.meaning == .time(scale: 1e-3) && column.unit == "ms")
        #expect(asHeader.schema.columns.first?.unit == "s")
        // A t_ns column read as seconds: the override wins over the header name too.
        let nanoseconds = TemporaryFile(recording(timeColumn: "t_ns", scale: 1))
        defer { nanoseconds.remove() }
        let seconds = try Recording.load(path: nanoseconds.path, options: ReadOptions(timeUnit: .seconds))
        #expect(seconds.samples[1].time == 0.01)
    }

    @Test func implausibleRatesAreRefusedWithTheUnitThatFixesThem() throws {
        let file = TemporaryFile(recording(scale: 1000))
        defer { file.remove() }
        let recording = try Recording.load(path: file.path)
        let rate = try #require(nominalSampleRate(of: recording.samples))
        #expect(abs(rate - 0.1) < 1e-9)
        do {
            try SampleRateCheck.check(rate: rate, schema: recording.schema, file: file.path)
            Issue.record("0.1 Hz was accepted")
        } catch let error as RecordingError {
            #expect(error.file == file.path)
            #expect(error.message.contains("sample rate 0.1 Hz") && error.message.contains("'t_s' read as s"), "\(error.message)")
            #expect(error.message.contains("--time-unit ms (the rate would then be 100 Hz)"), "\(error.message)")
        }
        // The limits themselves are accepted; just outside them is not.
        for accepted in [1.0, 100, 285.714, 100_000] {
            try SampleRateCheck.check(rate: accepted, schema: recording.schema, file: file.path)
        }
        for refused in [0.999, 100_001, 1e-7, 1e9] {
            #expect(throws: RecordingError.self) { try SampleRateCheck.check(rate: refused, schema: recording.schema, file: file.path) }
        }
        // No rate to judge, or no time column (the rate was given by the user): nothing to say.
        try SampleRateCheck.check(rate: nil, schema: recording.schema, file: file.path)
        var untimed = recording.schema
        untimed.columns.removeFirst()
        try SampleRateCheck.check(rate: 1e-7, schema: untimed, file: file.path)
    }

    @Test func suggestedUnitsCoverEpochNanosecondsAndMicroseconds() {
        // Column read as seconds: 1e-7 Hz means 10 ms steps written in ns.
        #expect(SampleRateCheck.suggestedUnit(rate: 1e-7, scale: 1)?.unit == .nanoseconds)
        // Read as seconds: 1e-4 Hz is 10 ms in µs.
        #expect(SampleRateCheck.suggestedUnit(rate: 1e-4, scale: 1)?.unit == .microseconds)
        // A t_ms column that really holds seconds: 0.1 Hz read as ms… is 100 000 Hz; as s, 0.1 Hz.
        let fromMilliseconds = SampleRateCheck.suggestedUnit(rate: 1e5 * 10, scale: 1e-3)
        #expect(fromMilliseconds?.unit == .seconds && fromMilliseconds.map { abs($0.rate - 1000) < 1e-6 } == true)
        // Nothing helps a rate that no unit makes plausible.
        #expect(SampleRateCheck.suggestedUnit(rate: 1e-20, scale: 1) == nil)
        #expect(SampleRateCheck.format(1e-7) == "1e-7" && SampleRateCheck.format(0.1) == "0.1" && SampleRateCheck.format(100_000) == "100000")
    }

    // MARK: - Missing sensors

    @Test func requireNamesTheFirstMissingSensorAndTheColumnsLookedFor() throws {
        let file = TemporaryFile(recording())
        defer { file.remove() }
        let schema = try Recording.load(path: file.path).schema
        #expect(schema.has(.accelerometer) && !schema.has(.gyroscope) && !schema.has(.magnetometer))
        try schema.require([.accelerometer], file: file.path, for: "x")
        do {
            try schema.require([.accelerometer, .gyroscope, .magnetometer], file: file.path, for: "--mode 9d fusion")
            Issue.record("a missing gyroscope was accepted")
        } catch let error as RecordingError {
            #expect(error.line == 1 && error.column == 0 && error.file == file.path)
            #expect(error.message.hasPrefix("no gyroscope columns (looked for gyr_x_radps"), "\(error.message)")
            #expect(error.message.contains("--mode 9d fusion needs the gyroscope"), "\(error.message)")
        }
    }

    @Test func writerLeavesOutSensorsTheRecordingDoesNotHave() throws {
        let file = TemporaryFile(recording())
        defer { file.remove() }
        let recording = try Recording.load(path: file.path)
        let out = file.path + ".out.csv"
        try recording.write(to: out)
        let header = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").first.map(String.init)
        #expect(header == "t_s,acc_x_g,acc_y_g,acc_z_g")
        let back = try Recording.load(path: out)
        #expect(!back.schema.hasGyroscope)
        #expect(back.samples.map(\.acceleration) == recording.samples.map(\.acceleration))
        #expect(back.samples.map(\.time) == recording.samples.map(\.time))
    }

    // MARK: - Carriage-return line ends

    @Test func carriageReturnLineEndsReadLikeLineFeedsOnEveryPath() throws {
        let lf = TemporaryFile(recording(count: 3000))
        let cr = TemporaryFile(recording(count: 3000, lineEnd: "\r"))
        defer { lf.remove(); cr.remove() }
        let expected = try Recording.load(path: lf.path).samples
        // Mapped and read(2), small buffers (refills cut lines), strict and lenient.
        for options in [ReadOptions(), ReadOptions(memoryMap: true), ReadOptions(strict: false, bufferSize: 64),
                        ReadOptions(bufferSize: 100)] {
            let reader = try RecordingReader(path: cr.path, options: options)
            var samples: [MotionSample] = []
            while try reader.read(into: &samples, maximumCount: 777) > 0 {}
            #expect(reader.carriageReturnLineEndings)
            #expect(samples.map(\.time) == expected.map(\.time), "\(options)")
            #expect(samples.map(\.acceleration) == expected.map(\.acceleration))
            #expect(reader.issues.isEmpty, "\(reader.issues.prefix(3))")
        }
        let plain = try RecordingReader(path: lf.path)
        #expect(!plain.carriageReturnLineEndings)
        // CRLF files are not mistaken for CR-only ones.
        let crlf = TemporaryFile(recording(count: 50, lineEnd: "\r\n"))
        defer { crlf.remove() }
        let crlfReader = try RecordingReader(path: crlf.path)
        #expect(!crlfReader.carriageReturnLineEndings)
        var count = 0
        while try crlfReader.next() != nil { count += 1 }
        #expect(count == 50)
    }

    @Test func aCarriageReturnEndingTheFirstBufferIsALineEnd() throws {
        // The header fills the 64-byte buffer but for its line end, so the first read ends on the
        // carriage return and the byte after it is unknown.
        var header = "t_s,acc_x_g,acc_y_g,acc_z_g"
        header = header.replacingOccurrences(of: ",", with: ", ")
        header += String(repeating: " ", count: 63 - header.utf8.count)
        #expect(header.utf8.count == 63)
        var rows = ""
        for i in 0 ..< 40 { rows += "\(Double(i) / 100),0.25,0.5,1" + "\n" }
        let lf = TemporaryFile(header + "\n" + rows)
        let cr = TemporaryFile((header + "\n" + rows).replacingOccurrences(of: "\n", with: "\r"))
        defer { lf.remove(); cr.remove() }
        for options in [ReadOptions(bufferSize: 64), ReadOptions(memoryMap: true)] {
            let expected = try Recording.load(path: lf.path, options: options).samples
            let reader = try RecordingReader(path: cr.path, options: options)
            var samples: [MotionSample] = []
            while let sample = try reader.next() { samples.append(sample) }
            #expect(reader.carriageReturnLineEndings)
            #expect(samples.count == 40 && samples.map(\.time) == expected.map(\.time))
        }
    }

    @Test func carriageReturnFileErrorsNameTheLineAnEditorShows() throws {
        var text = recording(count: 20, lineEnd: "\r")
        text = text.replacingOccurrences(of: "\r0.05,", with: "\r0.05x,")
        let file = TemporaryFile(text)
        defer { file.remove() }
        #expect(throws: RecordingError(file: file.path, line: 7, column: 1, message: "'0.05x' is not a number (column t_s)")) {
            _ = try Recording.load(path: file.path)
        }
        #expect(CSVByteSource.endsLinesWithCarriageReturn([97, 13, 98], count: 3))
        #expect(!CSVByteSource.endsLinesWithCarriageReturn([97, 13, 10], count: 3))
        #expect(!CSVByteSource.endsLinesWithCarriageReturn([97, 13], count: 2), "the byte after the CR is not known yet")
        #expect(!CSVByteSource.endsLinesWithCarriageReturn([97, 10, 13, 98], count: 4))
    }

    // MARK: - Dropped rows

    @Test func inspectionCallsDroppedRowsSuspicious() throws {
        var everything = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0 ..< 100 { everything += "\(Double(i) / 100),nope,0,1\n" }
        let all = TemporaryFile(everything)
        defer { all.remove() }
        let allInfo = try RecordingInfo.inspect(path: all.path)
        #expect(allInfo.rows == 0 && allInfo.droppedRows == 100)
        #expect(allInfo.suspicious.contains { $0.hasPrefix("every data row (100) was dropped") }, "\(allInfo.suspicious)")
        #expect(allInfo.issueCounts["notANumber"] == 100)
        #expect(allInfo.firstIssues["notANumber"]?.hasPrefix("\(all.path):2:2:") == true, "\(allInfo.firstIssues)")
        #expect(allInfo.text.components(separatedBy: "is not a number").count - 1 == 1, "\(allInfo.text)")

        // 1 % dropped is tolerated, 2 % is reported with the share.
        for (every, reported) in [(100, false), (50, true)] {
            var text = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
            for i in 0 ..< 1000 { text += "\(Double(i) / 100),\(i % every == 0 ? "nope" : "0"),0,1\n" }
            let file = TemporaryFile(text)
            defer { file.remove() }
            let info = try RecordingInfo.inspect(path: file.path)
            let line = info.suspicious.first { $0.contains("data rows") }
            #expect((line != nil) == reported, "every \(every): \(info.suspicious)")
            if reported { #expect(line == "20 of 1000 data rows (2 %) were dropped: the figures describe the rows that were kept") }
        }
    }
}
