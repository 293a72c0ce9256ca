import Poise

/// Turns decoded ROS IMU and magnetometer messages into `MotionSample`s, in the order they are
/// read: the part shared by the ROS 1 bag and MCAP readers.
///
/// - Units: `linear_acceleration` m/s² → g (÷ 9.80665; ROS reports specific force, +1 g on the
///   up axis at rest, as Poise does); `angular_velocity` rad/s; `magnetic_field` µT (the caller
///   converts from tesla).
/// - Magnetometer: a reading is delivered with the next IMU sample whose stamp is at or after its
///   own (not interpolated); when several wait, the latest is delivered. At most
///   `maximumPendingFields` wait; older ones are dropped.
/// - One IMU message is held back, so a magnetometer reading recorded just after an IMU message
///   with the same stamp still joins it.
/// - Strict mode throws at the first bad IMU message (non-finite value, stamp going backwards);
///   lenient mode drops it and records a `RecordingIssue`.
struct RosImuMerger {
    /// What an IMU message holds, in ROS units.
    struct Imu {
        /// Header stamp in seconds (`sec + nanosec·1e-9`).
        var time: Double
        /// `linear_acceleration` in m/s², specific force (+9.8 on the up axis at rest).
        var linearAcceleration: SIMD3<Double>
        /// `angular_velocity` in rad/s.
        var angularVelocity: SIMD3<Double>
    }

    let options: ReadOptions
    let imuTopic: String
    let magneticFieldTopic: String?
    /// g per m/s² (negative with `appleAccelerometerSign`).
    let accelerationScale: Double
    private(set) var issues: [RecordingIssue] = []
    private(set) var summary = ReadSummary()
    /// Magnetometer messages whose field was NaN or infinite (no reading; not delivered, not an issue).
    private(set) var magneticFieldMessagesWithoutReading = 0
    var onIssue: ((RecordingIssue) -> Void)?

    /// Magnetometer readings not delivered yet (stamp s, field µT), in record order.
    private var pendingFields: [(time: Double, field: SIMD3<Double>)] = []
    private var previousTime: Double?
    /// The accepted IMU message not delivered yet.
    private var held: Imu?

    /// At most this many magnetometer readings wait for an IMU sample.
    static let maximumPendingFields = 1024

    init(options: ReadOptions, imuTopic: String, magneticFieldTopic: String?) {
        self.options = options
        self.imuTopic = imuTopic
        self.magneticFieldTopic = magneticFieldTopic
        accelerationScale = (options.appleAccelerometerSign ? -1 : 1) / Units.standardGravity
    }

    /// Takes an IMU message; returns the sample of the message held before it, if this one is
    /// accepted. `failure` makes the error or issue location for the message.
    mutating func add(_ message: Imu, failure: (String) -> RecordingError) throws -> MotionSample? {
        guard try accept(message, failure: failure) else { return nil }
        let ready = held
        held = message
        guard let ready else { return nil }
        return sample(from: ready)
    }

    /// The sample of the message held back, at the end of the input.
    mutating func finish() -> MotionSample? {
        guard let last = held else { return nil }
        held = nil
        return sample(from: last)
    }

    /// Queues a magnetometer reading (µT) for the next IMU sample at or after its stamp. A
    /// message with a NaN or infinite field is no reading (drivers such as the Phidgets one send
    /// NaN when the magnetometer has no new value): it is counted, not an error.
    mutating func addField(time: Double, field: SIMD3<Double>, failure: (String) -> RecordingError) throws {
        guard field.x.isFinite, field.y.isFinite, field.z.isFinite else {
            magneticFieldMessagesWithoutReading += 1
            return
        }
        guard time.isFinite else {
            try problem(.nonFinite, failure("\(magneticFieldTopic ?? ""): non-finite stamp"), isError: true, dropsSample: false)
            return
        }
        if pendingFields.count >= Self.maximumPendingFields { pendingFields.removeFirst() }
        pendingFields.append((time, field))
    }

    /// Records an issue found by the reader itself: a warning, or an error (thrown in strict
    /// mode, recorded as dropping what follows in lenient mode).
    mutating func note(_ kind: RecordingIssue.Kind, _ location: RecordingError, isError: Bool) throws {
        try problem(kind, location, isError: isError, dropsSample: false)
    }

    /// False when the message is dropped (lenient mode) for a non-finite value or a stamp going backwards.
    private mutating func accept(_ message: Imu, failure: (String) -> RecordingError) throws -> Bool {
        let sum = message.linearAcceleration + message.angularVelocity
        if !(message.time.isFinite && (sum * 0).sum() == 0) {
            try problem(.nonFinite, failure("\(imuTopic): non-finite value in stamp, linear_acceleration or angular_velocity"), isError: true)
            return false
        }
        if let previousTime {
            if message.time < previousTime {
                try problem(.timeBackwards, failure("\(imuTopic): stamp \(message.time) s is earlier than the previous message's \(previousTime) s"), isError: true)
                return false
            }
            if message.time == previousTime {
                try problem(.duplicateTime, failure("\(imuTopic): stamp \(message.time) s repeats the previous message's"), isError: false)
            }
        }
        previousTime = message.time
        return true
    }

