/// A problem found while running a command: bad input data, an unreadable or unwritable file, a
/// value that does not fit the recording. Printed as `Error: <message>` without a usage block,
/// since the arguments parsed fine (exit status 1, `ExitPolicy`).
public struct CommandError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and where (file, column, parameter).
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
