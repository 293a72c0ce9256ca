import Testing
import Poise
@testable import PoiseRecording

/// Small files written here for each dialect: byte order mark, quoted header, semicolons with
/// decimal commas, tabs, comment lines, and the Xsens layout.
@Suite struct CSVDialectTests {
    func read(_ text: String, options: ReadOptions = ReadOptions()) throws -> (Recording, CSVDialect) {
        let file = TemporaryFile(text)
        defer { file.remove() }
        // Read(2) and mapped reads must agree.
        var mapped = options
        mapped.memoryMap = true
        let viaMapping = try Recording.load(path: file.path, options: mapped)
        let reader = try RecordingReader(path: file.path, options: options)
        var samples: [MotionSample] = []
        while try reader.read(into: &samples, maximumCount: 3) > 0 {}
        #expect(samples == viaMapping.samples)
        return (Recording(path: file.path, schema: reader.schema, samples: samples, issues: reader.issues,
                          summary: reader.summary), reader.dialect)
    }

    func error(_ text: String, options: ReadOptions = ReadOptions()) -> RecordingError? {
        let file = TemporaryFile(text)
        defer { file.remove() }
        return #expect(throws: RecordingError.self) { _ = try Recording.load(path: file.path, options: options) }
    }

    @Test func byteOrderMarkAndQuotedHeader() throws {
        let (r, dialect) = try read("\u{FEFF}\"t_s\",\"acc_x_g\",\"acc_y_g\",\"acc_z_g\"\n0,0,0,1\n0.01,0.5,0,1\n")
        #expect(dialect.byteOrderMark && dialect.delimiter == .comma && !dialect.decimalComma)
        #expect(r.samples.map(\.time) == [0, 0.01])
        #expect(r.samples[1].acceleration == SIMD3(0.5, 0, 1))
        #expect(r.schema.columns.map(\.name) == ["t_s", "acc_x_g", "acc_y_g", "acc_z_g"])
    }

    @Test func semicolonsWithDecimalCommas() throws {
        let text = "t_s;acc_x_g;acc_y_g;acc_z_g\n0;0,5;0;1\n0,01;-0,25;0;1,125\n"
        let (r, dialect) = try read(text)
        #expect(dialect.delimiter == .semicolon && dialect.decimalComma)
        #expect(r.samples.map(\.time) == [0, 0.01])
        #expect(r.samples[1].acceleration == SIMD3(-0.25, 0, 1.125))
        // Many rows through a small buffer: every refill is translated too.
        let long = "t_s;acc_x_g;acc_y_g;acc_z_g\n" + (0..<500).map { "\($0),25;0;0;1,5\n" }.joined()
        let (big, _) = try read(long, options: ReadOptions(bufferSize: 64))
        #expect(big.samples.count == 500)
        #expect(big.samples[499].time == 499.25 && big.samples[499].acceleration == SIMD3(0, 0, 1.5))
    }

    @Test func semicolonsWithDecimalPointsWhenTold() throws {
        let (r, dialect) = try read("t_s;acc_x_g;acc_y_g;acc_z_g\n0;0.5;0;1\n", options: ReadOptions(decimalComma: false))
        #expect(dialect.delimiter == .semicolon && !dialect.decimalComma)
        #expect(r.samples[0].acceleration == SIMD3(0.5, 0, 1))
    }

    @Test func tabsAndAForcedDelimiter() throws {
        let (r, dialect) = try read("t_s\tacc_x_g\tacc_y_g\tacc_z_g\n0\t0\t0\t1\n0.01\t0\t1\t0\n")
        #expect(dialect.delimiter == .tab && !dialect.decimalComma)
        #expect(r.samples[1].acceleration == SIMD3(0, 1, 0))
        // A header whose only separator is forced.
        let (single, forced) = try read("t_s;acc_x_g;acc_y_g;acc_z_g\n0;0;0;1\n", options: ReadOptions(delimiter: .semicolon, decimalComma: false))
        #expect(forced.delimiter == .semicolon && single.samples.count == 1)
    }

    @Test func decimalCommaWithCommaDelimitersIsAnError() {
        let e = error("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n", options: ReadOptions(decimalComma: true))
        #expect(e?.line == 1 && e?.message.contains("--delimiter") == true)
    }

    @Test func commentLinesBeforeTheHeaderKeepLineNumbers() throws {
        let text = "// Update Rate: 50.0Hz\n# recorded on a bench\nt_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.02,0,0,x\n"
        let e = error(text)
        #expect(e?.line == 5 && e?.column == 4)
        let (r, dialect) = try read(text, options: ReadOptions(strict: false))
        #expect(dialect.preambleLines == 2 && dialect.updateRateHz == 50)
        #expect(r.samples.count == 1 && r.summary.rowsDropped == 1)
        // EuRoC's '#timestamp' line is a header, not a comment.
        let (euroc, eurocDialect) = try read("#timestamp [ns],w_RS_S_x [rad s^-1],w_RS_S_y [rad s^-1],w_RS_S_z [rad s^-1]\n1000000000,0,0,1\n")
        #expect(eurocDialect.preambleLines == 0 && euroc.schema.format == .euroc && euroc.samples[0].time == 1)
        #expect(error("// only a comment\n")?.message.contains("no header line after 1 comment line") == true)
    }

