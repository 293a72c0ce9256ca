import CPoise
import Poise

/// What a `poise_calibration` handle holds: a loaded ``SensorCalibration``.
struct CalibrationHandle {
    let calibration: SensorCalibration

    typealias Box = HandleBox<CalibrationHandle>
    static let kind = "poise_calibration"

    static func open(_ handle: OpaquePointer?) throws(CError) -> UnsafeMutablePointer<Box> {
        try Box.open(handle, tag: HandleTag.calibration, kind: kind)
    }

    /// The correction of `sensor` (0 accelerometer, 1 gyroscope, 2 magnetometer).
    func correction(_ sensor: Int32) throws(CError) -> SensorCorrection? {
        switch sensor {
        case 0: calibration.accelerometer
        case 1: calibration.gyroscope
        case 2: calibration.magnetometer
        default: throw .invalid("sensor must be 0 (accelerometer), 1 (gyroscope) or 2 (magnetometer), got \(sensor)")
        }
    }
}

@_cdecl("poise_calibration_load")
public func cCalibrationLoad(_ source: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<poise_error>?) -> OpaquePointer? {
    var handle: OpaquePointer?
    _ = guarded(error) { () throws(CError) in
        let text = try string(source, "source")
        let isDocument = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.first == "{"
        let calibration: SensorCalibration
        if isDocument {
            do throws(CalibrationError) { calibration = try SensorCalibration(json: text) } catch { throw CError(POISE_ERROR_PARSE, error.message) }
        } else {
            do throws(CalibrationError) { calibration = try SensorCalibration(contentsOf: text) } catch {
                // A file that is there but not a valid calibration is a parse error.
                let unreadable = error.message.contains("cannot open") || error.message.contains("read error")
                throw CError(unreadable ? POISE_ERROR_INVALID_ARGUMENT : POISE_ERROR_PARSE, error.message)
            }
        }
        handle = CalibrationHandle.Box.make(CalibrationHandle(calibration: calibration), tag: HandleTag.calibration)
    }
    return handle
}

@_cdecl("poise_calibration_destroy")
public func cCalibrationDestroy(_ handle: OpaquePointer?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in try CalibrationHandle.Box.destroy(handle, tag: HandleTag.calibration, kind: CalibrationHandle.kind) }
}

@_cdecl("poise_calibration_get")
public func cCalibrationGet(_ handle: OpaquePointer?, _ sensor: Int32, _ present: UnsafeMutablePointer<Int32>?,
                            _ offset: UnsafeMutablePointer<Double>?, _ matrix: UnsafeMutablePointer<Double>?,
                            _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let correction = try CalibrationHandle.open(handle).pointee.payload.correction(sensor)
        present?.pointee = correction == nil ? 0 : 1
        guard let correction else { return }
        if let offset { for i in 0..<3 { offset[i] = correction.offset[i] } }
        if let matrix {
            for (r, row) in [correction.matrix.r0, correction.matrix.r1, correction.matrix.r2].enumerated() {
                for c in 0..<3 { matrix[3 * r + c] = row[c] }
            }
        }
    }
}

@_cdecl("poise_calibration_apply")
public func cCalibrationApply(_ handle: OpaquePointer?, _ acceleration: UnsafeMutablePointer<Double>?,
                              _ rotationRate: UnsafeMutablePointer<Double>?, _ magneticField: UnsafeMutablePointer<Double>?,
                              _ count: Int, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let calibration = try CalibrationHandle.open(handle).pointee.payload.calibration
        _ = try elementCount(count, width: 3, "count")
        let buffers: [(UnsafeMutablePointer<Double>?, SensorCorrection?, String)] = [
            (acceleration, calibration.accelerometer, "acceleration"), (rotationRate, calibration.gyroscope, "rotation_rate"),
            (magneticField, calibration.magnetometer, "magnetic_field"),
        ]
        for (buffer, _, name) in buffers { if let buffer { try requireFinite(UnsafePointer(buffer), rows: count, name) } }
        for (buffer, correction, _) in buffers {
            guard let buffer, let correction else { continue }
            for i in 0..<count {
                let v = correction.apply(SIMD3(buffer[3 * i], buffer[3 * i + 1], buffer[3 * i + 2]))
                buffer[3 * i] = v.x; buffer[3 * i + 1] = v.y; buffer[3 * i + 2] = v.z
            }
        }
    }
}
