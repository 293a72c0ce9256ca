import ArgumentParser
import Poise
import PoiseRecording

/// `poise simulate`'s options for the gyroscope's errors and the sensors' timing beyond the noise:
/// delay, scale and misalignment, full scale (saturation), an IMU slower than its rows, and
/// magnetic disturbances. Each replaces the model's value when given.
struct SimulatedSensorOptions: ParsableArguments {
    @Option(name: .customLong("gyro-delay"), parsing: .unconditional,
            help: ArgumentHelp("Gyroscope delay, ms: each row's rotation rate is the one this long before its timestamp (default 0).", valueName: "MS"))
    var gyroscopeDelay: Double?

    @Option(name: .customLong("gyro-scale-error"), parsing: .unconditional,
            help: ArgumentHelp("Standard deviation of the gyroscope's per-axis scale error, % (drawn once per seed; default 0.5, 0 with --ideal).", valueName: "PERCENT"))
    var gyroscopeScaleError: Double?

    @Option(name: .customLong("gyro-misalignment"), parsing: .unconditional,
            help: ArgumentHelp("Standard deviation of each off-diagonal gyroscope misalignment term, degrees (drawn once per seed; default 0.1, 0 with --ideal).", valueName: "DEG"))
    var gyroscopeMisalignment: Double?

    @Option(name: .customLong("gyro-range"), parsing: .unconditional,
            help: ArgumentHelp("Gyroscope full scale, °/s: readings are clipped to ±this (saturation; default 2000, none with --ideal).", valueName: "DEG/S"))
    var gyroscopeRange: Double?

    @Option(name: .customLong("imu-rate"), parsing: .unconditional,
            help: ArgumentHelp("Output rate of the accelerometer and gyroscope, Hz: their readings are held between updates (an IMU slower than the rows; default: every row).", valueName: "HZ"))
    var imuRate: Double?

    @Option(name: .customLong("mag-disturbance"), parsing: .singleValue,
            help: ArgumentHelp("A magnetic disturbance: an extra field from START to END s, faded in and out over 0.5 s, in µT in the earth frame (east, north, up); repeat for several.", valueName: "START,END,E,N,U"))
    var magneticDisturbances: [String] = []

    func check(rate: Double) throws {
        try OptionRange("--gyro-delay", 0, 1000, unit: "ms").check(gyroscopeDelay)
        try OptionRange("--gyro-scale-error", 0, 50, unit: "%").check(gyroscopeScaleError)
        try OptionRange("--gyro-misalignment", 0, 10, unit: "°").check(gyroscopeMisalignment)
        try OptionRange("--gyro-range", 0, 1e5, unit: "°/s", includesLower: false).check(gyroscopeRange)
        try OptionRange("--imu-rate", 0, rate, unit: "Hz (the sample rate)", includesLower: false).check(imuRate)
        _ = try disturbances()
    }

    /// `--mag-disturbance` values.
    func disturbances() throws -> [MagneticDisturbance] {
        try magneticDisturbances.map { text in
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == 5, values.allSatisfy({ $0?.isFinite == true }) else {
                throw ValidationError("--mag-disturbance '\(text)': expected START,END,E,N,U (five finite numbers: s, s, µT, µT, µT)")
            }
            let v = values.map { $0! }
            guard v[0] >= 0, v[1] > v[0] else { throw ValidationError("--mag-disturbance '\(text)': END must be after START, both ≥ 0 s") }
            guard v[2...].allSatisfy({ $0.magnitude <= 4000 }) else { throw ValidationError("--mag-disturbance '\(text)': each field component must lie within ±4000 µT") }
            return MagneticDisturbance(start: v[0], end: v[1], field: SIMD3(v[2], v[3], v[4]))
        }
    }

    /// `configuration` with the given values.
    func apply(to configuration: inout SimulationConfiguration) throws {
        let degree = Double.pi / 180
        if let gyroscopeDelay { configuration.gyroscopeDelay = gyroscopeDelay / 1000 }
        if let gyroscopeScaleError { configuration.sensors.gyroscope.scaleErrorStandardDeviation = gyroscopeScaleError / 100 }
        if let gyroscopeMisalignment { configuration.sensors.gyroscope.misalignmentStandardDeviation = gyroscopeMisalignment * degree }
        if let gyroscopeRange { configuration.sensors.gyroscope.range = gyroscopeRange * degree }
        configuration.imuRate = imuRate
        configuration.extraDisturbances = try disturbances()
    }
}
