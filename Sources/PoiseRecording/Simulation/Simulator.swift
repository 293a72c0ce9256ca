import Poise

/// What to simulate.
public struct SimulationConfiguration: Sendable {
    /// The motion.
    public var scenario: Scenario
    /// Nominal sample rate, Hz (default 100).
    public var rate: Double
    /// Length in seconds; `nil` uses the scenario's default.
    public var duration: Double?
    /// Seed of all random choices (motion details and sensor errors). Same seed, same recording.
    public var seed: UInt64
    /// Sensor errors and timing (default `.phone`).
    public var sensors: SensorModel
    /// Magnetic field and gravity environment.
    public var earth: EarthModel
    /// Magnetometer output rate, Hz: the reading is held between updates (phones often run it
    /// slower than the IMU). `nil` (default): a new reading every sample.
    public var magnetometerRate: Double?
    /// Hard- and soft-iron distortion of the magnetometer (default none).
    public var magnetometerDistortion: MagnetometerDistortion
    /// Delay of the gyroscope, s (≥ 0; default 0): each row's rotation rate is the one of
    /// `gyroscopeDelay` seconds before its timestamp (a MEMS gyroscope's internal low-pass
    /// delays its output by a few milliseconds), the other sensors' are not delayed.
    public var gyroscopeDelay: Double = 0
    /// Output rate of the accelerometer and gyroscope, Hz: their readings are held between
    /// updates (zero-order hold; an IMU slower than the rows it is written into, e.g. merged
    /// onto a faster timeline). `nil` (default): a new reading every row.
    public var imuRate: Double?
    /// Magnetic disturbances added to the scenario's own (default none).
    public var extraDisturbances: [MagneticDisturbance] = []

    public init(scenario: Scenario, rate: Double = 100, duration: Double? = nil, seed: UInt64 = 1,
                sensors: SensorModel = .phone, earth: EarthModel = EarthModel(), magnetometerRate: Double? = nil,
                magnetometerDistortion: MagnetometerDistortion = .none) {
        self.scenario = scenario; self.rate = rate; self.duration = duration; self.seed = seed
        self.sensors = sensors; self.earth = earth; self.magnetometerRate = magnetometerRate
        self.magnetometerDistortion = magnetometerDistortion
    }

    /// The duration actually simulated, seconds.
    public var effectiveDuration: Double { duration ?? scenario.defaultDuration }
}

/// Generates physically consistent accelerometer, gyroscope and magnetometer samples from a known
/// trajectory, with the true attitude in `truth` and `movement` = true while the device moves.
///
/// Per sample at time t, with attitude q (device → earth ENU) and R its rotation matrix:
/// - gyroscope = ω(t − `gyroscopeDelay`), the exact device-frame angular velocity of the
///   trajectory (rad/s);
/// - accelerometer = Rᵀ · (a_linear(t)/g + (0, 0, 1)) — specific force in g, +1 g up at rest;
/// - magnetometer = softIron · Rᵀ · (B_earth + disturbance(t)) + hardIron in µT
///   (``MagnetometerDistortion``, none by default);
/// each then passed through its `SensorErrorModel` (saturation included), the accelerometer and
/// gyroscope held between updates at `imuRate`. Streams sample by sample (`next()`), so any
/// duration uses constant memory.
public struct Simulator: Sendable, IteratorProtocol, Sequence {
    /// The configuration.
    public let configuration: SimulationConfiguration
    /// The motion being sampled.
    public let trajectory: Trajectory
    /// Magnetic disturbances of the scenario.
    public let disturbances: [MagneticDisturbance]

    private var random: SimulationRandom
    private var index = 0
    private let count: Int
    private var accelerometer: SensorState
    private var gyroscope: SensorState
    private var magnetometer: SensorState
    private var heldMagneticField: SIMD3<Double>?
    private var magnetometerTick = -1
    private var heldInertial: (acceleration: SIMD3<Double>, rotationRate: SIMD3<Double>)?
    private var imuTick = -1

    /// Errors drawn once per recording, and the drifting bias.
    struct SensorState: Sendable {
        var model: SensorErrorModel
        var bias: SIMD3<Double>
        var drift: SIMD3<Double>
        /// Rows of M · diag(1 + scale).
        var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
        /// Rate random walk and flicker bias instability, when the model has them.
        var slowBias: BiasNoiseProcesses?

        init(model: SensorErrorModel, random: inout SimulationRandom, seed: UInt64) {
            self.model = model
            if model.rateRandomWalk > 0 || model.flickerBiasInstability > 0 {
                slowBias = BiasNoiseProcesses(rateRandomWalk: model.rateRandomWalk,
                                              biasInstability: model.flickerBiasInstability, seed: seed)
            }
            bias = model.biasStandardDeviation * random.gaussian3()
            drift = model.biasInstability * random.gaussian3()
            let scale = SIMD3<Double>(repeating: 1) + model.scaleErrorStandardDeviation * random.gaussian3()
            let m = model.misalignmentStandardDeviation
            let e = (random.gaussian(), random.gaussian(), random.gaussian(), random.gaussian(), random.gaussian(), random.gaussian())
            rows = (SIMD3(1, m * e.0, m * e.1) * scale,
                    SIMD3(m * e.2, 1, m * e.3) * scale,
                    SIMD3(m * e.4, m * e.5, 1) * scale)
        }

