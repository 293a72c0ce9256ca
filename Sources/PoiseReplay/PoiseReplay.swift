/// PoiseReplay — real-time replay of recordings through processing pipelines, with timing
/// statistics, parameter sweeps and reports.
public enum PoiseReplay {}
