import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `poise live SOURCE`: standard input and UDP streams through a pipeline, stopped by SIGINT.
@Suite struct LiveCommandTests {
    /// Standard input that ends: every row is processed exactly as `replay --speed max` processes
    /// the same file when the stages are built for the same rate (the replay's whole-file median).
    @Test func standardInputGivesTheReplaysRows() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 300, rate: 100)
        let live = scratch.path("live.csv"), replayed = scratch.path("replay.csv")
        let spec = "lowpass:cutoff=5 | fusion:6d"
        let replay = try PoiseProcess.run(["replay", input, "--speed", "max", "--pipeline", spec, "--out", replayed, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let rate = try #require(try json(replay.stdout)["sample_rate_hz"] as? Double)
        let result = try PoiseProcess.run(["live", "-", "--pipeline", spec, "--rate", "\(rate)", "--out", live, "--json"],
                                          standardInput: FileHandle(forReadingAtPath: input))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 300)
        #expect(report["stopped"] as? Bool == false)
        #expect(report["sample_rate_hz"] as? Double == rate)
        #expect(try String(contentsOfFile: live, encoding: .utf8) == String(contentsOfFile: replayed, encoding: .utf8))
        // Without --rate the rate comes from the first rows.
        let estimated = try PoiseProcess.run(["live", "-", "--json"], standardInput: FileHandle(forReadingAtPath: input))
        #expect(try json(estimated.stdout)["rate_estimated"] as? Bool == true)
        #expect(abs((try json(estimated.stdout)["sample_rate_hz"] as? Double ?? 0) - 100) < 1e-6)
    }

    /// A multi-rate stream (magnetometer every fourth row, its fields empty otherwise) is fused
    /// sample by sample: every row comes out, the held rows are counted, not called problems.
    @Test func multiRateRowsHoldTheSlowerSensor() throws {
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT\n"
        for i in 0..<200 { text += "\(Double(i) / 100),0,0,1,0,0,0.01,\(i % 4 == 0 ? "20,0,-40" : ",,")\n" }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch.path("multi-rate.csv"), output = scratch.path("live.csv")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try PoiseProcess.run(["live", "-", "--pipeline", "fusion:9d", "--rate", "100", "--out", output, "--json"],
                                          standardInput: FileHandle(forReadingAtPath: input))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 200)
        #expect(report["rows_with_held_sensor"] as? Int == 150)
        #expect((report["problems"] as? [String])?.isEmpty == true)
        let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 201 && !rows.contains { $0.contains("nan") })
    }

    /// UDP: CSV datagrams (a header first) and JSON datagrams are processed as they arrive; SIGINT
    /// stops the run, completes the output file and prints the report (exit 130).
    @Test(arguments: ["csv", "json"])
    func udpStreamStopsOnSIGINTWithEverySampleWritten(format: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 120, rate: 50)
        let out = scratch.path("live.csv")
        let port = try Self.freePort()
        let lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").map(String.init)
        let names = lines[0].split(separator: ",").map(String.init)
        let datagrams = format == "csv" ? lines : lines.dropFirst().map { line in
            "{" + zip(names, line.split(separator: ",")).map { "\"\($0)\":\($1)" }.joined(separator: ",") + "}"
        }
        let (status, report, errors) = try Self.interruptedLive(["udp://127.0.0.1:\(port)", "--pipeline", "lowpass:cutoff=5",
                                                                 "--rate", "50", "--out", out], until: { Self.lineCount(out) >= 121 }) {
            try Self.send(datagrams, to: port)
        }
        #expect(status == 130, "\(errors)")
        #expect(report["samples"] as? Int == 120)
        #expect(report["stopped"] as? Bool == true)
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 121)
        #expect(rows.dropFirst().map { $0.split(separator: ",")[0] } == lines.dropFirst().map { $0.split(separator: ",")[0] },
                "every sample, in order, with its own time")
        #expect(scratch.leftovers.isEmpty)
    }

    /// UDP sources spin for datagrams by default (the report says how long); `--no-spin` does not.
    @Test(arguments: [true, false])
    func spinningIsTheDefaultAndCanBeTurnedOff(spin: Bool) throws {
        let port = try Self.freePort()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path("live.csv")
        let datagrams = ["t_s,acc_x_g,acc_y_g,acc_z_g"] + (0 ..< 60).map { "\(Double($0) / 100),0,0,1" }
        let (status, report, errors) = try Self.interruptedLive(["udp://127.0.0.1:\(port)", "--rate", "100", "--out", out] + (spin ? [] : ["--no-spin"]),
                                                                until: { Self.lineCount(out) >= 61 }) {
            for datagram in datagrams {
                try Self.send([datagram], to: port)
                usleep(10_000)
            }
        }
        #expect(status == 130, "\(errors)")
        #expect(report["samples"] as? Int == 60)
        #expect(report["spin"] as? Bool == spin)
        let spun = try #require(report["spin_s"] as? Double)
        if spin { #expect(spun > 0 && spun < 0.5, "\(spun) s") } else { #expect(spun == 0) }
    }

    /// Datagrams of the "Sensorstream IMU+GPS" Android app (time, then sensor id and x, y, z:
    /// 3 accelerometer m/s², 4 gyroscope rad/s, 5 magnetometer µT; 81 orientation skipped) are
    /// read as a stream of those three sensors, in Poise's units.
    @Test func sensorStreamDatagramsAreRead() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path("live.csv")
        let port = try Self.freePort()
        let datagrams = (0 ..< 40).map { i in
            "\(100 + Double(i) / 50), 3, 0.5, -0.25, 9.80665, 4, 0.01, 0.02, -0.03, 81, 120.0, 3.0, -1.5, 5, 20.0, -5.0, -40.0"
        }
        let (status, report, errors) = try Self.interruptedLive(["udp://127.0.0.1:\(port)", "--rate", "50", "--out", out],
                                                                until: { Self.lineCount(out) >= 41 }) {
            try Self.send(datagrams, to: port)
        }
        #expect(status == 130, "\(errors)")
        #expect(report["samples"] as? Int == 40, "\(errors)")
        #expect(report["rows_dropped"] as? Int == 0)
        let rows = try csvRows(out)
        try #require(rows.count == 41)
        let names = rows[0]
        let first = rows[1].map { Double($0) ?? .nan }
        func value(_ name: String) -> Double { names.firstIndex(of: name).map { first[$0] } ?? .nan }
        #expect(value("t_s") == 100)
        #expect(abs(value("acc_x_g") - 0.5 / 9.80665) < 1e-12 && abs(value("acc_y_g") + 0.25 / 9.80665) < 1e-12)
        #expect(abs(value("acc_z_g") - 1) < 1e-12)
        #expect(value("gyr_x_radps") == 0.01 && value("gyr_z_radps") == -0.03)
        #expect(value("mag_x_uT") == 20 && value("mag_z_uT") == -40)
    }

    /// Malformed rows in a stream are counted, quoted with their position and left out; the
    /// stream goes on.
    @Test func malformedRowsAreCountedAndTheStreamGoesOn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch.path("bad.csv")
        try "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,abc,0,1\n0.02,0,0,1,5\n0.03,0,0,1\n".write(toFile: input, atomically: true, encoding: .utf8)
        let result = try PoiseProcess.run(["live", "-", "--rate", "100", "--json"], standardInput: FileHandle(forReadingAtPath: input))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 2)
        #expect(report["rows_dropped"] as? Int == 2)
        let problems = try #require(report["problems"] as? [String])
        #expect(problems.count == 2 && problems[0].hasPrefix("-:3:2:") && problems[1].hasPrefix("-:4:"), "\(problems)")
    }

    /// One UDP datagram with a NUL byte, one of random bytes and one of bad JSON among good
    /// rows: each is counted by its reason and skipped, the session goes on, and the output
    /// holds every good row (written as they come: it is complete before SIGINT).
    @Test func badDatagramsAreSkippedAndTheSessionGoesOn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.path("live.csv")
        let port = try Self.freePort()
        let good = (0 ..< 40).map { "\(Double($0) / 50),0,0,1" }
        var random = SystemRandomNumberGenerator()
        let noise = "\u{7f}" + String(decoding: (0 ..< 200).map { _ in UInt8.random(in: 1 ... 255, using: &random) }.filter { $0 != 10 && $0 != 13 }, as: UTF8.self)
        let datagrams = ["t_s,acc_x_g,acc_y_g,acc_z_g"] + good[..<20] + ["0.395,0,0\u{0}1", "{\"t_s\": 0.397, \"acc_x_g\"", noise] + good[20...]
        let (status, report, errors) = try Self.interruptedLive(["udp://127.0.0.1:\(port)", "--rate", "50", "--out", out],
                                                                until: { Self.lineCount(out) >= 41 }) {
            try Self.send(datagrams, to: port)
        }
        #expect(status == 130, "\(errors)")
        #expect(report["samples"] as? Int == 40, "\(errors)")
        #expect(report["ended"] as? String == "stopped")
        let bad = try #require(report["bad_input"] as? [String: Int])
        #expect(bad["binary"] == 1 && bad["bad_json"] == 1, "\(bad)")
        #expect(report["rows_dropped"] as? Int == 1, "the random bytes are a row the reader drops")
        #expect(try csvRows(out).dropFirst().map { $0[0] } == good.map { String($0.split(separator: ",")[0]) })
    }

    /// `live -` with a line of 2 MiB and a line with a NUL byte after 50 good rows: both are
    /// counted and skipped, the rows after them are processed, the session ends with its input.
    @Test func overlongAndBinaryLinesOnStandardInputAreSkipped() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch.path("hostile.csv"), out = scratch.path("live.csv")
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0 ..< 50 { text += "\(Double(i) / 100),0,0,1\n" }
        text += String(repeating: "7", count: 2 << 20) + "\n" + "0.5,0,\u{0},1\n"
        for i in 51 ..< 60 { text += "\(Double(i) / 100),0,0,1\n" }
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try PoiseProcess.run(["live", "-", "--rate", "100", "--out", out, "--json"], standardInput: FileHandle(forReadingAtPath: input))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["samples"] as? Int == 59)
        #expect(report["ended"] as? String == "input_ended")
        #expect(report["bad_input"] as? [String: Int] == ["binary": 1, "too_long": 1, "bad_json": 0, "oversized_datagrams": 0])
        #expect(try csvRows(out).count == 60)
        // The text report names them too.
        let plain = try PoiseProcess.run(["live", "-", "--rate", "100"], standardInput: FileHandle(forReadingAtPath: input))
        #expect(plain.stdout.contains("skipped   1 binary (a NUL byte), 1 over 65536 bytes lines"), "\(plain.stdout)")
    }

    /// `--max-bad N` ends the session at the N-th bad input (exit 1), with the report printed and
    /// the output holding the samples processed before.
    @Test func maxBadStopsTheSessionWithTheReport() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = scratch.path("bad.csv"), out = scratch.path("live.csv")
        var text = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
        for i in 0 ..< 10 { text += "\(Double(i) / 100),0,0,1\n" }
        text += "x,0,0,1\n0.2,\u{0}\n"
        for i in 30 ..< 40 { text += "\(Double(i) / 100),0,0,1\n" }
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let stopped = try PoiseProcess.run(["live", "-", "--rate", "100", "--out", out, "--json", "--max-bad", "2"],
                                           standardInput: FileHandle(forReadingAtPath: input))
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped after 2 bad inputs (--max-bad)"), "\(stopped.stderr)")
        let report = try json(stopped.stdout)
        #expect(report["ended"] as? String == "max_bad")
        let samples = try #require(report["samples"] as? Int)
        #expect(samples >= 10 && samples < 20)
        #expect(try csvRows(out).count == samples + 1)
        // Without --max-bad the same input runs to its end.
        let whole = try PoiseProcess.run(["live", "-", "--rate", "100", "--json"], standardInput: FileHandle(forReadingAtPath: input))
        #expect(whole.status == 0)
        #expect(try json(whole.stdout)["samples"] as? Int == 20)
    }

    /// The output is written in place, so it may never be the file standard input reads.
    @Test func theOutputCannotBeTheInput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 50, rate: 100)
        let before = try String(contentsOfFile: input, encoding: .utf8)
        let result = try PoiseProcess.run(["live", "-", "--rate", "100", "--out", input], standardInput: FileHandle(forReadingAtPath: input))
        #expect(result.status == 1 && result.stderr.contains("refusing to write: it is the input file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == before)
    }

    /// `--duration` ends a session whose input never ends (exit 0, the report printed).
    @Test func durationEndsTheSession() throws {
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable)
        process.arguments = ["live", "-", "--rate", "100", "--json", "--duration", "0.5"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,0,0,1\n".utf8))
        let report = try json(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 0)
        #expect(report["ended"] as? String == "duration")
        #expect(report["samples"] as? Int == 2)
    }

    /// An output that cannot be written ends the session (exit 1) with the report printed.
    @Test func aBrokenOutputEndsTheSessionWithTheReport() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 200, rate: 100)
        let result = try PoiseProcess.run(["live", "-", "--rate", "100", "--out", "/dev/full", "--json"], standardInput: FileHandle(forReadingAtPath: input))
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/full"), "\(result.stderr)")
        #expect(try json(result.stdout)["ended"] as? String == "output_failed")
    }

    /// A sender that pauses for longer than a second is reported while it happens — a line on
    /// standard error once no sample has arrived for more than 1 s, one when data resumes — and
    /// in the report as a silence.
    @Test func aPausingSenderIsReportedWhileItHappens() throws {
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable)
        process.arguments = ["live", "-", "--rate", "100", "--json"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.01,0,0,1\n".utf8))
        let waiting = Self.text(of: errors, until: "waiting for data", seconds: 10)
        #expect(waiting.contains("poise live: waiting for data: no sample for 1."), "\(waiting)")
        Thread.sleep(forTimeInterval: 0.3)
        input.fileHandleForWriting.write(Data("0.02,0,0,1\n".utf8))
        try input.fileHandleForWriting.close()
        let report = try json(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let all = waiting + rest
        #expect(all.components(separatedBy: "waiting for data").count == 2, "one line for one pause: \(all)")
        let resumed = try #require(all.range(of: "poise live: data resumed after "), "\(all)")
        let seconds = Double(all[resumed.upperBound...].prefix { $0 != " " }) ?? 0
        #expect(seconds >= 1.25, "\(all)")
        #expect(report["samples"] as? Int == 3)
        #expect(report["silences"] as? Int == 1)
        #expect((report["longest_silence_s"] as? Double ?? 0) >= 1.25)
    }

    /// What `pipe` gives until its text contains `marker`, the pipe ends or `seconds` pass (it
    /// polls, so a silent process cannot hang the test).
    static func text(of pipe: Pipe, until marker: String, seconds: Double) -> String {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !text.contains(marker), Date() < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return text
    }

    /// `udp://:PORT` listens on the loopback address only; naming another address says so.
    @Test func listeningBeyondLoopbackIsAnnounced() throws {
        let port = try Self.freePort()
        let (status, _, errors) = try Self.interruptedLive(["udp://0.0.0.0:\(port)", "--rate", "50"]) {}
        #expect(status == 130, "\(errors)")
        #expect(errors.contains("interrupted before the stream started"), "\(errors)")
        #expect(errors.contains("listening on 0.0.0.0:\(port): reachable from other machines"), "\(errors)")
    }

    /// A serial port (a pseudo-terminal standing in for an Arduino printing CSV): rows written
    /// to it are processed as they come; SIGINT ends the run.
    @Test func serialPortRowsAreProcessedAsTheyCome() throws {
        var master: Int32 = -1, slave: Int32 = -1
        #expect(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master); close(slave) }
        let device = String(cString: try #require(ttyname(slave)))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.recording(count: 50, rate: 100)
        let out = scratch.path("serial.csv")
        let (status, report, errors) = try Self.interruptedLive(["serial://\(device)?baud=115200", "--rate", "100", "--out", out],
                                                                until: { Self.lineCount(out) >= 51 }) {
            for line in try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n") {
                let text = line + "\r\n"     // as an Arduino's println writes
                _ = text.withCString { write(master, $0, strlen($0)) }
            }
        }
        #expect(status == 130, "\(errors)")
        #expect(report["samples"] as? Int == 50, "\(errors)")
        #expect(try csvRows(out).count == 51)
    }

    @Test(arguments: ["udp://127.0.0.1", "tcp://127.0.0.1:9000", "udp://127.0.0.1:0", "/dev/ttyUSB0",
                      "serial:///dev/null", "serial:///no/such/device", "serial:///dev/ttyS0?baud=1234", "serial://ttyUSB0"])
    func badSourcesAreRefused(source: String) throws {
        let result = try PoiseProcess.run(["live", source])
        #expect(result.status != 0 && result.status != 130, "\(result.stderr)")
        #expect(result.stderr.contains(source), "\(result.stderr)")
    }

    /// Starts `poise live ARGUMENTS --json`, waits for it to open its source (a UDP port: until
    /// the port is taken), runs `feed`, waits until `done` holds (polled, with a deadline far
    /// beyond what a loaded machine needs), sends SIGINT and returns the exit status, the JSON
    /// report (empty when none was printed) and standard error.
    static func interruptedLive(_ arguments: [String], until done: () -> Bool = { true },
                                feed: () throws -> Void) throws -> (Int32, [String: Any], String) {
        let process = Process()
        process.executableURL = try #require(PoiseProcess.executable)
        process.arguments = ["live"] + arguments + ["--json"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        if let port = arguments.first.flatMap(udpPort) {
            while !portIsTaken(port), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        } else {
            Thread.sleep(forTimeInterval: 0.5)   // the command opens its source
        }
        try feed()
        while !done(), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.3)
        process.interrupt()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.isEmpty ? [:] : try json(output), errors)
    }

    /// The port of a `udp://HOST:PORT` source.
    static func udpPort(_ source: String) -> UInt16? {
        guard source.hasPrefix("udp://"), let colon = source.lastIndex(of: ":") else { return nil }
        return UInt16(source[source.index(after: colon)...])
    }

    /// Whether a UDP socket is bound to 127.0.0.1:`port` (binding it fails).
    static func portIsTaken(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound != 0 && errno == EADDRINUSE
    }

    /// The number of lines in `path` so far (0 when it does not exist).
    static func lineCount(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// A UDP port that was free a moment ago.
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return try #require(UInt16(bigEndian: address.sin_port) > 0 ? UInt16(bigEndian: address.sin_port) : nil)
    }

    /// Sends each string as one datagram to 127.0.0.1:`port`.
    static func send(_ datagrams: [String], to port: UInt16) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        for datagram in datagrams {
            let bytes = Array(datagram.utf8)   // every byte, a NUL too
            let sent = bytes.withUnsafeBytes { text in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptor, text.baseAddress, text.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            #expect(sent > 0)
            usleep(500)
        }
    }
}
