/// Settings of `RestDetector`, in user units.
public struct RestDetectorSettings: Sendable, Codable, Equatable {
    /// A sample is quiet only if the angular-rate norm is below this, rad/s (default 0.05 ≈ 2.9 °/s).
    public var gyroscopeThreshold: Double
    /// …and the accelerometer norm is within this of 1 g, g (default 0.05).
    public var accelerationThreshold: Double
    /// Shortest still segment reported, seconds (default 1, the jitter metric's minimum).
    public var minimumDuration: Double

    public init(gyroscopeThreshold: Double = 0.05, accelerationThreshold: Double = 0.05, minimumDuration: Double = 1) {
        self.gyroscopeThreshold = gyroscopeThreshold
        self.accelerationThreshold = accelerationThreshold
        self.minimumDuration = minimumDuration
    }
}

/// A time interval in seconds (closed: first and last sample times of a still run).
public struct TimeSegment: Sendable, Codable, Equatable {
    public var startS: Double
    public var endS: Double
    public var durationS: Double { endS - startS }
    public init(startS: Double, endS: Double) { self.startS = startS; self.endS = endS }

    enum CodingKeys: String, CodingKey { case startS, endS, durationS }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(startS, forKey: .startS); try c.encode(endS, forKey: .endS); try c.encode(durationS, forKey: .durationS)
    }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        startS = try c.decode(Double.self, forKey: .startS); endS = try c.decode(Double.self, forKey: .endS)
    }
}

/// A simple streaming rest detector: a sample is *quiet* when |ω| < `gyroscopeThreshold` and
/// ||a| − 1 g| < `accelerationThreshold` (only the sensors present are tested); a still segment is
/// a run of consecutive quiet samples lasting at least `minimumDuration`. No smoothing: one loud
/// sample ends a segment. (The project's core `Metrics` rest detector may replace this once it lands.)
public struct RestDetector: Sendable {
    /// The settings in use.
    public let settings: RestDetectorSettings
    /// Segments found so far.
    public private(set) var segments: [TimeSegment] = []
    private var runStart: Double?
    private var lastQuietTime = 0.0

    public init(settings: RestDetectorSettings = RestDetectorSettings()) { self.settings = settings }

    /// Whether one sample is quiet (units: g, rad/s; either may be nil when absent).
    public func isQuiet(acceleration: SIMD3<Double>?, rotationRate: SIMD3<Double>?) -> Bool {
        if let w = rotationRate, (w * w).sum() >= settings.gyroscopeThreshold * settings.gyroscopeThreshold { return false }
        if let a = acceleration, abs((a * a).sum().squareRoot() - 1) >= settings.accelerationThreshold { return false }
        return true
    }

    /// Feeds one sample (time in seconds).
    public mutating func process(time: Double, acceleration: SIMD3<Double>?, rotationRate: SIMD3<Double>?) {
        if isQuiet(acceleration: acceleration, rotationRate: rotationRate) {
            if runStart == nil { runStart = time }
            lastQuietTime = time
        } else {
            closeRun()
        }
    }

    /// Ends the recording: closes a still run that reaches the end. Returns all segments.
    public mutating func finish() -> [TimeSegment] {
        closeRun()
        return segments
    }

    private mutating func closeRun() {
        if let start = runStart, lastQuietTime - start >= settings.minimumDuration {
            segments.append(TimeSegment(startS: start, endS: lastQuietTime))
        }
        runStart = nil
    }
}
