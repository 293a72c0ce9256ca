import ArgumentParser
import Poise

/// Options choosing the frame that samples are remapped into (shared by `remap` and `tilt`).
/// A mounting rotation is `--mount` of `ReadingOptions`, applied as the samples are read (on
/// every command), before these.
struct FrameOptions: ParsableArguments {
    @Option(help: "Interface orientation (UIKit semantics): portrait, portraitUpsideDown, landscapeLeft (home button left), landscapeRight.")
    var orientation: InterfaceOrientation?

    @Option(parsing: .unconditional,
            help: "Axis alignment: the device axis that becomes each new axis, e.g. +Y-X+Z (new x = +device y, new y = −device x).")
    var axes: String?

    @Flag(help: "Accept a reflection (left-handed) axis alignment; vectors only, not with ground-truth attitudes.")
    var allowReflection = false

    enum Choice {
        case rotation(FrameRemap<Double>, String)
        case reflection(AxisAlignment)
    }

    /// The chosen frame, or nil when none was given.
    func choice() throws -> Choice? {
        let given = [orientation != nil, axes != nil].filter { $0 }.count
        guard given <= 1 else { throw ValidationError("give only one of --orientation and --axes") }
        if let orientation {
            return .rotation(FrameRemap(orientation: orientation), "\(orientation.rawValue) (\(orientation.alignment))")
        }
        if let axes {
            let alignment: AxisAlignment
            do { alignment = try AxisAlignment(axes, allowingReflection: allowReflection) } catch let e as AxisAlignmentError {
                throw ValidationError("--axes: \(e)")
            }
            return alignment.isProper ? .rotation(try FrameRemap(alignment: alignment), alignment.description) : .reflection(alignment)
        }
        return nil
    }
}

extension InterfaceOrientation: ExpressibleByArgument {}

extension Substring {
    func trimmingCharacters() -> Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
