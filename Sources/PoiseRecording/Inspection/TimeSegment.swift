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
