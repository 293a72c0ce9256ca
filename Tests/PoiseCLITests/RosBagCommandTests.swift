import Foundation
import PoiseCLI
import Testing

/// test2.bag of ../shared/data/formats/ros1_bag_imu (nil when the folder is absent, as in a fresh clone).
private let rosBagTest2: String? = {
    // This file is Tests/PoiseCLITests/RosBagCommandTests.swift; ../shared sits beside the package.
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = package.deletingLastPathComponent().appendingPathComponent("shared/data/formats/ros1_bag_imu/test2.bag").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}()

@Suite("Commands on a ROS 1 bag (../shared/data)")
struct RosBagCommandTests {
    @Test("info reports the bag's format, topics and 50 Hz rate; --topic picks the IMU topic or names the bag's topics",
          .enabled(if: rosBagTest2 != nil, "../shared/data/formats/ros1_bag_imu/test2.bag is absent (fresh clone): skipped"))
    func infoAndTopic() throws {
        let bag = try #require(rosBagTest2)
        let text = try InfoCommand.parse([bag, "--topic", "/imu/data"]).output()
        #expect(text.contains("format ROS 1 bag, 3061 rows"))
        #expect(text.contains("sample rate 50.000 Hz"))
        #expect(text.contains("ignored columns:\n    /imu/data orientation: the device's own estimate (x, y, z, w), not ground truth"))
        let error = #expect(throws: (any Error).self) { try InfoCommand.parse([bag, "--topic", "/odom"]).output() }
        #expect("\(error!)".contains("no topic /odom; the bag has /imu/data (sensor_msgs/Imu), /jackal_velocity_controller/odom (nav_msgs/Odometry)"))
    }
}