        /// Advances the Gauss–Markov drift by `dt` seconds (draws 3 normals every call).
        mutating func advance(_ dt: Double, random: inout SimulationRandom) {
            let w = random.gaussian3()
            slowBias?.advance(dt)
            guard model.biasInstability > 0, model.biasCorrelationTime > 0 else { return }
            let a = _exp(-dt / model.biasCorrelationTime)
            drift = a * drift + model.biasInstability * (1 - a * a).squareRoot() * w
        }

        /// The reading for a true value (draws 3 normals every call).
        func measure(_ truth: SIMD3<Double>, rate: Double, random: inout SimulationRandom) -> SIMD3<Double> {
            let noise = model.noiseDensity * rate.squareRoot() * random.gaussian3()
            let v = SIMD3((rows.0 * truth).sum(), (rows.1 * truth).sum(), (rows.2 * truth).sum()) + bias + drift + noise + (slowBias?.value ?? .zero)
            return v.clamped(lowerBound: SIMD3(repeating: -model.range), upperBound: SIMD3(repeating: model.range))
        }
    }

    /// Prepares a simulation (draws the fixed sensor errors).
    public init(_ configuration: SimulationConfiguration) {
        self.configuration = configuration
        var motionRandom = SimulationRandom(seed: configuration.seed ^ 0x6D6F_7469_6F6E)  // "motion"
        let duration = configuration.effectiveDuration
        let (motion, own) = configuration.scenario.trajectory(duration: duration, random: &motionRandom)
        (trajectory, disturbances) = (motion, own + configuration.extraDisturbances)
        random = SimulationRandom(seed: configuration.seed)
        // The slow bias processes draw from generators of their own ("bias" + sensor).
        accelerometer = SensorState(model: configuration.sensors.accelerometer, random: &random, seed: configuration.seed ^ 0x6269_6173_0061)
        gyroscope = SensorState(model: configuration.sensors.gyroscope, random: &random, seed: configuration.seed ^ 0x6269_6173_0067)
        magnetometer = SensorState(model: configuration.sensors.magnetometer, random: &random, seed: configuration.seed ^ 0x6269_6173_006D)
        count = Swift.max(0, Int(saturating: (duration * configuration.rate).rounded(.down)) + 1)
    }

    /// The fixed errors drawn for one sensor: reading = matrix · truth + bias + drift + noise, with
    /// matrix = M · diag(1 + scale) (misalignment and scale) and `bias` the constant bias, in the
    /// sensor's unit (g, rad/s, µT). The truth against which calibrations are tested.
    public func fixedErrors(of sensor: Sensor) -> (bias: SIMD3<Double>, matrix: Matrix3) {
        let state = switch sensor {
        case .accelerometer: accelerometer
        case .gyroscope: gyroscope
        case .magnetometer: magnetometer
        }
        return (state.bias, Matrix3(state.rows.0, state.rows.1, state.rows.2))
    }

    /// The next sample, or nil after the last. Dropped samples are skipped (their time is a gap).
    public mutating func next() -> MotionSample? {
        let rate = configuration.rate
        let sensors = configuration.sensors
        while index < count {
            let i = index
            index += 1
            // Draw the same random numbers for every index, dropped or not, so a seed's stream
            // does not depend on which samples were dropped.
            let jitter = i == 0 ? 0 : Swift.min(Swift.max(sensors.timestampJitter * random.gaussian(), -0.45), 0.45)
            let dropped = i > 0 && random.uniform() < sensors.dropProbability
            let dt = 1 / rate
            accelerometer.advance(dt, random: &random)
            gyroscope.advance(dt, random: &random)
            magnetometer.advance(dt, random: &random)
            let t = (Double(i) + jitter) / rate
            let state = trajectory.state(at: t)
            let inverse = state.attitude.conjugate
            let specificForce = state.linearAcceleration / Units.standardGravity + SIMD3(0, 0, 1)
            var field = configuration.earth.magneticField
            for d in disturbances { field += d.field(at: t) }
            var acceleration = accelerometer.measure(inverse.act(specificForce), rate: rate, random: &random)
            let delay = configuration.gyroscopeDelay
            let angularVelocity = delay > 0 ? trajectory.state(at: Swift.max(0, t - delay)).angularVelocity : state.angularVelocity
            var rotationRate = gyroscope.measure(angularVelocity, rate: rate, random: &random)
            if let imuRate = configuration.imuRate, imuRate > 0 {
                let tick = Int(saturating: (t * imuRate).rounded(.down))
                if tick == imuTick, let held = heldInertial {
                    (acceleration, rotationRate) = held
                } else {
                    imuTick = tick
                    heldInertial = (acceleration, rotationRate)
                }
            }
            var magneticField = magnetometer.measure(configuration.magnetometerDistortion.apply(inverse.act(field)),
                                                     rate: rate, random: &random)
            if let magnetometerRate = configuration.magnetometerRate, magnetometerRate > 0 {
                let tick = Int(saturating: (t * magnetometerRate).rounded(.down))
                if tick == magnetometerTick, let held = heldMagneticField {
                    magneticField = held
                } else {
                    magnetometerTick = tick
                    heldMagneticField = magneticField
                }
            }
            if dropped { continue }
            return MotionSample(time: t, acceleration: acceleration, rotationRate: rotationRate,
                                magneticField: magneticField, truth: state.attitude, movement: state.moving)
        }
        return nil
    }

    /// All samples of a configuration.
    public static func samples(_ configuration: SimulationConfiguration) -> [MotionSample] {
        Array(Simulator(configuration))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@inline(__always) func _exp(_ x: Double) -> Double { exp(x) }
