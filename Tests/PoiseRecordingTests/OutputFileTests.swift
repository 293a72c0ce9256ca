import Foundation
import Testing
@testable import PoiseRecording

#if canImport(Glibc)
import Glibc
#endif

/// `OutputFile` chooses how to write by what the path names, and `FileIdentity` tells two names
/// of one file apart from two files.
@Suite struct OutputFileTests {
    /// A fresh folder, removed by `remove()`.
    struct Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("poise-output-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        func file(_ name: String) -> String { path + "/" + name }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func aRegularFileIsReplacedOnlyAtFinishAndKeepsItsPermissions() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let target = folder.file("out.csv")
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(chmod(target, 0o600) == 0)
        let output = try OutputFile(path: target)
        #expect(output.mode == .atomic)
        #expect(output.temporaryPath == target + ".partial-\(getpid())")
        output.append("new\n")
        output.flush()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n", "the destination is untouched until finish()")
        try output.finish()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(folder.names == ["out.csv"])
    }

    @Test func abandoningLeavesTheDestinationAndNoTemporaryFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let target = folder.file("out.csv")
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        do {
            let output = try OutputFile(path: target)
            output.append("half a file")
            output.flush()
            #expect(folder.names.count == 2)
        }  // dropped without finish()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n")
        #expect(folder.names == ["out.csv"])
    }

    @Test func aChainOfRelativeLinksIsFollowedAndTheLinksStay() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
        try "old\n".write(toFile: folder.file("data/real.csv"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.file("data/middle.csv"), withDestinationPath: "real.csv")
        try FileManager.default.createSymbolicLink(atPath: folder.file("first.csv"), withDestinationPath: "data/middle.csv")
        let output = try OutputFile(path: folder.file("first.csv"))
        #expect(output.destination == folder.file("data/real.csv"))
        #expect(output.temporaryPath.hasPrefix(folder.file("data/real.csv.partial-")), "the temporary file is in the target's folder")
        output.append("new\n")
        try output.finish()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("first.csv")) == "data/middle.csv")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("data/middle.csv")) == "real.csv")
        #expect(try String(contentsOfFile: folder.file("data/real.csv"), encoding: .utf8) == "new\n")
    }

    @Test func devicesArePassedThroughAndDashIsStandardOutput() throws {
        let null = try OutputFile(path: "/dev/null")
        #expect(null.mode == .direct)
        null.append("discarded\n")
        try null.finish()
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

        let full = try OutputFile(path: "/dev/full")
        full.append("x")
        #expect(throws: RecordingError.self) { try full.finish() }

        #expect(try OutputFile(path: "-").mode == .standardOutput)
    }

    @Test func problemsAreNamedInPlainWords() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let missing = folder.file("nowhere/out.csv")
        #expect { try OutputFile(path: missing) } throws: { error in
            "\(error)" == "\(missing): cannot create the file: the folder \(folder.file("nowhere")) does not exist"
        }
        #expect { try OutputFile(path: folder.path) } throws: { error in "\(error)".hasSuffix("it is a folder; give a file name") }
        try "".write(toFile: folder.file("plain"), atomically: false, encoding: .utf8)
        #expect { try OutputFile(path: folder.file("plain/out.csv")) } throws: { error in "\(error)".contains("is a file, not a folder") }
        #expect(FileProblem.describe(errno: ENOSPC, path: "/x/y.csv") == "no space left on the device (disk full)")
        #expect(FileProblem.describe(errno: EACCES, path: folder.file("new.csv")) == "no permission to create files in the folder \(folder.path)")
        #expect(FileProblem.describe(errno: EROFS, path: "/x/y.csv") == "/x is on a read-only file system")
        #expect(FileProblem.folderName(of: "y.csv") == ".")
        #expect(FileProblem.folderName(of: "/y.csv") == "/")
    }

    @Test func identitiesMatchThroughLinksAndHardLinksOnly() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = folder.file("in.csv")
        try "t_s\n".write(toFile: input, atomically: false, encoding: .utf8)
        try "t_s\n".write(toFile: folder.file("copy.csv"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.file("soft.csv"), withDestinationPath: "in.csv")
        #expect(link(input, folder.file("hard.csv")) == 0)
        for alias in ["in.csv", "soft.csv", "hard.csv"] {
            #expect(throws: RecordingError.self) {
                try FileIdentity.requireDistinct(outputs: [folder.file(alias)], inputs: [input])
            }
        }
        // A copy with the same bytes, a file that does not exist yet and /dev/null are fine.
        try FileIdentity.requireDistinct(outputs: [folder.file("copy.csv"), folder.file("new.csv"), "/dev/null", nil],
                                         inputs: [input, "/dev/null"])
    }
}
