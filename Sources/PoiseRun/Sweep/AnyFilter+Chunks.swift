import Poise

extension AnyFilter {
    /// Filters `input[range]` into `output` (`output[0]` is the output of `range.lowerBound`) in
    /// one call to the wrapped filter, each sample with the real period before it, `dt[i]` in
    /// seconds; when `range` starts at the recording's first sample (`startsRecording`), that
    /// sample is filtered with the nominal period, as `filterAcceleration` does.
    ///
    /// - Precondition: `range` lies within `input` and `dt`; `output` holds `range.count` values.
    public mutating func process(_ input: [Value], dt: [Double], range: Range<Int>, into output: inout [Value], startsRecording: Bool) {
        precondition(range.upperBound <= input.count && range.upperBound <= dt.count && output.count >= range.count, "buffer shorter than range")
        guard !range.isEmpty else { return }
        let start = range.lowerBound, end = range.upperBound
        input.withUnsafeBufferPointer { input in
            dt.withUnsafeBufferPointer { dt in
                output.withUnsafeMutableBufferPointer { output in
                    var from = start
                    if startsRecording { output[0] = process(input[start]); from += 1 }
                    process(UnsafeBufferPointer(rebasing: input[from..<end]), dt: UnsafeBufferPointer(rebasing: dt[from..<end]),
                            into: UnsafeMutableBufferPointer(rebasing: output[(from - start)..<(end - start)]))
                }
            }
        }
    }
}
