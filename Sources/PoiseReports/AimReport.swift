import Poise
import PoiseRun

/// The HTML page of `poise gyro --report`: the aim path (where the camera pointed, frame by
/// frame), the camera's yaw and pitch over time, and the turn rate before and after smoothing with
/// the still segments shaded, plus the command's summary lines and, when measured, the smoothing
/// comparison. Built from values the command already has; reads no file.
public struct AimReport {
    /// The command's summary lines, shown first.
    public var summary: [String] = []
    /// Frame times (s) and the camera's accumulated yaw and pitch after each frame (degrees).
    public var frameTimes: [Double] = []
    public var cameraYaw: [Double] = []
    public var cameraPitch: [Double] = []
    /// Sample times (s) and the turn-rate norm before and after smoothing (°/s).
    public var sampleTimes: [Double] = []
    public var rawSpeed: [Double] = []
    public var smoothedSpeed: [Double] = []
    /// Still segments as time spans (s).
    public var still: [ClosedRange<Double>] = []
    /// The smoothing comparison, if measured.
    public var comparison: AimSmoothingComparison?

    public init() {}

    /// At most `limit` evenly spaced indices of `0..<count` (all of them when fewer).
    static func thinned(_ count: Int, limit: Int) -> [Int] {
        guard count > limit, limit > 1 else { return Array(0..<count) }
        return (0..<limit).map { $0 * (count - 1) / (limit - 1) }
    }

    /// The page.
    public func html(title: String) -> String {
        var page = HTMLReport(title: title)
        page.heading("Gyro aiming")
        for line in summary { page.paragraph(line) }
        let keep = Self.thinned(frameTimes.count, limit: 4000)
        let path = LinePlot(title: "Aim path (camera direction, frame by frame)", x: PlotAxis("camera yaw, degrees (right +)"),
                            y: PlotAxis("camera pitch, degrees (up +)"),
                            series: [PlotSeries("camera", x: keep.map { cameraYaw[$0] }, y: keep.map { cameraPitch[$0] },
                                                color: PlotPalette.color(0), style: .markers(radius: 1.2))],
                            frame: PlotFrame(width: 920, height: 420))
        page.figure(path.svg(), caption: "Where the camera points after each frame, from its start at (0, 0).")
        let angles = LinePlot(title: "Camera yaw and pitch over time", x: PlotAxis("time, s"), y: PlotAxis("degrees"),
                              series: [PlotSeries("yaw", x: frameTimes, y: cameraYaw, color: PlotPalette.color(0)),
                                       PlotSeries("pitch", x: frameTimes, y: cameraPitch, color: PlotPalette.color(1))],
                              zoomable: true)
        page.figure(angles.svg(), caption: "Accumulated camera angles (drag to zoom, double-click to reset).")
        let bands = still.map { PlotBand(from: $0.lowerBound, to: $0.upperBound, color: "#e8f2e8") }
        let speed = LinePlot(title: "Device turn speed before and after tiered smoothing", x: PlotAxis("time, s"), y: PlotAxis("°/s"),
                             series: [PlotSeries("unsmoothed", x: sampleTimes, y: rawSpeed, color: PlotPalette.color(7)),
                                      PlotSeries("smoothed", x: sampleTimes, y: smoothedSpeed, color: PlotPalette.color(3))],
                             bands: bands, zoomable: true)
        page.figure(speed.svg(), caption: "Still segments (rest detector) shaded: there the smoothing removes jitter; fast turns pass unsmoothed.")
        if let comparison {
            page.heading("Smoothing compared (lag on moving segments, jitter on still ones)")
            page.table(header: ["smoother", "settings", "lag, ms", "jitter, °/s", "2 °/s step to 90 %, ms", "100 °/s step, ms", "Pareto front"],
                       rows: comparison.rows.map { row in
                           [row.kind, row.settings, row.lagMilliseconds.map { formatted($0, 2) } ?? "—", formatted(row.jitter, 4),
                            row.slowStepMilliseconds.map { formatted($0, 1) } ?? "—", row.fastStepMilliseconds.map { formatted($0, 1) } ?? "—",
                            row.onFront ? "front" : ""]
                       })
        }
        return page.render()
    }

    func formatted(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return "\((value * scale).rounded() / scale)"
    }
}
