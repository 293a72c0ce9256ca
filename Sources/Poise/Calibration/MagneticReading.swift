/// One magnetometer reading (µT, or the recording's unit) as a ``MagneticFieldCollector`` keeps
/// it, with the marks a ``MagnetometerCalibrator`` fit puts on it (usable, included in the fit):
/// 32 bytes, so that a `ValueLog` can keep the readings and the fit's state outside the heap.
public struct MagneticReading: Sendable, BitwiseCopyable {
    /// The field, device frame (x, y, z), the recording's unit; NaN for a sample without one.
    public var x: Double, y: Double, z: Double
    /// The fit's marks (`usable`, `included`).
    var marks: UInt8 = 0

    /// A reading of `field`, unmarked.
    public init(_ field: SIMD3<Double>) {
        (x, y, z) = (field.x, field.y, field.z)
    }

    /// The field as a vector.
    public var field: SIMD3<Double> { SIMD3(x, y, z) }

    /// Finite and not saturated: the fit may use it.
    var usable: Bool {
        get { marks & 1 != 0 }
        set { marks = newValue ? marks | 1 : marks & ~1 }
    }

    /// Inside the fit's current rejection limit (only usable readings are).
    var included: Bool {
        get { marks & 2 != 0 }
        set { marks = newValue ? marks | 2 : marks & ~2 }
    }
}
