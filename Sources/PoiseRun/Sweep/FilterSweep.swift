import Foundation
import Poise

/// The filter kinds a sweep knows, with their sweepable parameters and default grids.
///
/// All six are smoothing (low-pass) filters: the sweep measures how fast they follow a step and
/// how much they calm a still signal, which is what a low-pass trades off.
public enum SweepKind: String, CaseIterable, Sendable, Codable {
    /// Fixed-factor low-pass `y ← k·x + (1−k)·y` (spec `factor`).
    case factor
    /// One-pole RC low-pass by cutoff in Hz (spec `lowpass`).
    case lowpass
    /// Butterworth low-pass (spec `butter:lowpass`).
    case butter
    /// Apple's AccelerometerGraph low-pass (spec `accelgraph`).
    case accelgraph
    /// One Euro filter (spec `oneeuro`).
    case oneeuro
    /// Poise's adaptive filter (spec `adaptive`).
    case adaptive

    /// The spec a sweep of this kind starts from when the user names only the kind.
    public var defaultBase: String {
        self == .butter ? "butter:lowpass" : rawValue
    }

    /// Numeric parameters a grid may sweep (names as in ``FilterSpec``).
    public var parameters: [String] {
        switch self {
        case .factor: ["k"]
        case .lowpass: ["cutoff"]
        case .butter: ["order", "cutoff"]
        case .accelgraph: ["cutoff"]
        case .oneeuro: ["mincutoff", "beta", "dcutoff"]
        case .adaptive: ["cutoff", "threshold"]
        }
    }

    /// The grid used when none is given. Butterworth cutoffs stay at or below 15 Hz so every
    /// point is valid at 31 Hz and above (they must be below the Nyquist frequency);
    /// AccelerometerGraph's cutoff (RC = 1/cutoff, not 1/(2π·cutoff)) goes higher to reach the
    /// same latencies as the others.
    public var defaultGrid: String {
        switch self {
        case .factor: "k=0.02:0.5:0.02"
        case .lowpass: "cutoff=0.5:15:0.5"
        case .butter: "order=1:4:1,cutoff=1:15:1"
        case .accelgraph: "cutoff=1/2/3/4/5/6/8/10/12/15/20/25/30/40/50/60"
        case .oneeuro: "mincutoff=0.05:3.2:*2,beta=0/0.01/0.03/0.1/0.3/1/3"
        case .adaptive: "cutoff=0.1:3.2:*2,threshold=0.01/0.02/0.03/0.05/0.1"
        }
    }
}

/// One point of a sweep: the filter spec and the grid values that made it.
public struct SweepSetting: Sendable, Equatable {
    /// The filter kind.
    public var kind: SweepKind
    /// The complete filter spec of this point.
    public var spec: FilterSpec
    /// The swept parameters' values, in grid order (units as in ``FilterSpec``).
    public var parameters: [Value]

    /// One swept parameter's value.
    public struct Value: Sendable, Equatable {
        public var name: String
        public var value: Double
    }

    public init(kind: SweepKind, spec: FilterSpec, parameters: [Value]) {
        self.kind = kind; self.spec = spec; self.parameters = parameters
    }
}

/// What can go wrong when planning or running a sweep.
public enum SweepError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The base filter spec or the grid is malformed, or the grid does not suit the filter
    /// (names the spec token or the grid item).
    case spec(SpecError)
    /// A recording cannot be swept (names the recording).
    case recording(String)

    public var description: String {
        switch self {
        case .spec(let error): error.description
        case .recording(let message): message
        }
    }
}

/// A sweep plan: a filter kind, its fixed spec items, and a grid of parameter values,
/// expanded into one ``SweepSetting`` per grid point.
public struct FilterSweep: Sendable, Equatable {
    /// The filter kind.
    public var kind: SweepKind
    /// The fixed part of the spec (for example `butter:lowpass` or `accelgraph:adaptive`).
    public var base: String
    /// The grid.
    public var grid: ParameterGrid
    /// One setting per grid point, in grid order (the last grid item varies fastest).
    public var settings: [SweepSetting]

    /// Plans a sweep.
    ///
    /// - Parameters:
    ///   - filter: a kind (`factor`, `lowpass`, `butter`, `accelgraph`, `oneeuro`, `adaptive`)
    ///     optionally with fixed spec items, for example `butter:lowpass,order=4` or
    ///     `accelgraph:adaptive`. `butter` alone means `butter:lowpass`.
    ///   - grid: grid text (see ``ParameterGrid``); `nil` uses the kind's ``SweepKind/defaultGrid``.
    /// - Throws: ``SweepError/spec(_:)`` naming the filter token for a malformed base, an
    ///   unknown kind or a high-pass/band-pass base; naming the grid item for a malformed grid, a
    ///   parameter the kind does not sweep or that the base already fixes, or a value the filter
    ///   rejects.
    public init(filter: String, grid gridText: String? = nil) throws(SweepError) {
        let stage: StageSpec
        do { stage = try StageSpec(parsing: filter, subject: .filter) } catch { throw .spec(error) }
        let name = stage.name.lowercased()
        guard let kind = SweepKind(rawValue: name) else {
            throw .spec(stage.error("a sweep takes one of \(SweepKind.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        for argument in stage.arguments where argument.key == nil && ["highpass", "bandpass"].contains(argument.value.lowercased()) {
            throw .spec(stage.error("the sweep measures smoothing filters; use a low-pass", at: argument))
        }
        var items = stage.arguments.map { $0.text.lowercased() }
        if kind == .butter, !items.contains("lowpass") { items.insert("lowpass", at: 0) }
        let base = items.isEmpty ? name : name + ":" + items.joined(separator: ",")
        let grid: ParameterGrid
        do { grid = try ParameterGrid(parsing: gridText ?? kind.defaultGrid) } catch { throw .spec(error) }
        let fixed = Set(stage.arguments.compactMap { $0.key?.lowercased() })
        for parameter in grid.parameters {
            guard kind.parameters.contains(parameter.name) else {
                throw .spec(grid.error("\(kind.rawValue) does not sweep '\(parameter.name)'; it sweeps \(kind.parameters.joined(separator: ", "))",
                                       at: parameter))
            }
            if fixed.contains(parameter.name) {
                throw .spec(grid.error("'\(parameter.name)' is already fixed in the filter spec '\(base)'", at: parameter))
            }
        }
        var settings: [SweepSetting] = []
        settings.reserveCapacity(grid.count)
        for index in 0..<grid.count {
            let point = grid.point(index)
            let text = base + (items.isEmpty ? ":" : ",") + point.map { "\($0.name)=\(Self.format($0.value))" }.joined(separator: ",")
            do {
                let spec = try FilterSpec(parsing: text)
                settings.append(SweepSetting(kind: kind, spec: spec, parameters: point.map { .init(name: $0.name, value: $0.value) }))
            } catch {
                // A value the filter refuses: named at the grid item that produced it.
                let key = error.token.split(separator: "=").first.map { String($0).lowercased() } ?? ""
                if let parameter = grid.parameters.first(where: { $0.name == key }) {
                    throw .spec(grid.error("\(error.token): \(error.message)", at: parameter))
                }
                throw .spec(error)
            }
        }
        self.kind = kind
        self.base = base
        self.grid = grid
        self.settings = settings
    }

    /// A number as written in a spec: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int(value)) : String(value)
    }
}
