/// A pipeline stage that rotates every vector of the record into another frame, and the attitude
/// with it (see `FrameRemap`): `acceleration`, `rotationRate`, `magneticField`, `gravity`,
/// `userAcceleration` as `R · v`, `attitude` as `q ⊗ r*`. The raw `input` is left as delivered.
///
/// Spec: `remap:landscapeLeft` (an `InterfaceOrientation`), `remap:+Y-X+Z` (a proper axis
/// alignment), or `remap:roll=DEG,pitch=DEG,yaw=DEG` (a mounting rotation in degrees, see
/// `FrameRemap(roll:pitch:yaw:)`).
public struct RemapStage: PipelineStage {
    /// The rotation applied.
    public let remap: FrameRemap<Double>
    /// The spec text with effective parameters.
    public let description: String

    /// Makes the stage; `description` is how it is written in a spec.
    public init(remap: FrameRemap<Double>, description: String) {
        self.remap = remap; self.description = description
    }

    public var outputs: StageOutputs { [.acceleration, .rotation] }
    public var measuredSignal: StageSignal? { nil }

    @inlinable
    public mutating func process(_ sample: inout ProcessedSample) {
        // One matrix for vectors and rotation rate (`FrameRemap.rotationRate`).
        sample.mapVectors({ remap.vector($0) }, attitude: { remap.attitude($0) })
    }

    public mutating func reset() {}
}

/// A pipeline stage mapping tilt to game-controller axes with a `TiltController`; writes
/// `ProcessedSample.axes` (x from roll, y from −pitch, each in [−1, 1]) and the full reading
/// (angles from home, home events) in `ProcessedSample.tilt`.
///
/// Source of tilt, first available: the record's `attitude` (a fusion stage), its `gravity`
/// (a gravity stage; used as is), else the stage's own low-pass of `acceleration`.
/// Spec: `tilt[:deadzone=DEG,saturation=DEG,curve=linear|quadratic|P,tau=S,dynamic]`.
public struct TiltStage: PipelineStage {
    /// The controller (its settings and home state).
    public private(set) var controller: TiltController
    @usableFromInline let initial: TiltController

    /// Whether the record's rotation rate is measured: without a gyroscope it is zeros, and the
    /// home calibration's stillness test must not take that as "not turning".
    public let rotationRateAvailable: Bool

    /// Makes the stage from validated settings.
    ///
    /// - Parameters:
    ///   - settings: the tilt controller's settings (validated here).
    ///   - rotationRateAvailable: false for a recording without a gyroscope.
    /// - Throws: `OrientationSettingsError` naming a bad setting.
    public init(settings: TiltSettings, rotationRateAvailable: Bool = true) throws {
        controller = try TiltController(settings: settings)
        initial = controller
        self.rotationRateAvailable = rotationRateAvailable
    }

    public var description: String {
        let s = controller.settings
        let curve: String
        switch s.stick.curve {
        case .linear: curve = "linear"
        case .quadratic: curve = "quadratic"
        case .exponent(let p): curve = "\(p)"
        }
        return "tilt:deadzone=\(s.stick.deadZone),saturation=\(s.stick.saturation),curve=\(curve),tau=\(s.gravityTimeConstant)"
            + (s.home.dynamicRecalibration ? ",dynamic" : "")
    }
    public var outputs: StageOutputs { .axes }
    public var measuredSignal: StageSignal? { nil }

    public mutating func process(_ sample: inout ProcessedSample) {
        let output: TiltOutput
        let rate = rotationRateAvailable ? sample.rotationRate : nil
        if let attitude = sample.attitude {
            output = controller.process(time: sample.time, attitude: attitude, rotationRate: rate)
        } else if let gravity = sample.gravity {
            output = controller.process(time: sample.time, attitude: .tilt(fromGravity: gravity), rotationRate: rate)
        } else {
            output = controller.process(MotionSample(time: sample.time, acceleration: sample.acceleration,
                                                     rotationRate: sample.rotationRate))
        }
        sample.axes = output.stick
        sample.tilt = output
    }

    public mutating func reset() { controller = initial }
}

extension StageCatalog {
    /// Catalog entries `remap` and `tilt`.
    public static var orientationEntries: [Entry] {
        [
            Entry(name: "remap", usage: "remap:ORIENTATION|±A±B±C|roll=DEG,pitch=DEG,yaw=DEG",
                  summary: "rotate all sensors and the attitude into screen, vehicle or mounting axes") { stage, _ in
                try remapStage(stage)
            },
            Entry(name: "tilt", usage: "tilt[:deadzone=DEG,saturation=DEG,curve=linear|quadratic|P,tau=S,dynamic]",
                  summary: "tilt from home → thumbstick axes in [−1, 1]") { stage, context in
                try tiltStage(stage, rotationRateAvailable: context.hasGyroscope)
            },
        ]
    }

    static func remapStage(_ stage: StageSpec) throws -> RemapStage {
        try stage.requireKnown(keys: ["roll", "pitch", "yaw"], words: Set(stage.words))
        let words = stage.words
        if !words.isEmpty {
            guard words.count == 1, stage.arguments.count == 1 else {
                throw stage.error("remap takes one orientation or alignment, or roll/pitch/yaw angles")
            }
            if let orientation = InterfaceOrientation(rawValue: words[0]) {
                return RemapStage(remap: FrameRemap(orientation: orientation), description: "remap:\(orientation.rawValue)")
            }
            do {
                let alignment = try AxisAlignment(words[0])
                return RemapStage(remap: try FrameRemap(alignment: alignment), description: "remap:\(alignment)")
            } catch let error as AxisAlignmentError {
                let names = InterfaceOrientation.allCases.map(\.rawValue).joined(separator: ", ")
                throw stage.error("'\(words[0])' is neither an orientation (\(names)) nor a valid alignment: \(error)")
            }
        }
        guard !stage.arguments.isEmpty else { throw stage.error("remap needs an orientation, an alignment such as +Y-X+Z, or roll/pitch/yaw") }
        let (roll, pitch, yaw) = (try stage.number("roll", default: 0), try stage.number("pitch", default: 0), try stage.number("yaw", default: 0))
        let r = Units.radiansPerDegree
        return RemapStage(remap: FrameRemap(roll: roll * r, pitch: pitch * r, yaw: yaw * r),
                          description: "remap:roll=\(roll),pitch=\(pitch),yaw=\(yaw)")
    }

    static func tiltStage(_ stage: StageSpec, rotationRateAvailable: Bool) throws -> TiltStage {
        try stage.requireKnown(keys: ["deadzone", "saturation", "curve", "tau"], words: ["dynamic"])
        var curve = ResponseCurve.linear
        if let text = stage.value("curve") {
            switch text {
            case "linear": curve = .linear
            case "quadratic": curve = .quadratic
            default:
                guard let p = Double(text) else { throw stage.error("curve must be linear, quadratic or an exponent, got '\(text)'") }
                curve = .exponent(p)
            }
        }
        let settings = TiltSettings(
            gravityTimeConstant: try stage.number("tau", default: 0.1),
            home: HomeCalibrationSettings(dynamicRecalibration: stage.words.contains("dynamic")),
            stick: StickResponse(deadZone: try stage.number("deadzone", default: 3),
                                 saturation: try stage.number("saturation", default: 30), curve: curve))
        do { return try TiltStage(settings: settings, rotationRateAvailable: rotationRateAvailable) } catch let error as OrientationSettingsError {
            throw stage.error(error.message)
        }
    }
}
