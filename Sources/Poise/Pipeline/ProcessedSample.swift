/// A sample on its way through a pipeline: the raw sample as delivered, plus the values the
/// stages derive from it.
///
/// Every stage reads and writes this one record (`PipelineStage.process(_:)` takes it `inout`),
/// so a pipeline allocates nothing per sample and a stage can use whatever earlier stages
/// produced. The record starts as a copy of the raw sample (`init(_:)`); each field below says who
/// may change it.
///
/// Units and frames are the core's: seconds, g (specific force), rad/s, µT; vectors are in the
/// device frame (+X right, +Y toward the top edge, +Z out of the screen) unless a remapping stage
/// has changed the device axes, in which case every vector field uses the remapped axes.
public struct ProcessedSample: Sendable, Equatable {
    /// The sample exactly as it was delivered to the pipeline. Stages never change it, so the
    /// raw input stays available for metrics (attenuation, lag) and output files.
    public var input: MotionSample
    /// The current acceleration signal, g (specific force). Starts as `input.acceleration`;
    /// filter stages replace it with their output (so `lowpass | gravity` separates gravity from
    /// the smoothed signal) and remapping stages rotate it.
    public var acceleration: SIMD3<Double>
    /// The current angular rate, rad/s. Starts as `input.rotationRate`; remapping rotates it.
    public var rotationRate: SIMD3<Double>
    /// The current magnetic field, µT, or `nil` without a magnetometer. Starts as
    /// `input.magneticField`; remapping rotates it.
    public var magneticField: SIMD3<Double>?
    /// Gravity in g, device frame, pointing **up** in the specific-force convention (a phone lying
    /// flat reads (0, 0, +1)). Set by gravity-separation and fusion stages; `nil` before.
    public var gravity: SIMD3<Double>?
    /// User acceleration in g, device frame: `acceleration − gravity` (specific force minus
    /// gravity, so a phone pushed toward +X reads positive x). Set with `gravity`.
    public var userAcceleration: SIMD3<Double>?
    /// Estimated attitude, rotating device-frame vectors into the earth frame (the fusion stage
    /// documents its earth frame; ENU by default). `nil` before a fusion stage.
    public var attitude: Quaternion<Double>?
    /// Game-controller axes from a tilt-to-axis stage, each in −1 … 1 (x: right positive,
    /// y: forward/top positive). `nil` before such a stage.
    public var axes: SIMD2<Double>?
    /// Gyroscope bias, heading and flags of a fusion stage. `nil` before a fusion stage.
    public var fusion: FusionStatus?
    /// The tilt controller's full reading (stick, tilt angles from home, home events) of a tilt
    /// stage; its stick is also `axes`. `nil` before such a stage.
    public var tilt: TiltOutput?
    /// The camera turn of a gyro-aim stage for this sample (degrees, yaw right and pitch up
    /// positive, with its flags). `nil` before such a stage.
    public var aim: GyroAimOutput?

    /// Starts a record from a raw sample: the current signals equal the input, nothing derived.
    @inlinable
    public init(_ sample: MotionSample) {
        input = sample
        acceleration = sample.acceleration
        rotationRate = sample.rotationRate
        magneticField = sample.magneticField
        gravity = nil
        userAcceleration = nil
        attitude = nil
        axes = nil
        fusion = nil
        tilt = nil
        aim = nil
    }

    /// Timestamp in seconds (the input's).
    @inlinable public var time: Double { input.time }
}

/// Which values of a `ProcessedSample` a stage produces. Output writers use the union over a
/// pipeline to choose columns; reports use a stage's `primary` signal to measure it.
public struct StageOutputs: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `acceleration` (a filtered or remapped acceleration signal).
    public static let acceleration = StageOutputs(rawValue: 1 << 0)
    /// `rotationRate` / `magneticField` changed (remapping).
    public static let rotation = StageOutputs(rawValue: 1 << 1)
    /// `gravity` and `userAcceleration`.
    public static let gravity = StageOutputs(rawValue: 1 << 2)
    /// `attitude`.
    public static let attitude = StageOutputs(rawValue: 1 << 3)
    /// `axes` and `tilt`.
    public static let axes = StageOutputs(rawValue: 1 << 4)
    /// `fusion` (gyroscope bias, heading, flags).
    public static let fusion = StageOutputs(rawValue: 1 << 5)
    /// `aim` (a gyro-aim stage's camera turn).
    public static let aim = StageOutputs(rawValue: 1 << 6)
}

/// The one vector signal a stage is judged by in reports (latency to 90 %, jitter, lag).
public enum StageSignal: String, Sendable, Codable {
    /// `ProcessedSample.acceleration`, g.
    case acceleration
    /// `ProcessedSample.gravity`, g.
    case gravity
    /// `ProcessedSample.userAcceleration`, g.
    case userAcceleration

    /// Reads this signal from a record; `nil` when the record does not carry it.
    @inlinable
    public func value(in record: ProcessedSample) -> SIMD3<Double>? {
        switch self {
        case .acceleration: return record.acceleration
        case .gravity: return record.gravity
        case .userAcceleration: return record.userAcceleration
        }
    }
}
