/// A pipeline stage that aims a game camera with the gyroscope (`GyroAim`): writes
/// `ProcessedSample.aim` (this sample's camera yaw and pitch turn in degrees, yaw right and pitch
/// up positive, with its flags).
///
/// Reads the record's `rotationRate` (after any remap stage) and `acceleration`; the up direction
/// is the record's `gravity` when an earlier stage set one (`fusion:6d | gyroaim`: then the
/// rate is also the fusion's bias-corrected one), else the aimer's own 6D fusion.
///
/// Spec: `gyroaim[:space=local|player|world,hold=flat|upright,sens=S,camera360=DEG,smooth=DEGPS,tau=S,nocal]`
/// — `sens` camera degrees per device degree (default 1), `camera360` the camera turn for a full
/// device turn (instead of `sens`), `smooth` the tiered smoothing threshold in °/s (default 5,
/// 0 = off), `tau` its time constant (default 0.0625 s), `nocal` turns continuous calibration off.
public struct GyroAimStage: PipelineStage {
    /// The aimer (settings and state).
    public private(set) var aim: GyroAim
    let initial: GyroAim
    /// Whether the record's acceleration is measured (false: no gravity, calibration from the
    /// gyroscope alone).
    public let accelerationAvailable: Bool

    /// - Throws: `OrientationSettingsError` naming a bad setting.
    public init(settings: GyroAimSettings, accelerationAvailable: Bool = true) throws {
        aim = try GyroAim(settings: settings)
        initial = aim
        self.accelerationAvailable = accelerationAvailable
    }

    public var description: String {
        let s = aim.settings
        return "gyroaim:space=\(s.space.rawValue),hold=\(s.hold.rawValue),sens=\(s.sensitivity.low),smooth=\(s.smoothingThreshold),tau=\(s.smoothingTimeConstant)"
            + (s.calibration.continuous ? "" : ",nocal")
    }
    public var outputs: StageOutputs { .aim }
    public var measuredSignal: StageSignal? { nil }

    public mutating func process(_ sample: inout ProcessedSample) {
        sample.aim = aim.process(time: sample.time, rotationRate: sample.rotationRate,
                                 acceleration: accelerationAvailable ? sample.acceleration : nil, gravity: sample.gravity)
    }

    public mutating func reset() { aim = initial }
}

extension StageCatalog {
    /// Catalog entry `gyroaim`.
    public static var gameEntries: [Entry] {
        [
            Entry(name: "gyroaim", usage: "gyroaim[:space=local|player|world,hold=flat|upright,sens=S,camera360=DEG,smooth=DEGPS,tau=S,nocal]",
                  summary: "gyro aiming: camera yaw/pitch turn per sample in degrees (player space, tiered smoothing, bias calibration)") { stage, context in
                try gyroAimStage(stage, context: context)
            },
        ]
    }

    static func gyroAimStage(_ stage: StageSpec, context: StageContext) throws -> GyroAimStage {
        try stage.requireKnown(keys: ["space", "hold", "sens", "camera360", "smooth", "tau"], words: ["nocal"])
        guard context.hasGyroscope else { throw stage.missingSensor("gyroaim needs a gyroscope, and the recording has none") }
        var settings = GyroAimSettings()
        if let text = stage.value("space") {
            guard let space = GyroSpace(rawValue: text) else { throw stage.error("space must be local, player or world, got '\(text)'") }
            settings.space = space
        }
        if let text = stage.value("hold") {
            guard let hold = GyroHold(rawValue: text) else { throw stage.error("hold must be flat or upright, got '\(text)'") }
            settings.hold = hold
        }
        let sensitivity = try stage.number("sens", default: 1, in: -1000 ... 1000)
        settings.sensitivity = GyroSensitivity(try stage.value("camera360").map { _ in try stage.number("camera360", default: 360, in: -360_000 ... 360_000) / 360 } ?? sensitivity)
        settings.smoothingThreshold = try stage.number("smooth", default: 5, in: 0 ... 10_000)
        settings.smoothingTimeConstant = try stage.number("tau", default: 0.0625, in: 0 ... 10)
        settings.calibration.continuous = !stage.words.contains("nocal")
        settings.sampleRate = context.sampleRate
        do { return try GyroAimStage(settings: settings, accelerationAvailable: true) } catch let error as OrientationSettingsError {
            throw stage.error(error.message)
        }
    }
}