    /// The sample for an accepted message, with the latest magnetometer reading stamped at or
    /// before it that no earlier sample took.
    private mutating func sample(from message: Imu) -> MotionSample {
        var field: SIMD3<Double>?
        var delivered = 0
        for pending in pendingFields where pending.time <= message.time {
            field = pending.field
            delivered += 1
        }
        if delivered > 0 { pendingFields.removeAll { $0.time <= message.time } }
        summary.rowsDelivered += 1
        return MotionSample(time: message.time, acceleration: message.linearAcceleration * accelerationScale,
                            rotationRate: message.angularVelocity, magneticField: field)
    }

    /// Throws in strict mode when `isError`; otherwise records the issue (errors drop the sample).
    private mutating func problem(_ kind: RecordingIssue.Kind, _ location: RecordingError, isError: Bool, dropsSample: Bool = true) throws {
        if isError && options.strict {
            record(RecordingIssue(kind: kind, action: .stopped, location: location))
            throw location
        }
        if isError && dropsSample { summary.rowsDropped += 1 }
        record(RecordingIssue(kind: kind, action: isError ? .dropped : .kept, location: location))
    }

    private mutating func record(_ issue: RecordingIssue) {
        summary.issueCounts[issue.kind, default: 0] += 1
        if issues.count < options.maximumStoredIssues { issues.append(issue) }
        onIssue?(issue)
    }

    // MARK: - Topics and schema

    /// The IMU topic (`wanted`, or the first of type `imuType`) and the magnetometer topic to
    /// merge onto it (of type `magneticFieldType`: the one in the IMU topic's namespace, else the
    /// first). `usable` says whether a topic's definition can be decoded (nil: yes), else why not.
    ///
    /// - Throws: `RecordingError` listing every topic and its type when there is no such IMU topic.
    static func chooseTopics(_ topics: [(topic: String, type: String)], imuType: String, magneticFieldType: String,
                             wanted: String?, path: String, container: String,
                             usable: (Int) -> String? = { _ in nil }) throws -> (imu: String, magneticField: String?) {
        func fail(_ message: String) -> RecordingError {
            let list = topics.map { "\($0.topic) (\($0.type))" }
            return RecordingError(file: path, line: 0, column: 0,
                                  message: "\(message); the \(container) has \(list.isEmpty ? "no topics" : list.joined(separator: ", "))")
        }
        let index: Int
        if let wanted {
            guard let named = topics.firstIndex(where: { $0.topic == wanted }) else { throw fail("no topic \(wanted)") }
            guard topics[named].type == imuType else { throw fail("topic \(wanted) is \(topics[named].type), not \(imuType)") }
            index = named
        } else {
            guard let first = topics.firstIndex(where: { $0.type == imuType }) else { throw fail("no \(imuType) topic") }
            index = first
        }
        if let reason = usable(index) { throw fail("topic \(topics[index].topic) \(reason)") }
        let imu = topics[index].topic
        let magnetometers = topics.indices.filter { topics[$0].type == magneticFieldType && usable($0) == nil }.map { topics[$0].topic }
        func namespace(_ topic: String) -> String { topic.split(separator: "/").dropLast().joined(separator: "/") }
        let sameNamespace = magnetometers.first { namespace($0) == namespace(imu) }
        return (imu, sameNamespace ?? magnetometers.first)
    }

    /// The topics as columns, in the order time, acceleration, rotation rate, orientation,
    /// magnetic field, then the other topics (ignored).
    static func schema(_ topics: [(topic: String, type: String)], format: RecordingFormat, imu: String,
                       magneticField: String?, accelerationScale: Double) -> RecordingSchema {
        var columns = [ColumnMapping(name: "\(imu) header.stamp", meaning: .time(scale: 1), unit: "s")]
        for (axis, name) in ["x", "y", "z"].enumerated() {
            columns.append(ColumnMapping(name: "\(imu) linear_acceleration.\(name)", meaning: .acceleration(axis: axis, scale: accelerationScale), unit: "m/s²"))
        }
        for (axis, name) in ["x", "y", "z"].enumerated() {
            columns.append(ColumnMapping(name: "\(imu) angular_velocity.\(name)", meaning: .rotationRate(axis: axis, scale: 1), unit: "rad/s"))
        }
        columns.append(ColumnMapping(name: "\(imu) orientation", meaning: .ignored(reason: "the device's own estimate (x, y, z, w), not ground truth"), unit: ""))
        if let magneticField {
            for (axis, name) in ["x", "y", "z"].enumerated() {
                columns.append(ColumnMapping(name: "\(magneticField) magnetic_field.\(name)", meaning: .magneticField(axis: axis, scale: 1e6), unit: "T"))
            }
        }
        var listed: Set<String> = [imu]
        if let magneticField { listed.insert(magneticField) }
        for topic in topics where !listed.contains(topic.topic) {
            listed.insert(topic.topic)
            columns.append(ColumnMapping(name: topic.topic, meaning: .ignored(reason: "\(topic.type), not read"), unit: ""))
        }
        return RecordingSchema(format: format, columns: columns)
    }
}
