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
///   on the walk, is one input; any other folder is walked (each folder once, by its real path;
///   names starting with `.` and the `--out` folder are not visited).
/// - A symbolic link met on the walk is followed only when its target lies inside one of the
///   folder arguments (or with `--follow-links`); any other is listed as skipped with the reason,
///   so a link to `/` or `/proc/self` cannot walk the filesystem.
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
    /// Follow symbolic links whose target lies outside the folder arguments (`--follow-links`).
    var followLinks = false

    func find(_ arguments: [String]) -> [BatchInput] {
        var found: [BatchInput] = []
        var visited = Set<String>()
        let roots = arguments.compactMap { argument -> String? in
            var info = stat()
            guard stat(argument, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            return realPath(argument)
        }
        for argument in arguments {
            let name = (argument as NSString).lastPathComponent
            var info = stat()
            guard stat(argument, &info) == 0 else {
                found.append(BatchInput(path: argument, relative: name,
                                        problem: Self.unreadable(argument, errno: errno)))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR && !SessionReader.isSession(folder: argument) {
                walk(argument, below: "", roots: roots, into: &found, visited: &visited)
            } else {
                found.append(BatchInput(path: argument, relative: name))
            }
        }
        return found
    }

    private func walk(_ folder: String, below: String, roots: [String], into found: inout [BatchInput], visited: inout Set<String>) {
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
            var link = stat()
            if !followLinks, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                // (A dangling link is reported below, as unreadable.)
                if let target = realPath(path), !roots.contains(where: { target == $0 || target.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
                    found.append(BatchInput(path: path, relative: relative,
                                            skipReason: "a symbolic link to \(target), outside the input folders (--follow-links follows it)"))
                    continue
                }
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                found.append(BatchInput(path: path, relative: relative,
                                        problem: Self.unreadable(path, errno: errno)))
                continue
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if isFolder && !SessionReader.isSession(folder: path) {
                walk(path, below: relative, roots: roots, into: &found, visited: &visited)
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