    @Test func xsensLayoutWithEmptyColumns() throws {
        let text = "// Start Time: Unknown\n// Update Rate: 100.0Hz\nPacketCounter\tSampleTimeFine\tUTC_Valid\tAcc_X\tAcc_Y\tAcc_Z\tMat[1][1]\n"
            + "00472\t\t\t0.0\t0.0\t9.80665\t1.0\n00473\t\t\t0.0\t9.80665\t0.0\t1.0\n"
        let (r, dialect) = try read(text)
        #expect(dialect.delimiter == .tab && dialect.preambleLines == 2 && dialect.updateRateHz == 100)
        #expect(r.schema.format == .xsens)
        #expect(r.samples.map(\.time) == [4.72, 4.73])
        #expect(r.samples[0].acceleration == SIMD3(0, 0, 1) && r.samples[1].acceleration == SIMD3(0, 1, 0))
        #expect(r.issues.isEmpty)
    }

    @Test func coreMotionGravityPlusUserAccelerationIsTheSpecificForceWithAppleSignConverted() throws {
        let header = ",attitude.roll,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
        let text = header + "0,0.1,0,0,-1,0.5,0,0,0.25,0,0.5\n1,0.1,0,-1,0,0,0,0,0,0,0\n"
        let (r, _) = try read(text, options: ReadOptions(sampleRate: 50))
        #expect(r.schema.format == .coreMotion)
        #expect(r.samples.map(\.time) == [0, 0.02])
        // Face up at rest: gravity.z = −1 in Apple's sign is +1 g of specific force.
        #expect(r.samples[0].acceleration == SIMD3(-0.25, 0, 0.5))
        #expect(r.samples[1].acceleration == SIMD3(0, 1, 0))
        #expect(r.samples[0].rotationRate == SIMD3(0.5, 0, 0))
        // Without a rate: the missing time column error; with Apple's sign asked: an error too.
        #expect(error(text)?.message.contains("--rate HZ") == true)
        #expect(error(text, options: ReadOptions(appleAccelerometerSign: true, sampleRate: 50))?.message.contains("already") == true)
        // User acceleration alone is not an accelerometer.
        let userOnly = "t_s,userAcceleration.x,userAcceleration.y,userAcceleration.z\n0,0,0,0\n"
        #expect(error(userOnly)?.message.contains("gravity-free") == true)
    }

    @Test func theFirstRowDecidesTheDecimalSeparatorOfTabAndSemicolonFiles() throws {
        // phyphox's "Tabulator, decimal comma" and "Semicolon, decimal point" exports.
        let (tabs, tabDialect) = try read("\"Time (s)\"\t\"Acceleration x (m/s^2)\"\t\"Acceleration y (m/s^2)\"\t\"Acceleration z (m/s^2)\"\n"
            + "1,000000000E-2\t0,000000000E0\t-9,806650000E-1\t9,806650000E0\n")
        #expect(tabDialect.delimiter == .tab && tabDialect.decimalComma)
        #expect(tabs.samples[0].time == 0.01 && tabs.samples[0].acceleration == SIMD3(0, -0.980665, 9.80665) * (1 / 9.80665))
        let (points, pointDialect) = try read("t_s;acc_x_g;acc_y_g;acc_z_g\n0.5;2.5E-1;0;1\n")
        #expect(pointDialect.delimiter == .semicolon && !pointDialect.decimalComma)
        #expect(points.samples[0].time == 0.5 && points.samples[0].acceleration == SIMD3(0.25, 0, 1))
        // The options still decide when given.
        #expect(error("t_s\tacc_x_g\tacc_y_g\tacc_z_g\n0\t0,5\t0\t1\n", options: ReadOptions(decimalComma: false)) != nil)
    }

    @Test func commentPrefixesAreSkippedBeforeTheHeaderAndBetweenRowsKeepingLineNumbers() throws {
        let text = "% logger v2\n% bench\nt_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n% pause\n  %% resumed\n0.01,0,0,1\n0.02,0,0,x\n"
        // Without the prefix the lines are no header and no row: an error, never skipped silently.
        #expect(error(text)?.line == 1)
        let options = ReadOptions(commentPrefixes: ["%"])
        let e = error(text, options: options)
        #expect(e?.line == 8 && e?.column == 4)
        var lenient = options
        lenient.strict = false
        let (r, dialect) = try read(text, options: lenient)
        #expect(dialect.preambleLines == 2 && dialect.commentPrefixes == ["%"])
        #expect(dialect.summary.contains("comment lines start with % (--comment)"))
        #expect(r.samples.map(\.time) == [0, 0.01])
        #expect(r.summary.commentLines == 2 && r.summary.rowsDropped == 1)
        // A semicolon prefix in a semicolon file (its rows are translated as they are read), and
        // a second prefix; '#' lines between rows are comments only when named.
        let semicolons = "; exported\nt_s;acc_x_g;acc_y_g;acc_z_g\n0;0,5;0;1\n; note\n# mark\n0,01;0;0;1\n"
        let (s, sDialect) = try read(semicolons, options: ReadOptions(commentPrefixes: [";", "#"]))
        #expect(sDialect.delimiter == .semicolon && s.samples.map(\.time) == [0, 0.01] && s.summary.commentLines == 2)
        #expect(error(semicolons, options: ReadOptions(commentPrefixes: [";"]))?.line == 5)
        // A first skipped column cannot swallow a comment line as a row.
        let skipped = "name,t_s,acc_x_g,acc_y_g,acc_z_g\na,0,0,0,1\n%x,1,2,3,4\nb,0.01,0,0,1\n"
        let (k, _) = try read(skipped, options: ReadOptions(commentPrefixes: ["%"]))
        #expect(k.samples.map(\.time) == [0, 0.01] && k.summary.commentLines == 1)
        // Prefixes that could start a number or hold spaces are refused.
        for bad in ["", "-", "1", ".", "a b"] {
            #expect(error("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n", options: ReadOptions(commentPrefixes: [bad]))?.message.contains("--comment") == true)
        }
    }
}
