/// What a calibration gathers from a recording, fed its samples one at a time in time order
/// (``GyroscopeBiasAccumulator``, ``AccelerometerStillMeans``, ``MagneticFieldCollector``), so a
/// fit reads a recording in one streaming pass instead of holding it.
public protocol SampleAccumulator {
    /// Adds the next sample (time s, acceleration g, rotation rate rad/s, magnetic field µT or the
    /// recording's unit).
    mutating func add(_ sample: MotionSample)
}

extension SampleAccumulator {
    /// Adds `samples` in order.
    public mutating func add<Samples: Sequence>(contentsOf samples: Samples) where Samples.Element == MotionSample {
        for sample in samples { add(sample) }
    }
}
