import Testing
@testable import PoiseRecording

@Suite struct HeaderMappingTests {
    @Test func unknownColumnIsIgnoredWithANote() throws {
        var issues: [RecordingIssue] = []
        let schema = try HeaderMapping.schema(header: ["t_s", "acc_x_g", "acc_y_g", "acc_z_g", "speed_kmh"], file: "f.csv",
                                              issues: &issues)
        #expect(schema.columns[4].meaning == .ignored(reason: "not a quantity Poise reads"))
        #expect(issues.count == 1 && issues[0].location.column == 5 && issues[0].location.description.contains("speed_kmh"))
    }

    @Test func gravityFreeAccelerationIsNotAnAccelerometer() {
        let header = ["Time (s)", "Linear Acceleration x (m/s^2)", "Linear Acceleration y (m/s^2)",
                      "Linear Acceleration z (m/s^2)", "Absolute acceleration (m/s^2)"]
        let error = #expect(throws: RecordingError.self) { _ = try HeaderMapping.schema(header: header, file: "p.csv") }
        let message = error?.message ?? ""
        #expect(message.contains("no sensor columns"))
        #expect(message.contains("'Linear Acceleration x (m/s^2)', 'Linear Acceleration y (m/s^2)', 'Linear Acceleration z (m/s^2)' (gravity-free"))
        #expect(message.contains("export the accelerometer itself") && !message.contains("rename"))
        #expect(message.contains("'Absolute acceleration (m/s^2)' (a norm without axes)"))
    }

    @Test func xsensCounterIsTheTimeAtTheUpdateRate() throws {
        let header = ["PacketCounter", "SampleTimeFine", "Acc_X", "Acc_Y", "Acc_Z", "Gyr_X", "Gyr_Y", "Gyr_Z",
                      "Mag_X", "Mag_Y", "Mag_Z", "Mat[1][1]", "NGIMU Barometer (hPa)"]
        let schema = try HeaderMapping.schema(header: header, file: "x.txt", line: 6, counterRate: 100)
        #expect(schema.format == .xsens)
        #expect(schema.columns[0].meaning == .time(scale: 0.01))
        #expect(schema.columns[2].meaning == .acceleration(axis: 0, scale: 1 / 9.80665))
        #expect(schema.columns[5].meaning == .rotationRate(axis: 0, scale: 1))
        #expect(!schema.hasMagnetometer)
        for i in [1, 8, 11, 12] { #expect(schema.columns[i].meaning.slot == nil, "\(header[i])") }
        // Without a rate the counter is no time column.
        let error = #expect(throws: RecordingError.self) { _ = try HeaderMapping.schema(header: header, file: "x.txt", line: 6) }
        #expect(error?.line == 6 && error?.message.contains("missing time column") == true)
    }

    @Test func xioHeaderIsRecognised() throws {
        let header = "Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)"
            .split(separator: ",").map(String.init)
        let schema = try HeaderMapping.schema(header: header, file: "x.csv")
        #expect(schema.format == .xioFusion)
        #expect(schema.hasGyroscope && schema.hasAccelerometer && schema.hasMagnetometer && schema.hasTime)
        #expect(schema.columns[1].meaning == .rotationRate(axis: 0, scale: Double.pi / 180))
    }
}
