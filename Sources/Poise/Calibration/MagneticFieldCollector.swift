/// The magnetometer readings a ``MagnetometerCalibrator`` fit needs, gathered one sample at a
/// time: each new reading in time order, in a `ValueLog` (the heap by default, 32 bytes each; a
/// caller with long recordings gives one that keeps them elsewhere, such as a temporary file). A
/// magnetometer slower than the recording's rate repeats its last reading on the rows between
/// (x-IMU3, phones): such a repeat is not a new measurement and is left out (and counted). A
/// sample without a magnetic field gives a reading that is not finite (the fit counts it).
public struct MagneticFieldCollector: SampleAccumulator {
    /// The readings kept, in time order (µT, or the recording's unit). The collector and its
    /// copies share it.
    public let readings: any ValueLog<MagneticReading>
    /// Rows left out for repeating the reading before them.
    public private(set) var held = 0
    /// The last reading kept.
    private var last: SIMD3<Double>?

    /// An empty collection in the heap.
    public init() { self.init(log: InMemoryValueLog()) }

    /// An empty collection that keeps its readings in `log` (empty).
    public init(log: any ValueLog<MagneticReading>) {
        precondition(log.count == 0, "an empty log")
        readings = log
    }

    /// The readings kept, in time order, as an array.
    public var fields: [SIMD3<Double>] {
        var fields: [SIMD3<Double>] = []
        fields.reserveCapacity(readings.count)
        readings.forEach { _, reading in fields.append(reading.field) }
        return fields
    }

    /// Adds the next sample's magnetic field.
    public mutating func add(_ sample: MotionSample) {
        let field = sample.magneticField ?? SIMD3(repeating: .nan)
        if let last, last == field { held += 1; return }
        last = field
        readings.append(MagneticReading(field))
    }
}
