import Testing
import CFFTW

@Suite struct FFTWLinkTests {
    /// The DFT of a unit impulse is all ones: proves FFTW is found, linked and callable.
    @Test func impulseTransformsToOnes() {
        let n: Int32 = 8
        let input = fftw_alloc_real(Int(n))!
        let output = fftw_alloc_complex(Int(n / 2 + 1))!
        defer { fftw_free(input); fftw_free(output) }
        let plan = fftw_plan_dft_r2c_1d(n, input, output, UInt32(FFTW_ESTIMATE))
        defer { fftw_destroy_plan(plan) }
        for i in 0..<Int(n) { input[i] = i == 0 ? 1 : 0 }
        fftw_execute(plan)
        for k in 0...Int(n / 2) {
            #expect(output[k].0 == 1 && output[k].1 == 0)
        }
    }
}
