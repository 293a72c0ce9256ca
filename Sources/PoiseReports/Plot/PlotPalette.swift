import Foundation
import PoiseRun

/// A categorical colour palette (Tableau 10), readable on white.
public enum PlotPalette {
    public static let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
    /// The colour for index `i` (cycles).
    public static func color(_ i: Int) -> String { colors[((i % colors.count) + colors.count) % colors.count] }
}
