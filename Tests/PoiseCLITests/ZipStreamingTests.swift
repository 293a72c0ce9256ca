import Foundation
import Testing

/// ZIP exports are streamed: `poise info` on archives whose entries inflate to hundreds of MiB
/// (a Sensor Logger export made by Python's zipfile during the test, each CSV followed by a long
/// run of blank lines) stays under 100 MB resident and writes nothing to TMPDIR; an entry that
/// inflates to more than the archive declares is refused before the bytes are used. The peak
/// resident size is the child's `ru_maxrss`, measured by Python's `resource` module.
@Suite("ZIP entries are streamed")
struct ZipStreamingTests {
    static let pythonPresent: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import zipfile, resource"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Runs `script` with python3 in `folder`; returns its standard output.
    func python(_ script: String, in folder: String, _ arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3: \(message)")
        return text
    }

    /// Writes `name`: Gyroscope.csv and Magnetometer.csv (1,000 rows each at 100 Hz), each
    /// followed by `blankMiB` MiB of blank lines, deflated.
    static let makeArchive = """
    import sys, zipfile
    name, blank = sys.argv[1], int(sys.argv[2]) << 20
    with zipfile.ZipFile(name, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for entry, scale in (('Gyroscope.csv', 0.01), ('Magnetometer.csv', 30.0)):
            with z.open('2025-10-15_22-05-06/' + entry, 'w', force_zip64=False) as f:
                f.write(b'time,seconds_elapsed,z,y,x\\n')
                for i in range(1000):
                    f.write(b'%d,%.2f,%.4f,%.4f,%.4f\\n' % (1760565906000000000 + i * 10000000, i / 100, scale, -scale, 2 * scale))
                piece = b'\\n' * (1 << 20)
                for _ in range(blank >> 20):
                    f.write(piece)
    """

    /// Runs `poise arguments…` from Python; returns (status, peak resident MB, stderr).
    static let measure = """
    import resource, subprocess, sys
    run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(run.returncode, peak, run.stderr.decode().replace('\\n', ' '), sep='|')
    """

    @Test("two entries of 192 MiB each read in bounded memory, nothing extracted",
          .enabled(if: pythonPresent, "python3 is absent"))
    func largeEntriesStayUnder100MB() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-zip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try python(Self.makeArchive, in: folder, ["big.zip", "192"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/big.zip")[.size] as? Int)
        #expect(size < 2_000_000)
        let executable = try #require(PoiseProcess.executable).path
        let temporary = FileManager.default.temporaryDirectory.path
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: temporary))
        let result = try python(Self.measure, in: folder, [executable, "info", folder + "/big.zip"]).split(separator: "|", omittingEmptySubsequences: false)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: temporary))
        #expect(result[0] == "0", "\(result)")
        let peak = try #require(Double(result[1]))
        #expect(peak < 100, "peak resident \(peak) MB")
        #expect(after.subtracting(before).filter { $0.hasPrefix("poise-session-") }.isEmpty)
    }

    @Test("an entry that inflates to more than its declared size is refused",
          .enabled(if: pythonPresent, "python3 is absent"))
    func aBombIsRefusedAtTheDeclaredSize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poise-zip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try python(Self.makeArchive, in: folder, ["bomb.zip", "8"])
        // Gyroscope.csv's declared size (central directory and local header) lowered to 100,000.
        _ = try python("""
        import struct
        b = bytearray(open('bomb.zip', 'rb').read())
        for signature, at in ((b'PK\\x01\\x02', 24), (b'PK\\x03\\x04', 22)):
            i = b.find(signature)
            assert b[i + (46 if at == 24 else 30):].startswith(b'2025-10-15_22-05-06/Gyroscope.csv')
            b[i + at:i + at + 4] = struct.pack('<I', 100000)
        open('bomb.zip', 'wb').write(b)
        """, in: folder)
        let run = try PoiseProcess.run(["info", folder + "/bomb.zip"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("entry 2025-10-15_22-05-06/Gyroscope.csv: inflates to more than the 100000 bytes the archive declares"), "\(run.stderr)")
    }
}
