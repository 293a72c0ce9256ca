// Long-run soak of DeviceMotionEstimator: N updates (default 10^8) of continuous random
// rotation with a gyroscope bias, noise, magnetometer, and a bad sample now and then.
// Checks after every update: |q| within 1e-6 of 1, gravity norm within 1e-6 of 1, bias bounded
// by biasClip, all outputs finite. Prints progress every 10^7 updates; exits 1 on a violation.
// Built and run by Benchmarks/soak/soak_fusion.sh.
import Poise

@main struct FusionSoak {
    static func main() {
        let arguments = CommandLine.arguments
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000_000 : 100_000_000
        let rate = 200.0
        var estimator = DeviceMotionEstimator(configuration: DeviceMotionConfiguration(sampleRate: rate))
        var state: UInt64 = 12345
        func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53) - 0.5
        }
        let bias = SIMD3<Double>(0.01, -0.02, 0.005)
        var truth = Quaternion<Double>.identity
        var worstNorm = 0.0, worstGravity = 0.0, worstBias = 0.0
        for n in 0..<count {
            let t = Double(n) / rate
            let omega = SIMD3(Double.sin(t / 3), Double.cos(t / 5), Double.sin(t / 7 + 1)) * 2
            truth = (truth * Quaternion(rotationVector: omega / rate)).normalized
            var acc = truth.conjugate.act(SIMD3(0, 0, 1)) + SIMD3(uniform(), uniform(), uniform()) * 0.02
            var gyr = omega + bias + SIMD3(uniform(), uniform(), uniform()) * 0.01
            let mag = truth.conjugate.act(SIMD3(0, 20, -40)) + SIMD3(uniform(), uniform(), uniform())
            if n % 100_003 == 0 { acc.x = .nan }
            if n % 100_019 == 0 { gyr.y = .infinity }
            let m = estimator.process(time: t, acceleration: acc, rotationRate: gyr, magneticField: mag)
            let normError = abs(m.attitude.length - 1)
            let gravityError = abs((m.gravity * m.gravity).sum().squareRoot() - 1)
            let b = m.bias.max() > -m.bias.min() ? m.bias.max() : -m.bias.min()
            worstNorm = max(worstNorm, normError); worstGravity = max(worstGravity, gravityError); worstBias = max(worstBias, b)
            if !(normError <= 1e-6 && gravityError <= 1e-6 && b <= estimator.configuration.biasClip
                 && m.userAcceleration.isFinite && m.rotationRate.isFinite) {
                print("FAIL at update \(n): attitude \(m.attitude) gravity \(m.gravity) bias \(m.bias)")
                exit(1)
            }
            if (n + 1) % 10_000_000 == 0 || n + 1 == count {
                print("\(n + 1) updates: max |q|−1 \(worstNorm), max |g|−1 \(worstGravity), max |bias| \(worstBias) rad/s, bias now \(m.bias)")
            }
        }
        print("PASS: \(count) updates")
    }
}

#if canImport(Glibc)
import Glibc
#endif
