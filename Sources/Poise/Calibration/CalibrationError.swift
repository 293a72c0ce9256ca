/// Why a calibration could not be computed, loaded or applied: a sentence saying what the data or
/// the file lacks and, for recordings, what to do instead (for example "the device turned through
/// only 40° about X …; turn it in all directions").
public struct CalibrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, one or more sentences, without a trailing newline.
    public var message: String

    /// An error with `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
