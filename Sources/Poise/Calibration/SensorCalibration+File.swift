#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SensorCalibration {
    /// Largest calibration file read, bytes (a real one is well under 2 kB).
    static let maximumFileSize = 1 << 20

    /// Reads a calibration JSON file (``init(json:)``).
    ///
    /// - Throws: ``CalibrationError`` naming `path` when the file cannot be opened or read, is
    ///   larger than 1 MiB, or is not a valid calibration (with the line and column of a syntax error).
    public init(contentsOf path: String) throws(CalibrationError) {
        guard let file = fopen(path, "rb") else {
            throw CalibrationError("\(path): cannot open the calibration file (\(String(cString: strerror(errno))))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if bytes.count > Self.maximumFileSize {
                throw CalibrationError("\(path): larger than \(Self.maximumFileSize) bytes; not a calibration file")
            }
            if count < buffer.count {
                if ferror(file) != 0 { throw CalibrationError("\(path): read error (\(String(cString: strerror(errno))))") }
                break
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CalibrationError("\(path): not UTF-8 text; a calibration is a JSON file")
        }
        do throws(CalibrationError) {
            try self.init(json: text)
        } catch {
            throw CalibrationError("\(path): \(error.message)")
        }
    }
}
