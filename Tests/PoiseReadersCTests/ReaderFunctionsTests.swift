import CPoise
import CPoiseReaders
import Poise
import PoiseReadersC
import PoiseRecording
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The readers' C API gives the samples `RecordingSources` reads, in blocks, with the schema;
/// bad options and bad files are errors naming what is wrong.
@Suite struct ReaderFunctionsTests {
    /// A recording of the repository's data/ folder, found from this file's path.
    static let recording: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/data/phone-tilt-steer-100hz.csv"
    }()

    func text(_ error: poise_error) -> String {
        var copy = error
        return withUnsafeBytes(of: &copy.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    func field<T>(_ value: T) -> String {
        var copy = value
        return withUnsafeBytes(of: &copy) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Reads the whole file in blocks of `block` samples: times, acc, gyr, mag, truth.
    func readAll(_ path: String, block: Int, options: poise_read_options? = nil) throws -> (times: [Double], acc: [Double], gyr: [Double], mag: [Double], truth: [Double]) {
        var error = poise_error()
        var o = options ?? poise_read_options()
        if options == nil { #expect(poise_read_options_default(&o, nil) == POISE_OK) }
        let reader = try #require(poise_reader_open(path, &o, &error), "\(text(error))")
        defer { poise_reader_destroy(reader, nil) }
        var times: [Double] = [], acc: [Double] = [], gyr: [Double] = [], mag: [Double] = [], truth: [Double] = []
        var t = [Double](repeating: 0, count: block), a = [Double](repeating: 0, count: 3 * block)
        var g = a, m = a, q = [Double](repeating: 0, count: 4 * block)
        var moving = [UInt8](repeating: 0, count: block)
        while true {
            var count = 0
            #expect(poise_reader_read(reader, block, &t, &a, &g, &m, &q, &moving, &count, &error) == POISE_OK, "\(text(error))")
            if count == 0 { break }
            times += t.prefix(count); acc += a.prefix(3 * count); gyr += g.prefix(3 * count)
            mag += m.prefix(3 * count); truth += q.prefix(4 * count)
        }
        return (times, acc, gyr, mag, truth)
    }

    @Test func blocksGiveTheSamplesOfTheSwiftReader() throws {
        let expected = try Recording.load(path: Self.recording).samples
        for block in [1, 7, 4096] {
            let read = try readAll(Self.recording, block: block)
            #expect(read.times == expected.map(\.time))
            #expect(read.acc == expected.flatMap { [$0.acceleration.x, $0.acceleration.y, $0.acceleration.z] })
            #expect(read.gyr == expected.flatMap { [$0.rotationRate.x, $0.rotationRate.y, $0.rotationRate.z] })
        }
    }

    @Test func infoAndColumnsDescribeTheSchema() throws {
        var error = poise_error()
        let reader = try #require(poise_reader_open(Self.recording, nil, &error), "\(text(error))")
        defer { poise_reader_destroy(reader, nil) }
        var info = poise_reader_info()
        #expect(poise_reader_get_info(reader, &info, &error) == POISE_OK)
        let schema = try RecordingSources.open(path: Self.recording).schema
        #expect(field(info.format) == schema.format.rawValue && field(info.format_name) == schema.format.name)
        #expect(info.has & UInt32(POISE_HAS_TIME.rawValue) != 0 && info.has & UInt32(POISE_HAS_ACCELERATION.rawValue) != 0)
        let mapped = schema.columns.filter { $0.meaning.slot != nil }
        #expect(Int(info.column_count) == mapped.count)
        var column = poise_reader_column()
        #expect(poise_reader_get_column(reader, 0, &column, &error) == POISE_OK)
        #expect(field(column.name) == mapped[0].name && field(column.meaning) == "time")
        #expect(poise_reader_get_column(reader, info.column_count, &column, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_reader_get_column(reader, -1, &column, nil) == POISE_ERROR_INVALID_ARGUMENT)
    }

    @Test func badOptionsAreRefusedNamingTheField() {
        var error = poise_error()
        var o = poise_read_options()
        _ = poise_read_options_default(&o, nil)
        o.sample_rate = 1e12
        #expect(poise_reader_open(Self.recording, &o, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue) && text(error).contains("sample_rate must be"))
        _ = poise_read_options_default(&o, nil)
        o.decimal_comma = 2
        #expect(poise_reader_open(Self.recording, &o, &error) == nil && text(error).contains("decimal_comma"))
        _ = poise_read_options_default(&o, nil)
        "fortnights".withCString { unit in
            o.time_unit = unit
            #expect(poise_reader_open(Self.recording, &o, &error) == nil && text(error).contains("time_unit"))
        }
        _ = poise_read_options_default(&o, nil)
        "x=-q".withCString { mount in
            o.mount = mount
            #expect(poise_reader_open(Self.recording, &o, &error) == nil && text(error).contains("mount"))
        }
        #expect(poise_reader_open(nil, nil, &error) == nil && error.code == Int32(POISE_ERROR_NULL_ARGUMENT.rawValue))
    }

    @Test func aMissingOrDamagedFileIsAParseErrorNamingIt() throws {
        var error = poise_error()
        #expect(poise_reader_open("/nonexistent/recording.csv", nil, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_PARSE.rawValue) && text(error).contains("/nonexistent/recording.csv"))
        let path = "/tmp/poise-readers-test-\(getpid()).csv"
        let file = try #require(fopen(path, "w"))
        fputs("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,zero,0,1\n", file)
        fclose(file)
        defer { unlink(path) }
        var o = poise_read_options()
        _ = poise_read_options_default(&o, nil)
        o.strict = 1
        let reader = try #require(poise_reader_open(path, &o, &error), "\(text(error))")
        defer { poise_reader_destroy(reader, nil) }
        var t = [Double](repeating: 0, count: 8)
        var count = 0
        var status = POISE_OK
        repeat { status = poise_reader_read(reader, 8, &t, nil, nil, nil, nil, nil, &count, &error) } while status == POISE_OK && count > 0
        #expect(status == POISE_ERROR_PARSE && text(error).contains(":3:"))
    }

    @Test func handlesAreChecked() {
        var count = 0
        #expect(poise_reader_read(nil, 1, nil, nil, nil, nil, nil, nil, &count, nil) == POISE_ERROR_INVALID_HANDLE)
        #expect(poise_reader_destroy(nil, nil) == POISE_OK)
        var size = 0
        #expect(poise_reader_issues(nil, nil, 0, &size, nil) == POISE_ERROR_INVALID_HANDLE)
    }
}
