import Foundation
import Testing
import Poise
@testable import PoiseRecording

/// `ColumnSpec` (`--columns`) and `ReadOptions.skipLines`: the grammar, its errors with carets,
/// and files read through it, with and without a header.
@Suite struct ColumnSpecTests {
    func error(_ text: String) -> SpecError? {
        do { _ = try ColumnSpec(text); return nil } catch { return error }
    }

    @Test func parsesQuantitiesColumnsAndUnits() throws {
        let spec = try ColumnSpec("t=time:ns,acc=ax,ay,az:mps2,gyr=gx,gy,gz:dps,mag=mx,my,mz:uT")
        #expect(spec.assignments.map(\.quantity) == [.time, .acceleration, .rotationRate, .magneticField])
        #expect(spec.assignments[1].references.map(\.text) == ["ax", "ay", "az"])
        #expect(spec.assignments[0].scale == 1e-9)
        #expect(spec.assignments[1].scale == 1 / 9.80665)
        #expect(spec.assignments[2].scale == Double.pi / 180)
        #expect(try ColumnSpec("t=1:s,mag=2,3,4:T").assignments[1].scale == 1e6)
        #expect(try ColumnSpec("t=1:s,mag=2,3,4:gauss").assignments[1].scale == 100)
        #expect(try ColumnSpec("t=1:s,mag=2,3,4:nT").assignments[1].scale == 1e-3)
        // Header names with spaces and parentheses (x-io), spaces around names trimmed.
        let xio = try ColumnSpec("t=Timestamp (us):us, mag=X (a.u.), Y (a.u.), Z (a.u.):au")
        #expect(xio.assignments[1].references.map(\.text) == ["X (a.u.)", "Y (a.u.)", "Z (a.u.)"])
        #expect(xio.assignments[1].unitLabel == "a.u.")
    }

    @Test func syntaxErrorsPointAtTheToken() throws {
        let unknown = try #require(error("t=time:ns,accel=a,b,c:g"))
        #expect(unknown.column == 11 && unknown.token == "accel" && unknown.message.contains("unknown quantity"))
        #expect(unknown.description.hasSuffix("  t=time:ns,accel=a,b,c:g\n            ^~~~~"))
        let unit = try #require(error("t=time:ns,acc=a,b,c:mg"))
        #expect(unit.column == 21 && unit.token == "mg" && unit.message.contains("expected g, mps2"))
        let count = try #require(error("t=time:ns,gyr=a,b:dps"))
        #expect(count.token == "gyr" && count.message.contains("three columns"))
        let noUnit = try #require(error("t=time,acc=a,b,c:g"))
        #expect(noUnit.token == "time" && noUnit.column == 3 && noUnit.message.contains("no unit"))
        #expect(try #require(error("t=x:s,t=y:s,acc=a,b,c:g")).message.contains("assigned twice"))
        #expect(try #require(error("t=x:s")).message.contains("no sensor"))
        #expect(try #require(error("a,b,c")).message.contains("QUANTITY=COLUMN"))
        #expect(try #require(error("t=x:s,acc=a,,c:g")).message.contains("empty column"))
        #expect(try #require(error("t=x:s,acc=a:g,b,c:g")).message.contains("unit goes after the last column"))
        #expect(unknown.subject == .columns && unknown.headline.hasPrefix("column mapping 't=time:ns,accel=a,b,c:g'"))
    }

    @Test func mapsHeaderNamesInAnyOrderAndIgnoresTheRest() throws {
        // Sensor Logger order: z before x.
        let file = TemporaryFile("time,seconds_elapsed,z,y,x\n1000000000,0,3,2,1\n1010000000,0.01,6,5,4\n")
        defer { file.remove() }
        let recording = try Recording.load(path: file.path, options: ReadOptions(columns: try ColumnSpec("t=time:ns,gyr=x,y,z:radps")))
        #expect(recording.schema.format == .mapped)
        #expect(recording.samples.map(\.rotationRate) == [SIMD3(1, 2, 3), SIMD3(4, 5, 6)])
        #expect(recording.samples.map(\.time) == [1, 1.01])
        #expect(recording.schema.hasGyroscope && !recording.schema.hasAccelerometer)
        #expect(recording.schema.columns[1].meaning == .ignored(reason: ColumnSpec.notNamedReason))
        // A spec replaces the recognition of a header Poise knows.
        let poise = TemporaryFile("t_s,acc_x_g,acc_y_g,acc_z_g\n0,1,2,3\n0.5,4,5,6\n")
        defer { poise.remove() }
        let swapped = try Recording.load(path: poise.path, options: ReadOptions(columns: try ColumnSpec("t=t_s:ms,acc=acc_y_g,acc_x_g,acc_z_g:mps2")))
        #expect(swapped.samples[1].time == 0.5e-3)
        #expect(swapped.samples[1].acceleration == SIMD3(5, 4, 6) * (1 / 9.80665))  // the reader's scale factor
    }

