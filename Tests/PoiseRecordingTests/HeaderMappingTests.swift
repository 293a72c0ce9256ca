import Testing
@testable import PoiseRecording

@Suite struct HeaderMappingTests {
    @Test func unknownColumnIsAnErrorNamingTheColumn() {
        let error = #expect(throws: RecordingError.self) {
            _ = try HeaderMapping.schema(header: ["t_s", "acc_x_g", "speed_kmh"], file: "f.csv")
        }
        #expect(error?.line == 1 && error?.column == 3)
        #expect(error?.description.contains("speed_kmh") == true)
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
