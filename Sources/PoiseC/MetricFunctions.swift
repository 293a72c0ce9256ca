import CPoise
import Poise

@_cdecl("poise_nominal_rate")
public func cNominalRate(_ times: UnsafePointer<Double>?, _ count: Int, _ rate: UnsafeMutablePointer<Double>?,
                         _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let rate else { throw .null("rate") }
        _ = try elementCount(count, width: 1, "count")
        let rows = min(count, NominalRate.rowCount)
        guard rows > 0, let times else {
            if rows > 0 { throw .null("times") }
            throw .invalid("count is 0: a rate needs at least two increasing times")
        }
        guard let estimate = NominalRate.estimate(times: UnsafeBufferPointer(start: times, count: rows)) else {
            throw .invalid("no two consecutive finite times increase among the first \(rows) rows: no rate can be found")
        }
        rate.pointee = estimate
    }
}

@_cdecl("poise_latency90")
public func cLatency90(_ spec: UnsafePointer<CChar>?, _ sampleRate: Double, _ step: Int32, _ milliseconds: UnsafeMutablePointer<Double>?,
                       _ samples: UnsafeMutablePointer<Int64>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        var (filter, _) = try FilterHandle.filter(SIMD3<Double>.self, spec: try string(spec, "spec"), sampleRate: sampleRate)
        let standard: StandardStep
        switch step {
        case Int32(POISE_STEP_TILT.rawValue): standard = .tilt
        case Int32(POISE_STEP_SHAKE.rawValue): standard = .shake
        default: throw .invalid("step must be POISE_STEP_TILT (0) or POISE_STEP_SHAKE (1), got \(step)")
        }
        let result = latency90(&filter, step: standard, sampleRate: sampleRate)
        milliseconds?.pointee = result.milliseconds ?? .nan
        samples?.pointee = result.samples.map(Int64.init) ?? -1
    }
}

@_cdecl("poise_jitter")
public func cJitter(_ output: UnsafePointer<Double>?, _ input: UnsafePointer<Double>?, _ times: UnsafePointer<Double>?, _ count: Int,
                    _ segments: UnsafePointer<Int64>?, _ segmentCount: Int, _ window: Double,
                    _ result: UnsafeMutablePointer<poise_jitter_result>?, _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        guard let result else { throw .null("result") }
        _ = try elementCount(count, width: 3, "count")
        _ = try elementCount(segmentCount, width: 2, "segment_count")
        guard window.isFinite, window > 0 else { throw .invalid("window must be a finite number > 0 s, got \(window)") }
        var ranges: [Range<Int>] = []
        if segmentCount == 0 {
            guard segments == nil else { throw .invalid("segment_count is 0 but segments is not NULL (pass NULL for the whole buffer)") }
            ranges = [0..<count]
        } else {
            guard let segments else { throw .null("segments") }
            for k in 0..<segmentCount {
                let start = segments[2 * k], end = segments[2 * k + 1]
                guard start >= 0, start <= end, end <= Int64(count) else {
                    throw .invalid("segment \(k) [\(start), \(end)) is not within [0, \(count)]")
                }
                ranges.append(Int(start)..<Int(end))
            }
        }
        var accumulator = JitterAccumulator<SIMD3<Double>>(window: window)
        if count > 0 {
            guard let output else { throw .null("output") }
            guard let input else { throw .null("input") }
            guard let times else { throw .null("times") }
            try requireFinite(times, rows: count, width: 1, "times")
            try requireFinite(output, rows: count, "output")
            try requireFinite(input, rows: count, "input")
            for (k, range) in ranges.enumerated() where range.count > 1 {
                for i in (range.lowerBound + 1)..<range.upperBound where times[i] < times[i - 1] {
                    throw .invalid("times decrease inside segment \(k) at row \(i) (\(times[i - 1]) then \(times[i]))")
                }
            }
            for range in ranges where !range.isEmpty {
                for i in range { accumulator.add(time: times[i], output: vector(output + 3 * i), input: vector(input + 3 * i)) }
                accumulator.endSegment(keep: true)
            }
        }
        let r = accumulator.result
        var c = poise_jitter_result()
        c.jitter = r.jitter
        c.raw_jitter = r.rawJitter
        c.attenuation = r.attenuation ?? .nan
        c.still_seconds = r.stillSeconds
        c.evaluated_samples = Int64(r.evaluatedSamples)
        c.segment_count = Int64(r.segmentCount)
        result.pointee = c
    }
}
