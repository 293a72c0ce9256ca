import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// Where `poise calibrate` writes its JSON, and the file it updates.
struct CalibrationOutputOptions: ParsableArguments {
    @Option(help: "Write the calibration JSON here ('-': standard output; the summary then goes to standard error).")
    var out: String?

    @Option(help: ArgumentHelp("Start from this calibration file and replace only the sensor calibrated now (the result goes to --out; the file itself is not changed).", valueName: "cal.json"))
    var update: String?

    func validate() throws {
        if update != nil && out == nil { throw ValidationError("--update needs --out: the updated calibration is written there") }
    }

    /// Writes `calibration` (merged into `--update`'s) to `--out` and prints `summary` (on standard
    /// error when the JSON goes to standard output).
    func write(_ calibration: SensorCalibration, summary: String, input: String) throws {
        try FileIdentity.requireDistinct(outputs: [out], inputs: [input, update])
        var result = calibration
        if let update {
            result = try CalibrationText.checked("--update") { () throws(CalibrationError) in try SensorCalibration(contentsOf: update) }.merging(calibration)
        }
        if let out {
            let file = try OutputFile(path: out)
            file.append(result.json)
            do { try file.finish() } catch let error as RecordingError { throw CommandError(error.description) }
            if OutputFile.isStandardOutput(out) { StandardError.write(summary + "\n"); return }
            print(summary + "\nwrote \(out)")
        } else {
            print(summary)
        }
    }
}
