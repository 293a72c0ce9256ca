import CPoise
import CPoiseReaders
import Poise
import PoiseC
import PoiseRecording

/// What a `poise_reader` handle holds: an open recording (any `SampleSource`) and the block of
/// samples a read call fills before copying it out.
struct ReaderHandle {
    let source: any SampleSource
    var block: [MotionSample] = []

    typealias Box = HandleBox<ReaderHandle>
    static let kind = "poise_reader"
    static let tag: UInt64 = 0x504F_4953_4552_4452   // "POISERDR"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: tag, kind: kind)
    }

    /// The `ReadOptions` of the C options (the reading options of the `poise` commands), every
    /// bad value an invalid-argument error naming its field.
    static func readOptions(_ o: poise_read_options) throws(CError) -> ReadOptions {
        var options = ReadOptions()
        if o.sample_rate != 0 {
            try requireInRange(o.sample_rate, .sampleRate, "sample_rate")
            options.sampleRate = o.sample_rate
        }
        if let text = o.time_unit.map({ String(cString: $0) }) {
            guard let unit = TimeUnit(rawValue: text) else {
                throw .invalid("time_unit must be one of \(TimeUnit.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            options.timeUnit = unit
        }
        if let text = o.delimiter.map({ String(cString: $0) }) {
            guard let delimiter = CSVDelimiter(rawValue: text) else {
                throw .invalid("delimiter must be one of \(CSVDelimiter.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            options.delimiter = delimiter
        }
        switch o.decimal_comma {
        case -1: options.decimalComma = nil
        case 0, 1: options.decimalComma = o.decimal_comma == 1
        default: throw .invalid("decimal_comma must be -1, 0 or 1, got \(o.decimal_comma)")
        }
        options.topic = o.topic.map { String(cString: $0) }
        do {
            if let text = o.columns { options.columns = try ColumnSpec(String(cString: text)) }
            if let text = o.mount { options.mount = try SensorMount(String(cString: text)) }
        } catch {
            throw .invalid("\(error.subject == .mount ? "mount" : "columns"): \(error.headline)")
        }
        try requireInRange(Double(o.skip_lines), ParameterRange(0, 1e6, unit: "lines"), "skip_lines")
        options.skipLines = Int(o.skip_lines)
        if let text = o.comment.map({ String(cString: $0) }) {
            options.commentPrefixes = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for prefix in options.commentPrefixes {
                if let problem = CSVDialect.commentPrefixProblem(prefix) { throw .invalid("comment: \(problem)") }
            }
        }
        options.appleAccelerometerSign = try flag(o.apple_accelerometer_sign, "apple_accelerometer_sign")
        options.strict = try flag(o.strict, "strict")
        return options
    }

    static func flag(_ value: Int32, _ name: String) throws(CError) -> Bool {
        guard value == 0 || value == 1 else { throw .invalid("\(name) must be 0 or 1, got \(value)") }
        return value == 1
    }

    /// The poise_reader_has bits of a schema.
    static func has(_ schema: RecordingSchema) -> UInt32 {
        var bits: UInt32 = 0
        if schema.hasTime { bits |= UInt32(POISE_HAS_TIME.rawValue) }
        if schema.hasAccelerometer { bits |= UInt32(POISE_HAS_ACCELERATION.rawValue) }
        if schema.hasGyroscope { bits |= UInt32(POISE_HAS_ROTATION_RATE.rawValue) }
        if schema.hasMagnetometer { bits |= UInt32(POISE_HAS_MAGNETIC_FIELD.rawValue) }
        if schema.hasTruth { bits |= UInt32(POISE_HAS_TRUTH.rawValue) }
        if schema.hasMovement { bits |= UInt32(POISE_HAS_MOVEMENT.rawValue) }
        if schema.magneticFieldIsArbitrary { bits |= UInt32(POISE_MAGNETIC_FIELD_ARBITRARY.rawValue) }
        return bits
    }

    /// The columns the schema maps (ignored columns are not listed).
    var columns: [ColumnMapping] { source.schema.columns.filter { $0.meaning.slot != nil } }
}

/// A recording error (or any other the readers throw) as a parse error with its text.
func parseError(_ error: any Error) -> CError { CError(POISE_ERROR_PARSE, "\(error)") }

/// Copies `text` into a fixed C char array field.
func setText<T>(_ field: inout T, _ text: String) {
    withUnsafeMutableBytes(of: &field) { _ = copyCString(text, into: $0) }
}
