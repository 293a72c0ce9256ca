#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What makes two names the same file: the device and inode numbers `stat(2)` reports after
/// following symbolic links. Two paths with equal identities are one file whatever they are
/// called (the same path, a symbolic link, a hard link, `/dev/fd/N`).
public struct FileIdentity: Hashable, Sendable {
    /// `st_dev`: the device the file lives on.
    public let device: UInt64
    /// `st_ino`: the file's inode number on that device.
    public let inode: UInt64
    /// `st_mode & S_IFMT`: regular file, character device, FIFO…
    let kind: UInt32

    /// The identity of the file `path` names (symbolic links followed); `-` is standard input
    /// when `standardStream` is 0 and standard output when it is 1. `nil` when nothing is there.
    public init?(path: String, standardStream: Int32 = STDIN_FILENO) {
        if path == "-" {
            self.init(descriptor: standardStream)
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file an open descriptor refers to.
    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        kind = UInt32(info.st_mode) & UInt32(S_IFMT)
    }

    /// True for character devices (`/dev/null`, terminals), which reading and writing at once
    /// cannot damage.
    public var isCharacterDevice: Bool { kind == UInt32(S_IFCHR) }

    /// Refuses an output that is the same file as an input, before anything is read or written.
    ///
    /// Outputs named `-` are standard output and inputs named `-` standard input (so
    /// `poise fuse - >> in.csv < in.csv` is refused too). Outputs that do not exist yet and
    /// character devices pass.
    ///
    /// - Throws: `RecordingError` (line 0) naming the output and the input it would overwrite.
    public static func requireDistinct(outputs: [String?], inputs: [String?]) throws {
        let named = inputs.compactMap { $0 }.compactMap { path in FileIdentity(path: path).map { (path, $0) } }
        for case let output? in outputs {
            guard let identity = FileIdentity(path: output, standardStream: STDOUT_FILENO), !identity.isCharacterDevice else { continue }
            if let (input, _) = named.first(where: { $0.1 == identity }) {
                let how = output == input ? "" : " (the same file under another name: a link or a hard link)"
                let what = output == "-" ? "standard output" : output
                throw RecordingError(file: what, line: 0, column: 0,
                                     message: "refusing to write: it is the input file \(input == "-" ? "(standard input)" : input)\(how); choose another output file")
            }
        }
    }
}
