// libFuzzer target: arbitrary text as a pipeline spec (`stage:args|stage…`), parsed and built
// through the standard stage catalog; a pipeline that builds must keep finite samples finite.
import Poise

@_cdecl("LLVMFuzzerTestOneInput")
public func pipelineSpecFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do { _ = try StageSpec.parse(text) } catch { _ = "\(error)" }
    for context in [StageContext(sampleRate: 100), StageContext(sampleRate: 285.7, hasMagnetometer: true)] {
        var pipeline: Pipeline
        do { pipeline = try StageCatalog.standard.pipeline(text, context: context) } catch { _ = "\(error)"; continue }
        for n in 0..<40 {
            let t = Double(n) / context.sampleRate
            let sample = MotionSample(time: t, acceleration: SIMD3(0.1 * Double(n % 5), n < 20 ? 0 : 0.7, 1),
                                      rotationRate: SIMD3(0, 0.2, n % 11 == 0 ? 40 : 0),
                                      magneticField: context.hasMagnetometer ? SIMD3(20, 0, -40) : nil)
            let out = pipeline.process(sample)
            guard out.acceleration.isFinite, out.rotationRate.isFinite,
                  out.gravity.map({ $0.isFinite }) ?? true, out.attitude.map({ $0.isFinite }) ?? true,
                  out.axes.map({ $0.x.isFinite && $0.y.isFinite }) ?? true else {
                fatalError("\(text): non-finite output \(out)")
            }
        }
    }
    return 0
}
