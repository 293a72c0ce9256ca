import ArgumentParser
import Poise
import PoiseRecording

/// `poise simulate`'s noise options: the gyroscope's or accelerometer's noise processes with
/// known Allan-deviation parameters, in SI units (those of `poise allan` and Kalibr). Giving any
/// of a sensor's three replaces that sensor's noise and bias drift by exactly the processes given
/// (the others zero); its constant bias, scale and misalignment stay as the model has them.
struct SimulatedNoiseOptions: ParsableArguments {
    @Option(name: .customLong("gyro-noise-density"), parsing: .unconditional, help: ArgumentHelp("Gyroscope white noise N, rad/s/√Hz.", valueName: "N"))
    var gyroscopeNoiseDensity: Double?

    @Option(name: .customLong("gyro-bias-instability"), parsing: .unconditional, help: ArgumentHelp("Gyroscope bias instability B (flicker; Allan floor 0.664·B), rad/s.", valueName: "B"))
    var gyroscopeBiasInstability: Double?

    @Option(name: .customLong("gyro-random-walk"), parsing: .unconditional, help: ArgumentHelp("Gyroscope rate random walk K, rad/s²/√Hz.", valueName: "K"))
    var gyroscopeRandomWalk: Double?

    @Option(name: .customLong("accel-noise-density"), parsing: .unconditional, help: ArgumentHelp("Accelerometer white noise N, m/s²/√Hz.", valueName: "N"))
    var accelerometerNoiseDensity: Double?

    @Option(name: .customLong("accel-bias-instability"), parsing: .unconditional, help: ArgumentHelp("Accelerometer bias instability B (flicker), m/s².", valueName: "B"))
    var accelerometerBiasInstability: Double?

    @Option(name: .customLong("accel-random-walk"), parsing: .unconditional, help: ArgumentHelp("Accelerometer random walk K, m/s³/√Hz.", valueName: "K"))
    var accelerometerRandomWalk: Double?

    func check() throws {
        for (name, value) in [("--gyro-noise-density", gyroscopeNoiseDensity), ("--gyro-bias-instability", gyroscopeBiasInstability),
                              ("--gyro-random-walk", gyroscopeRandomWalk), ("--accel-noise-density", accelerometerNoiseDensity),
                              ("--accel-bias-instability", accelerometerBiasInstability), ("--accel-random-walk", accelerometerRandomWalk)] {
            try OptionRange(name, 0, 1e3).check(value)
        }
    }

    /// `model` with the sensors whose noise was given replaced.
    func applied(to model: SensorModel) -> SensorModel {
        var model = model
        func replace(_ sensor: inout SensorErrorModel, _ values: [Double?], scale: Double) {
            guard values.contains(where: { $0 != nil }) else { return }
            sensor.noiseDensity = (values[0] ?? 0) / scale
            sensor.flickerBiasInstability = (values[1] ?? 0) / scale
            sensor.rateRandomWalk = (values[2] ?? 0) / scale
            sensor.biasInstability = 0
        }
        replace(&model.gyroscope, [gyroscopeNoiseDensity, gyroscopeBiasInstability, gyroscopeRandomWalk], scale: 1)
        replace(&model.accelerometer, [accelerometerNoiseDensity, accelerometerBiasInstability, accelerometerRandomWalk],
                scale: Units.standardGravity)
        return model
    }
}
