import ArgumentParser
import Foundation
import Poise
import PoiseRecording

/// `poise remap FILE (--orientation O | --axes ±A±B±C | --mount R,P,Y) [--out FILE]`
struct RemapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remap",
        abstract: "Rewrite a recording in another frame: screen axes of an interface orientation, an axis alignment, or a mounting rotation.",
        discussion: """
        Accelerometer, gyroscope and magnetometer are rotated into the new frame; a ground-truth \
        attitude q (device → earth) becomes q ⊗ r* so it still describes the new frame. Output \
        columns use Poise names (t_s, acc_x_g, gyr_x_radps, mag_x_uT, gt_qw…, movement). \
        See docs/orientation.md.
        """)

    @Argument(help: "Recording (CSV with Poise/BROAD or x-io headers).")
    var file: String

    @OptionGroup var frame: FrameOptions

    @Flag(help: "The file's accelerometer uses Apple's raw sign (−1 g on the up axis).")
    var appleAccelerometerSign = false

    @Option(help: "Write the CSV here instead of standard output ('-': standard output).")
    var out: String?

    @OptionGroup var reading: ReadingOptions

    /// `FILE` may be `-` (standard input); without `--out` (or with `--out -`) the CSV goes to
    /// standard output and nothing else is printed there.
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file])
        let choice = try frame.choice()
        guard choice != nil || reading.mount != nil else {
            throw ValidationError("give one of --orientation, --axes or --mount")
        }
        // --mount is applied as the recording is read; --orientation or --axes after it.
        let recording = try reading.load(file, options: ReadOptions(appleAccelerometerSign: appleAccelerometerSign))
        let samples: [MotionSample]
        var label: String
        switch choice {
        case nil:
            samples = recording.samples
            label = ""
        case .rotation(let remap, let name):
            samples = recording.samples.map { remap.sample($0) }
            label = name
        case .reflection(let alignment):
            if recording.schema.hasTruth {
                throw CommandError("\(file): --axes \(alignment) is a reflection and the recording has ground-truth attitude columns (gt_q*), which a left-handed frame cannot carry; use a proper alignment")
            }
            samples = recording.samples.map { alignment.vectors(of: $0) }
            label = "\(alignment) (reflection)"
        }
        if let mount = reading.mount { label = "mount \(mount)" + (label.isEmpty ? "" : ", then \(label)") }
        // PoiseRecording's writer: Poise column names, shortest exact Doubles.
        let destination = out ?? "-"
        let remapped = Recording(path: destination, schema: recording.schema, samples: samples)
        try remapped.write(to: destination)
        if !OutputFile.isStandardOutput(destination) {
            print("remapped \(samples.count) samples of \(file) into \(label) → \(destination)")
        }
    }
}
