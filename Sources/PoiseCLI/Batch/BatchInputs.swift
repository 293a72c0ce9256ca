#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PoiseRecording

/// One recording found by `BatchInputs`: a file, a session folder or a ZIP export.
struct BatchInput: Sendable {
    /// The path as found (the argument, or the argument joined with the path below it).
    var path: String
    /// The path below the argument it was found under (just the name for an argument itself),
    /// mirrored under `--out`.
    var relative: String
    /// Why it is not processed (not a recording format), or nil.
    var skipReason: String?
    /// Why it cannot be processed (missing argument), or nil.
    var problem: String?
}

/// The inputs of `poise batch`: its arguments, with folders walked recursively.
///
/// - A file argument is an input whatever its name.
/// - A folder that holds a session Poise reads (`SessionReader.isSession(folder:)`), given or met
///   on the walk, is one input; any other folder is walked (symbolic links followed, each folder
///   once; names starting with `.` and the `--out` folder are not visited).
/// - In a walked folder, a file is an input when it matches an `--include` glob, or, without
///   `--include`, when its extension is one Poise reads (`recordingExtensions`, ZIP exports
///   included); other files are listed as skipped with the reason. `--exclude` globs leave files
///   and folders out (not listed). Globs (`fnmatch`) are matched against the name and against the
///   path below the argument.
///
/// Inputs are sorted by argument order, then by path, so every run (and every `--shard`) sees
/// the same order.
struct BatchInputs {
    static let recordingExtensions: Set<String> = ["csv", "tsv", "txt", "bag", "mcap", "zip"]

    var include: [String] = []
    var exclude: [String] = []
    /// The real path of the output folder, never walked.
    var outFolder: String?

    func find(_ arguments: [String]) -> [BatchInput] {
        var found: [BatchInput] = []
        var visited = Set<String>()
        for argument in arguments {
            let name = (argument as NSString).lastPathComponent
            var info = stat()
            guard stat(argument, &info) == 0 else {
                found.append(BatchInput(path: argument, relative: name,
                                        problem: Self.unreadable(argument, errno: errno)))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR && !SessionReader.isSession(folder: argument) {
                walk(argument, below: "", into: &found, visited: &visited)
            } else {
                found.append(BatchInput(path: argument, relative: name))
            }
        }
        return found
    }

    private func walk(_ folder: String, below: String, into found: inout [BatchInput], visited: inout Set<String>) {
        guard let real = realPath(folder), real != outFolder, visited.insert(real).inserted else { return }
        guard let directory = opendir(folder) else {
            found.append(BatchInput(path: folder, relative: below.isEmpty ? "." : below,
                                    problem: "cannot list the folder \(folder): \(FileProblem.describe(errno: errno, path: folder))"))
            return
        }
        closedir(directory)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let relative = below.isEmpty ? name : below + "/" + name
            if matches(exclude, name: name, relative: relative) { continue }
            var info = stat()
            guard stat(path, &info) == 0 else {
                found.append(BatchInput(path: path, relative: relative,
                                        problem: Self.unreadable(path, errno: errno)))
                continue
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if isFolder && !SessionReader.isSession(folder: path) {
                walk(path, below: relative, into: &found, visited: &visited)
                continue
            }
            if !include.isEmpty {
                if matches(include, name: name, relative: relative) { found.append(BatchInput(path: path, relative: relative)) }
            } else if isFolder || Self.recordingExtensions.contains((name as NSString).pathExtension.lowercased()) {
                found.append(BatchInput(path: path, relative: relative))
            } else {
                let kind = (name as NSString).pathExtension.isEmpty ? "a file without an extension" : "extension .\((name as NSString).pathExtension)"
                found.append(BatchInput(path: path, relative: relative,
                                        skipReason: "not a recording format Poise reads (\(kind)); --include '\(name)' takes it"))
            }
        }
    }

    /// Why `path` cannot be read, in plain words.
    static func unreadable(_ path: String, errno code: Int32) -> String {
        "cannot read \(path): " + (code == ENOENT ? "no such file or folder" : FileProblem.describe(errno: code, path: path))
    }

    private func matches(_ globs: [String], name: String, relative: String) -> Bool {
        globs.contains { fnmatch($0, name, 0) == 0 || fnmatch($0, relative, 0) == 0 }
    }
}

/// The canonical absolute path of `path` (links resolved), or nil when it does not exist.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
