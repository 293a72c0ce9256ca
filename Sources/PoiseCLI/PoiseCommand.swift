import ArgumentParser

/// The `poise` command: parses arguments and calls the libraries. No processing logic lives here.
public struct PoiseCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "poise",
        abstract: "Smooth, separate and fuse motion-sensor signals; measure filter latency and jitter; replay recordings in real time.",
        version: "0.1.0",
        subcommands: [
            ReplayCommand.self,
            InfoCommand.self, SimulateCommand.self,
            StepCommand.self, JitterCommand.self, BenchCommand.self,
            SpectrumCommand.self, ResponseCommand.self,
            FuseCommand.self,
            EvaluateCommand.self,
            RemapCommand.self, TiltCommand.self,
            ReportCommand.self,
        ]
    )

    public init() {}
}
