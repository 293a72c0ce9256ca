import Foundation
import Testing
@testable import PoiseReports

@Suite struct BarPlotTests {
    /// Bars: one rectangle per positive count (a zero count draws nothing), inside the plot area,
    /// taller for larger counts on a log axis, equal counts equally tall.
    @Test func barsAreDrawnInsideThePlotAndScaleWithTheirCounts() throws {
        let edges = [1.0, 2, 4, 8, 16, 32]
        let counts = [3.0, 300, 0, 30, 3]
        let plot = LinePlot(title: "h", x: PlotAxis("x", scale: .logarithmic), y: PlotAxis("n", scale: .logarithmic, range: 0.5...1000),
                            series: [PlotSeries("bins", x: edges, y: counts, color: "#123456", style: .bars)])
        let svg = plot.svg()
        #expect(svg.contains("data-bars=\"4\""))
        let group = try #require(svg.range(of: "data-bars=\"4\">"))
        var rects: [(x: Double, y: Double, width: Double, height: Double)] = []
        var rest = svg[group.upperBound...]
        while let r = rest.range(of: "<rect x=\""), rects.count < 4 {
            rest = rest[r.upperBound...]
            func number(_ key: String) -> Double {
                guard let k = rest.range(of: key + "=\"") else { return .nan }
                return Double(rest[k.upperBound...].prefix { $0 != "\"" }) ?? .nan
            }
            rects.append((Double(rest.prefix { $0 != "\"" }) ?? .nan, number("y"), number("width"), number("height")))
        }
        #expect(rects.count == 4)
        let f = PlotFrame()
        for r in rects {
            #expect(r.x >= f.left - 0.1 && r.x + r.width <= f.width - f.right + 0.1)
            #expect(abs(r.y + r.height - (f.top + f.plotHeight)) < 0.11, "bars stand on the bottom axis")
        }
        #expect(rects[1].height > rects[2].height && rects[2].height > rects[0].height)
        #expect(abs(rects[0].height - rects[3].height) < 0.11)
        #expect(rects[0].x < rects[1].x && rects[1].x < rects[2].x)
    }
}
