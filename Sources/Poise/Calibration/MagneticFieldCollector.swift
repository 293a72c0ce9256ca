/// The magnetometer readings a ``MagnetometerCalibrator`` fit needs, gathered one sample at a
/// time: each new reading (24 bytes) in time order. A magnetometer slower than the recording's rate
/// repeats its last reading on the rows between (x-IMU3, phones): such a repeat is not a new
/// measurement and is left out (and counted). A sample without a magnetic field gives a reading
/// that is not finite (the fit counts it).
public struct MagneticFieldCollector: SampleAccumulator {
    /// The readings kept, in time order (µT, or the recording's unit).
    public private(set) var fields: [SIMD3<Double>] = []
    /// Rows left out for repeating the reading before them.
    public private(set) var held = 0

    /// An empty collection.
    public init() {}

    /// Adds the next sample's magnetic field.
    public mutating func add(_ sample: MotionSample) {
        let field = sample.magneticField ?? SIMD3(repeating: .nan)
        if let last = fields.last, last == field { held += 1; return }
        fields.append(field)
    }
}
