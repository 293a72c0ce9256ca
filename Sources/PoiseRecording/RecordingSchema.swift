/// What a recording column means and how to convert it to Poise's core units.
public enum ColumnMeaning: Sendable, Equatable, Hashable {
    case time(scale: Double)                 // to seconds
    case acceleration(axis: Int, scale: Double)  // to g
    /// A second column added to the acceleration of the same axis (to g): CoreMotion's
    /// `userAcceleration.x` added to `gravity.x` gives the accelerometer's specific force.
    case accelerationComponent(axis: Int, scale: Double)
    case rotationRate(axis: Int, scale: Double)  // to rad/s
    case magneticField(axis: Int, scale: Double) // to µT
    case truth(component: Int)               // 0 = w, 1 = x, 2 = y, 3 = z
    case movement
    case ignored(reason: String)

    /// The sample field this column fills, ignoring the unit: two columns with the same slot are
    /// duplicates (`acc_x_g` and `acc_x_mps2`). `nil` for ignored columns.
    public var slot: String? {
        switch self {
        case .time: "time"
        case .acceleration(let axis, _): "acceleration[\(axis)]"
        case .accelerationComponent(let axis, _): "accelerationComponent[\(axis)]"
        case .rotationRate(let axis, _): "rotationRate[\(axis)]"
        case .magneticField(let axis, _): "magneticField[\(axis)]"
        case .truth(let component): "truth[\(component)]"
        case .movement: "movement"
        case .ignored: nil
        }
    }
}

/// A column of a recording: its header name and what it maps to.
public struct ColumnMapping: Sendable, Equatable {
    /// The header text.
    public var name: String
    /// The meaning and unit conversion.
    public var meaning: ColumnMeaning
    /// The unit the file uses, as a short label (`g`, `m/s²`, `rad/s`, `°/s`, `µT`, `s`, `ns`).
    public var unit: String
}

/// Known recording layouts, recognised from the header.
public enum RecordingFormat: String, Sendable, Codable {
    /// Poise/BROAD naming: `t_s`, `acc_x_mps2`, `gyr_x_radps`, `mag_x_uT`, `gt_qw`, `movement`…
    case poise
    /// The x-io Fusion example format: `Time (s),Gyroscope X (deg/s),…`.
    case xioFusion
    /// phyphox CSV export: `Time (s),Acceleration x (m/s^2),Gyroscope x (rad/s),…`.
    case phyphox
    /// EuRoC MAV / ASL `imu0/data.csv`: `#timestamp [ns],w_RS_S_x [rad s^-1],…,a_RS_S_x [m s^-2],…`.
    case euroc
    /// Xsens / Movella MT Manager text export: `//` preamble lines (`// Update Rate: 100.0Hz`),
    /// tab-separated, `PacketCounter` (time = counter / update rate), `Acc_X` (m/s²), `Gyr_X` (rad/s).
    case xsens
    /// Apple CoreMotion `CMDeviceMotion` fields (MotionSense and similar loggers):
    /// `gravity.x` + `userAcceleration.x` (g, Apple's sign: −1 g up at rest) give the specific
    /// force, negated to +1 g up; `rotationRate.x` (rad/s). No time column: rows are timed by the
    /// sample rate given.
    case coreMotion
    /// x-io x-IMU3 logged `Inertial.csv`: `Timestamp (us)` (device clock), `Gyroscope X (deg/s)`,
    /// `Accelerometer X (g)`.
    case ximu3
    /// ROS 1 bag, format 2.0 (`#ROSBAG V2.0`): `sensor_msgs/Imu` and `sensor_msgs/MagneticField`
    /// topics (`RosBagReader`).
    case rosBag1 = "ROS 1 bag"
    /// MCAP file with ROS 2 messages: CDR-encoded `sensor_msgs/msg/Imu` and
    /// `sensor_msgs/msg/MagneticField` channels (`McapReader`).
    case mcap = "MCAP"
    /// Any CSV read through an explicit column mapping (`ReadOptions.columns`, `--columns`).
    case mapped
    /// A Sensor Logger session (iOS or Android): a folder with one CSV per sensor
    /// (`Accelerometer.csv`, `Gyroscope.csv`, `Magnetometer.csv`…), merged onto one timeline.
    case sensorLogger
    /// An x-io x-IMU3 logged session: a folder with one CSV per message (`Inertial.csv`,
    /// `Magnetometer.csv`…), merged onto one timeline.
    case ximu3Session
    /// A phyphox "Export data → CSV" of an experiment with several sensors: a folder (or the zip
    /// phyphox writes) with one CSV per sensor (`Accelerometer.csv`, `Gyroscope.csv`,
    /// `Magnetometer.csv`…, headers `"Time (s)","Acceleration x (m/s^2)"…`) and `meta/`,
    /// merged onto one timeline.
    case phyphoxSession

    /// The format in words, for reports.
    public var name: String {
        switch self {
        case .poise: "Poise / BROAD CSV"
        case .xioFusion: "x-io Fusion CSV"
        case .phyphox: "phyphox CSV"
        case .euroc: "EuRoC MAV imu0/data.csv"
        case .xsens: "Xsens MT Manager export"
        case .coreMotion: "CoreMotion device motion (gravity + userAcceleration)"
        case .ximu3: "x-io x-IMU3 logged CSV"
        case .rosBag1: "ROS 1 bag"
        case .mcap: "MCAP (ROS 2)"
        case .mapped: "CSV with columns mapped by --columns"
        case .sensorLogger: "Sensor Logger session"
        case .ximu3Session: "x-io x-IMU3 logged session"
        case .phyphoxSession: "phyphox session"
        }
    }
}

/// The column layout of a recording, derived from its header.
public struct RecordingSchema: Sendable, Equatable {
    /// Recognised format.
    public var format: RecordingFormat
    /// One mapping per header column, in file order.
    public var columns: [ColumnMapping]
    /// The mount applied as the samples are read (`ReadOptions.mount`), or nil: the file's axes.
    public var mount: SensorMount? = nil

    /// Whether the magnetometer is in arbitrary units (`a.u.`: x-IMU3 `Magnetometer.csv`,
    /// `--columns mag=…:au`): its values are kept as they are and never labelled µT.
    public var magneticFieldIsArbitrary: Bool {
        columns.contains { if case .magneticField = $0.meaning { $0.unit == ColumnSpec.arbitraryUnitLabel } else { false } }
    }

    public var hasTime: Bool { columns.contains { if case .time = $0.meaning { true } else { false } } }
    public var hasAccelerometer: Bool { columns.contains { if case .acceleration = $0.meaning { true } else { false } } }
    public var hasGyroscope: Bool { columns.contains { if case .rotationRate = $0.meaning { true } else { false } } }
    public var hasMagnetometer: Bool { columns.contains { if case .magneticField = $0.meaning { true } else { false } } }
    public var hasTruth: Bool { columns.contains { if case .truth = $0.meaning { true } else { false } } }
    public var hasMovement: Bool { columns.contains { $0.meaning == .movement } }
}
