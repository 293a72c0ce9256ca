// libFuzzer target: arbitrary text as a filter spec. A spec that parses must print a canonical
// form that parses back to an equal spec (documented on FilterSpec.description), and a filter
// built from it must turn finite sensor-range input (|x| ≤ 1e4) into finite output. (Inputs near
// Float's limit overflow a Butterworth whose cutoff is far below the rate, e.g. 5 Hz at 1 MHz:
// found by this target, see RELIABILITY.md; not checked here.)
import Poise

@_cdecl("LLVMFuzzerTestOneInput")
public func filterSpecFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let spec: FilterSpec
    do { spec = try FilterSpec(parsing: text) } catch { _ = error.description; return 0 }
    let canonical = spec.description
    guard let again = try? FilterSpec(parsing: canonical), again == spec else {
        fatalError("canonical form \(canonical) of \(text) does not parse back to \(spec)")
    }
    for rate in [100.0, 1.0, 1e6] {
        guard var filter = try? spec.makeFilter(SIMD4<Float>.self, sampleRate: rate) else { continue }
        for n in 0..<64 {
            let x = SIMD4<Float>(Float(n % 7) - 3, n < 32 ? 1 : -1, n % 2 == 0 ? 1e4 : -1e4, n % 13 == 0 ? .nan : 0)
            let y = filter.process(x, dt: n % 9 == 0 ? 0 : 1 / rate)
            if !y.isFinite { fatalError("\(canonical) at \(rate) Hz: non-finite output \(y) for \(x)") }
        }
    }
    return 0
}
