import Poise

/// A source whose samples are turned from the file's sensor axes into the device axes by a
/// `SensorMount` (`ReadOptions.mount`), as they are read: acceleration, rotation rate and
/// magnetic field by `R`, a ground-truth attitude as `q ⊗ r*` (`FrameRemap.sample`). Times, the
/// movement mask, issues and the schema (with `mount` set) are the wrapped source's.
public final class MountedSource: SampleSource {
    /// The source as read, before the mount is applied.
    public let base: any SampleSource
    /// The mount applied.
    public let mount: SensorMount
    public let schema: RecordingSchema

    public init(_ base: any SampleSource, mount: SensorMount) {
        self.base = base
        self.mount = mount
        var schema = base.schema
        schema.mount = mount
        self.schema = schema
    }

    public var path: String { base.path }
    public var issues: [RecordingIssue] { base.issues }
    public var summary: ReadSummary { base.summary }

    public func next() throws -> MotionSample? {
        try base.next().map { mount.remap.sample($0) }
    }

    @discardableResult
    public func read(into samples: inout [MotionSample], maximumCount: Int) throws -> Int {
        let start = samples.count
        let count = try base.read(into: &samples, maximumCount: maximumCount)
        let remap = mount.remap
        samples.withUnsafeMutableBufferPointer { buffer in
            for i in start..<(start + count) { buffer[i] = remap.sample(buffer[i]) }
        }
        return count
    }
}

extension SampleSource {
    /// The source under any `MountedSource` wrapper (the reader of the file's format).
    public var unmounted: any SampleSource { (self as? MountedSource)?.base ?? self }
}
