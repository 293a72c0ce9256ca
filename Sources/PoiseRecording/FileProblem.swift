#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns an `errno` from opening, writing or renaming a file into words a user can act on
/// ("the folder /x does not exist", "no permission to write in the folder /x", "the disk is full").
public enum FileProblem {
    /// What went wrong with `path`, for an error that already names the file.
    ///
    /// - Parameters:
    ///   - errno: the `errno` value left by the failed call.
    ///   - path: the file that was being created or written (its folder is named when the
    ///     problem is the folder's).
    public static func describe(errno code: Int32, path: String) -> String {
        let folder = folderName(of: path)
        switch code {
        case ENOENT:
            return exists(folder) ? "a folder on the way to \(path) does not exist" : "the folder \(folder) does not exist"
        case ENOTDIR: return "a part of \(folder) is a file, not a folder"
        case EACCES, EPERM:
            return exists(path) && isFolderWritable(folder) ? "no permission to write \(path)"
                : "no permission to create files in the folder \(folder)"
        case EROFS: return "\(folder) is on a read-only file system"
        case ENOSPC: return "no space left on the device (disk full)"
        case EDQUOT: return "disk quota exceeded"
        case EISDIR: return "\(path) is a folder; give a file name"
        case ENAMETOOLONG: return "the name is too long"
        case ELOOP: return "too many levels of symbolic links"
        case EXDEV: return "the temporary file and \(path) are on different file systems"
        case EPIPE: return "the reading end of the pipe was closed"
        case EIO: return "input/output error on the device"
        case ENXIO: return "no process is reading the named pipe, or the device is not there"
        default: return String(cString: strerror(code))
        }
    }

    /// The folder part of `path` (`.` for a bare name, `/` for a file at the root).
    public static func folderName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private static func isFolderWritable(_ folder: String) -> Bool {
        access(folder, W_OK) == 0
    }
}
