import ArgumentParser
import PoiseRecording

/// `--topic NAME`: which `sensor_msgs/Imu` topic of a ROS bag to read (default: the first). On
/// every command that reads a recording, through `ReadingOptions`; CSV files ignore it.
struct TopicOption: ParsableArguments {
    @Option(name: .customLong("topic"),
            help: ArgumentHelp("ROS bag: the sensor_msgs/Imu topic to read (default: the first one).", valueName: "name"))
    var topic: String?

    /// `options` with this topic.
    func applied(to options: ReadOptions) -> ReadOptions {
        var options = options
        options.topic = topic
        return options
    }
}
