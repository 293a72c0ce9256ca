/// What a stage factory knows about the stream the stage will see.
public struct StageContext: Sendable, Equatable {
    /// Rate at which the stage is called, Hz (the replay rate, or the frame rate for frame-time
    /// smoothing). Filters derive their coefficients from it.
    public var sampleRate: Double
    /// Whether samples carry a magnetic field (9D fusion needs it).
    public var hasMagnetometer: Bool
    /// Whether samples carry a rotation rate (fusion needs it; without one the rotation rate of a
    /// sample is zero, not a reading).
    public var hasGyroscope: Bool

    public init(sampleRate: Double, hasMagnetometer: Bool = false, hasGyroscope: Bool = true) {
        self.sampleRate = sampleRate; self.hasMagnetometer = hasMagnetometer; self.hasGyroscope = hasGyroscope
    }
}
