/// A problem in a recording, located by file, line and column (1-based; column 0 = whole line).
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Path of the file as given by the caller.
    public var file: String
    /// 1-based line number (the header is line 1); 0 when the problem is the whole file.
    public var line: Int
    /// 1-based column (field) number; 0 when the problem concerns the whole line.
    public var column: Int
    /// What is wrong, in words a user can act on.
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }

    /// `file:line:column: message`, the format compilers use, so editors can jump to it.
    /// A copy of a pipe (`InputSpools`) is named as the input it was made of.
    public var description: String {
        let file = InputSpools.name(of: self.file)
        if line == 0 { return "\(file): \(message)" }
        if column == 0 { return "\(file):\(line): \(message)" }
        return "\(file):\(line):\(column): \(message)"
    }
}
