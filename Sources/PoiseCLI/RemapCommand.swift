import ArgumentParser
import Foundation
import Poise
import PoiseRecording
import PoiseRun

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

    /// `FILE` (or `-`, standard input) → `[truth |] remap` (`RemapStage`; a reflection's
    /// `AxisAlignmentStage`) → the recording CSV (`RecordingSink`), in one streaming `Run`, so
    /// memory does not grow with the file. Without `--out` (or with `--out -`) the CSV goes to
    /// standard output and nothing else is printed there.
    func run() throws {
        try FileIdentity.requireDistinct(outputs: [out, "-"], inputs: [file])
        let choice = try frame.choice()
        guard choice != nil || reading.mount != nil else {
            throw ValidationError("give one of --orientation, --axes or --mount")
        }
        // --mount is applied as the recording is read; --orientation or --axes after it.
        let source = try RecordingSources.open(path: file, options: reading.applied(to: ReadOptions(appleAccelerometerSign: appleAccelerometerSign)))
        var first: [MotionSample] = []
        try source.read(into: &first, maximumCount: NominalRate.rowCount)
        try SampleRateCheck.check(rate: nominalSampleRate(of: first), schema: source.schema, file: file)
        // The ground truth rides through the remap as the attitude (RecordingSink writes it back).
        var stages: [any PipelineStage] = source.schema.hasTruth ? [TruthAttitudeStage()] : []
        var label: String
        switch choice {
        case nil:
            label = ""
        case .rotation(let remap, let name):
            stages.append(RemapStage(remap: remap, description: name))
            label = name
        case .reflection(let alignment):
            if source.schema.hasTruth {
                throw CommandError("\(file): --axes \(alignment) is a reflection and the recording has ground-truth attitude columns (gt_q*), which a left-handed frame cannot carry; use a proper alignment")
            }
            stages.append(AxisAlignmentStage(alignment: alignment))
            label = "\(alignment) (reflection)"
        }
        if let mount = reading.mount { label = "mount \(mount)" + (label.isEmpty ? "" : ", then \(label)") }
        let destination = out ?? "-"
        let interrupt = InterruptFlag()  // before the output exists: a signal never leaves a partial file
        defer { interrupt.restore() }
        var sink = try RecordingSink(path: destination, schema: source.schema)
        var run = Run(source: source, first: first, pipeline: Pipeline(stages), clock: AsFastAsPossible())
        let end = try run.run(into: &sink, shouldStop: { interrupt.isSet }).end
        if end.stopped {
            let written = OutputFile.isStandardOutput(destination) ? "output incomplete" : "\(destination) was not written"
            StandardError.write("poise remap: \(interrupt.verb) after \(end.samples) samples; \(written)\n")
            throw ExitCode(interrupt.exitCode)
        }
        if !OutputFile.isStandardOutput(destination) {
            print("remapped \(end.samples) samples of \(file) into \(label) → \(destination)")
        }
    }
}