    @Test func aMissingHeaderCellIsNamedWithACaret() throws {
        let file = TemporaryFile("time,ax,ay,az\n0,0,0,1\n")
        defer { file.remove() }
        #expect {
            try Recording.load(path: file.path, options: ReadOptions(columns: try ColumnSpec("t=time:s,acc=ax,ay,azz:g")))
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("\(file.path):1: column mapping 't=time:s,acc=ax,ay,azz:g', 'azz' at column 20: no header cell 'azz' (header: 'time', 'ax', 'ay', 'az')")
                && text.hasSuffix("\n  t=time:s,acc=ax,ay,azz:g\n                     ^~~")
        }
        #expect {
            try Recording.load(path: file.path, options: ReadOptions(columns: try ColumnSpec("t=time:s,acc=ax,ay,ax:g")))
        } throws: { "\($0)".contains("column 2 is already mapped by 'ax'") }
        #expect {
            try Recording.load(path: file.path, options: ReadOptions(columns: try ColumnSpec("acc=ax,ay,az:g")))
        } throws: { "\($0)".contains("no time column") }
        // Without a time column the rows are timed by the rate.
        let timed = try Recording.load(path: file.path, options: ReadOptions(sampleRate: 50, columns: try ColumnSpec("acc=2,3,4:g")))
        #expect(timed.samples.map(\.acceleration) == [SIMD3(0, 0, 1)])
    }

    @Test func headerlessFilesAfterAPreambleByColumnNumber() throws {
        let file = TemporaryFile("Arduino IMU log\nstarted 12:00\n0,0.1,0.2,9.80665,180,0,-90\n10,0.1,0.2,9.80665,0,0,0\n20,0.1,0.2,9.80665,0,0,0\n")
        defer { file.remove() }
        let options = ReadOptions(columns: try ColumnSpec("t=1:ms,acc=2,3,4:mps2,gyr=5,6,7:dps"), skipLines: 2)
        let reader = try RecordingReader(path: file.path, options: options)
        #expect(reader.dialect.headerless && reader.dialect.skippedLines == 2)
        var samples: [MotionSample] = []
        while let s = try reader.next() { samples.append(s) }
        #expect(samples.map(\.time) == [0, 0.01, 0.02])
        #expect(samples[0].acceleration == SIMD3(0.1 / 9.80665, 0.2 / 9.80665, 1))
        #expect(samples[0].rotationRate == SIMD3(Double.pi, 0, -Double.pi / 2))
        #expect(reader.schema.columns.map(\.name) == (1...7).map { "column \($0)" })
        // Line numbers stay the file's: a bad value on line 4.
        let bad = TemporaryFile("preamble\n0,0,0,1\n1,0,x,1\n")
        defer { bad.remove() }
        #expect {
            try Recording.load(path: bad.path, options: ReadOptions(columns: try ColumnSpec("t=1:s,acc=2,3,4:g"), skipLines: 1))
        } throws: { "\($0)".hasPrefix("\(bad.path):3:3:") }
        // A column number beyond the row, and names in a file without a header.
        #expect {
            try Recording.load(path: file.path, options: ReadOptions(columns: try ColumnSpec("t=1:ms,acc=2,3,8:g"), skipLines: 2))
        } throws: { "\($0)".contains("'8' is not a column number from 1 to 7") && "\($0)".contains("the file has no header line") }
    }

    @Test func headerlessSemicolonFilesWithDecimalCommas() throws {
        let file = TemporaryFile("0,00;0,5;0;1\n0,01;0,25;0;1\n")
        defer { file.remove() }
        let recording = try Recording.load(path: file.path, options: ReadOptions(columns: try ColumnSpec("t=1:s,acc=2,3,4:g")))
        #expect(recording.samples.map(\.acceleration.x) == [0.5, 0.25])
        #expect(recording.samples.map(\.time) == [0, 0.01])
    }

    @Test func withoutAMappingAHeaderlessFileSaysHowToMapIt() throws {
        let file = TemporaryFile("0,0,0,1\n0.01,0,0,1\n")
        defer { file.remove() }
        #expect { try Recording.load(path: file.path) } throws: { "\($0)".contains("--columns t=1:s,acc=2,3,4:g") }
    }

    @Test func skipLinesBeyondTheFileIsAnError() throws {
        let file = TemporaryFile("a\nb\n")
        defer { file.remove() }
        #expect { try Recording.load(path: file.path, options: ReadOptions(skipLines: 5)) } throws: {
            "\($0)".contains("--skip-lines 5 skips 2 of them")
        }
        // A preamble before a recognised header.
        let preamble = TemporaryFile("device 42\nfirmware 1.0\nt_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n")
        defer { preamble.remove() }
        let recording = try Recording.load(path: preamble.path, options: ReadOptions(skipLines: 2))
        #expect(recording.schema.format == .poise && recording.samples.count == 1)
    }
}
