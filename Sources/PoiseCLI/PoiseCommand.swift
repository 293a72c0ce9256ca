import ArgumentParser
import CPoise

/// The `poise` command: parses arguments and calls the libraries. No processing logic lives here.
public struct PoiseCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "poise",
        abstract: "Smooth, separate and fuse motion-sensor signals; measure filter latency and jitter; replay recordings in real time.",
        discussion: """
        Files: '-' is standard input for a recording and standard output for an output option. \
        Regular files are written to a temporary file and renamed at the end; devices, pipes and \
        FIFOs are written in place; a symbolic link's target is replaced. An output that is an \
        input file is refused. Exit status: 0 success, 1 a problem with the data or a file, \
        64 a usage error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
        """,
        version: POISE_VERSION,   // include/poise.h
        subcommands: [
            ReplayCommand.self, LiveCommand.self, ConvertCommand.self,
            InfoCommand.self, SimulateCommand.self,
            StepCommand.self, JitterCommand.self, BenchCommand.self,
            SpectrumCommand.self, ResponseCommand.self,
            FuseCommand.self,
            EvaluateCommand.self,
            RemapCommand.self, TiltCommand.self, GyroCommand.self,
            ReportCommand.self, AllanCommand.self,
            BatchCommand.self,
            CalibrateCommand.self,
        ]
    )

    public init() {}
}
