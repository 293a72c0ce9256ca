import ArgumentParser

/// `poise calibrate mag|gyro|accel FILE`: sensor calibration from a recording.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the magnetometer (hard and soft iron), the gyroscope (bias) or the accelerometer (offset and scale) from a recording.",
        discussion: """
        Prints a summary; --out writes the calibration JSON (docs/calibration.md), which \
        'poise fuse --calibration', 'poise evaluate --calibration' and the pipeline stage \
        'calibrate:file=cal.json' apply.
        """,
        subcommands: [CalibrateMagnetometerCommand.self, CalibrateGyroscopeCommand.self, CalibrateAccelerometerCommand.self])
}
