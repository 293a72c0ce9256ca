import Testing
@testable import PoiseRecording

/// `DatagramLines`: how datagrams become CSV lines for the reader (Poise CSV, flat JSON, and the
/// "Sensorstream IMU+GPS" app's lines).
@Suite struct DatagramLinesTests {
    func converted(_ datagrams: [String]) -> String {
        var lines = DatagramLines()
        return datagrams.map { String(decoding: lines.lines(ArraySlice($0.utf8)), as: UTF8.self) }.joined()
    }

    /// A line with a NUL byte and a line that starts with `{` but is not a flat JSON object are
    /// left out and counted; the lines around them go on.
    @Test func binaryAndBadJSONLinesAreLeftOutAndCounted() {
        var lines = DatagramLines()
        var text = ""
        for datagram in ["t_s,acc_x_g", "0,1\n0.01,\u{0}\u{7}\n0.02,2", "{\"t_s\":0.03,", "0.04,4"] {
            text += String(decoding: lines.lines(ArraySlice(datagram.utf8)), as: UTF8.self)
        }
        #expect(text == "t_s,acc_x_g\n0,1\n0.02,2\n0.04,4\n")
        #expect(lines.bad.binary == 1 && lines.bad.badJSON == 1 && lines.bad.total == 2)
    }

    @Test func sensorStreamLinesBecomeRowsUnderAHeaderOfTheirSensors() {
        let text = converted([
            "1234.5, 3,   0.08,  9.75,  0.99, 4, 0.001, -0.002, 0.0005, 5, 21.5, -3.1, -40.2",
            "1234.52,3,0.1,9.7,1.0,81,12.0,-3.0,4.5,4,0.002,0,0,5,21.4,-3.0,-40.0",   // orientation skipped
            "1234.54, 3, 0.2, 9.6, 1.1, 4, 0.003, 0, 0",                             // no magnetometer
        ])
        #expect(text == """
            t_s,acc_x_mps2,acc_y_mps2,acc_z_mps2,gyr_x_radps,gyr_y_radps,gyr_z_radps,mag_x_uT,mag_y_uT,mag_z_uT
            1234.5,0.08,9.75,0.99,0.001,-0.002,0.0005,21.5,-3.1,-40.2
            1234.52,0.1,9.7,1.0,0.002,0,0,21.4,-3.0,-40.0
            1234.54,0.2,9.6,1.1,0.003,0,0,,,

            """)
    }

    @Test func theFirstLinesSensorsMakeTheHeader() {
        #expect(converted(["5.0, 3, 0, 0, 9.8", "5.02, 3, 0, 0, 9.81, 4, 1, 2, 3"]) == "t_s,acc_x_mps2,acc_y_mps2,acc_z_mps2\n5.0,0,0,9.8\n5.02,0,0,9.81\n")
    }

    /// A Poise CSV stream (header first) passes through unchanged even when a row has the shape
    /// of a Sensorstream line; lines of another shape are left for the reader to judge.
    @Test func otherFormsAreNotTakenForSensorStream() {
        let csv = ["t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_radps", "0.01,3,0.5,1,0"]
        #expect(converted(csv) == csv.joined(separator: "\n") + "\n")
        #expect(converted(["1.0, 2, 0, 0, 0"]) == "1.0, 2, 0, 0, 0\n", "no accelerometer, gyroscope or magnetometer group")
        #expect(converted(["1.0, 3, 0, 0"]) == "1.0, 3, 0, 0\n", "a group of two values")
        #expect(converted(["1.0, 3, 0, 0, 1, 3, 0, 0, 1"]) == "1.0, 3, 0, 0, 1, 3, 0, 0, 1\n", "an id twice")
        #expect(converted(["{\"t_s\":0,\"acc_x_g\":1}", "0.01, 3, 0, 0, 9.8"]) == "t_s,acc_x_g\n0,1\n0.01, 3, 0, 0, 9.8\n")
        // After the stream started as Sensorstream, a malformed line is passed on as it is.
        #expect(converted(["1.0, 3, 0, 0, 9.8", "1.02, 3, x"]) == "t_s,acc_x_mps2,acc_y_mps2,acc_z_mps2\n1.0,0,0,9.8\n1.02, 3, x\n")
    }

    /// Fields are split at comma bytes, as the reader splits them: a combining mark after a
    /// comma (one Character with it) does not join two fields, and a row has the time and three
    /// fields per sensor (found by fuzzing the datagram converter).
    @Test func fieldsAreSplitAtCommaBytes() {
        let text = converted(["1.5, 3, 0.08, 9.7, 0.99, 4, 0.001, -0.002,\u{0616}0.0005"])
        let rows = text.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows[1].utf8.filter { $0 == UInt8(ascii: ",") }.count == 6, "\(rows[1])")
        #expect(rows[1].hasSuffix(",\u{0616}0.0005"), "the odd value is kept for the reader to refuse")
    }
}
