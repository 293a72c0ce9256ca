import Foundation
import Poise

/// Options for reading a recording.
public struct ReadOptions: Sendable {
    /// The file's accelerometer uses Apple's raw convention (−1 g on the up axis at rest).
    /// When true, acceleration is negated to Poise's specific-force convention. Never guessed.
    public var appleAccelerometerSign: Bool
    /// Strict stops at the first problem; lenient repairs or drops rows and reports each one.
    public var strict: Bool

    public init(appleAccelerometerSign: Bool = false, strict: Bool = true) {
        self.appleAccelerometerSign = appleAccelerometerSign
        self.strict = strict
    }
}

/// A recording held in memory: its schema and samples in core units.
public struct Recording: Sendable {
    /// The path it was read from.
    public var path: String
    /// The column layout.
    public var schema: RecordingSchema
    /// Samples in file order.
    public var samples: [MotionSample]

    public init(path: String, schema: RecordingSchema, samples: [MotionSample]) {
        self.path = path; self.schema = schema; self.samples = samples
    }

    /// Reads a whole recording.
    ///
    /// - Throws: `RecordingError` naming file, line and column for anything it cannot read.
    public static func load(path: String, options: ReadOptions = ReadOptions()) throws -> Recording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "cannot read the file (missing or not readable)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RecordingError(file: path, line: 0, column: 0, message: "not a text (UTF-8) file")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let headerLine = lines.first else {
            throw RecordingError(file: path, line: 0, column: 0, message: "empty file (no header)")
        }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let schema = try HeaderMapping.schema(header: header, file: path)
        var samples: [MotionSample] = []
        samples.reserveCapacity(lines.count)
        let sign = options.appleAccelerometerSign ? -1.0 : 1.0
        for (index, line) in lines.dropFirst().enumerated() {
            let lineNumber = index + 2
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == header.count else {
                throw RecordingError(file: path, line: lineNumber, column: 0,
                                     message: "expected \(header.count) fields, found \(fields.count)")
            }
            var s = MotionSample(time: Double(samples.count))
            var mag = SIMD3<Double>.zero
            var q = SIMD4<Double>.zero
            var truthFinite = true
            for (c, field) in fields.enumerated() {
                let trimmed = field.trimmingCharacters(in: .whitespaces)
                guard let value = Double(trimmed) else {
                    throw RecordingError(file: path, line: lineNumber, column: c + 1,
                                         message: "'\(trimmed)' is not a number (column \(schema.columns[c].name))")
                }
                switch schema.columns[c].meaning {
                case .truth(let k):
                    if !value.isFinite { truthFinite = false }
                    q[k] = value
                    continue
                case .ignored: continue
                default: break
                }
                guard value.isFinite else {
                    throw RecordingError(file: path, line: lineNumber, column: c + 1,
                                         message: "non-finite value '\(trimmed)' in \(schema.columns[c].name)")
                }
                switch schema.columns[c].meaning {
                case .time(let scale): s.time = value * scale
                case .acceleration(let axis, let scale): s.acceleration[axis] = sign * value * scale
                case .rotationRate(let axis, let scale): s.rotationRate[axis] = value * scale
                case .magneticField(let axis, let scale): mag[axis] = value * scale
                case .movement: s.movement = value != 0
                case .truth, .ignored: break
                }
            }
            if schema.hasMagnetometer { s.magneticField = mag }
            if schema.hasTruth && truthFinite { s.truth = Quaternion(w: q[0], x: q[1], y: q[2], z: q[3]) }
            samples.append(s)
        }
        return Recording(path: path, schema: schema, samples: samples)
    }
}
