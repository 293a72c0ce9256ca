import CPoise
import Poise
import Testing

/// The C API refuses the rates the CLI refuses (`ParameterRange.sampleRate`, the one source of
/// both), and accepts the rates at the ends of the range; filter cutoffs are checked by the
/// filters themselves, the same code the CLI runs.
@Suite struct CParameterRangeTests {
    static let refused: [Double] = [1e12, 100_000.5, 0.999, 0, -100, .nan, .infinity, -.infinity]
    static let accepted: [Double] = [1, 100, 100_000]

    @Test(arguments: refused)
    func filterCreateRefusesARateOutsideTheRange(_ rate: Double) {
        var error = poise_error()
        #expect(poise_filter_create("butter:lowpass,order=4,cutoff=5", rate, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue))
        #expect(message(error).contains("sample_rate must be \(ParameterRange.sampleRate.text)"))
        #expect(poise_filter_create("lowpass:cutoff=5", rate, nil) == nil)
        #expect(poise_latency90("lowpass:cutoff=5", rate, 0, nil, nil, nil) == POISE_ERROR_INVALID_ARGUMENT)
    }

    @Test(arguments: accepted)
    func filterCreateAcceptsTheEndsOfTheRange(_ rate: Double) throws {
        var error = poise_error()
        let filter = try #require(poise_filter_create("lowpass:cutoff=0.4", rate, &error), "\(message(error))")
        poise_filter_destroy(filter, nil)
    }

    /// A Butterworth cutoff at or above Nyquist is refused (the CLI's rule, in the core's filter
    /// design), whatever the rate.
    @Test func butterworthCutoffAboveNyquistIsRefused() {
        var error = poise_error()
        #expect(poise_filter_create("butter:lowpass,order=4,cutoff=50", 100, &error) == nil)
        #expect(message(error).contains("Nyquist"))
        #expect(poise_filter_create("butter:lowpass,order=4,cutoff=5", 100_000, nil) != nil)
    }

    @Test(arguments: refused)
    func fusionRefusesARateOutsideTheRange(_ rate: Double) {
        var config = poise_fusion_config()
        var error = poise_error()
        #expect(poise_fusion_config_default(&config, rate, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(message(error).contains("sample_rate must be \(ParameterRange.sampleRate.text)"))
        #expect(poise_fusion_config_vqf(&config, rate, 2, nil) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_fusion_config_fast(&config, rate, 2, nil) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_fusion_config_offline(&config, rate, 2, nil) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_fusion_config_default(&config, 100, nil) == POISE_OK)
        config.sample_rate = rate
        #expect(poise_fusion_create(&config, &error) == nil)
        #expect(message(error).contains("sample_rate must be"))
    }

    @Test(arguments: refused)
    func gyroRefusesARateOutsideTheRange(_ rate: Double) {
        var settings = poise_gyro_settings()
        #expect(poise_gyro_settings_default(&settings, nil) == POISE_OK)
        settings.sample_rate = rate
        var error = poise_error()
        #expect(poise_gyro_create(&settings, &error) == nil)
        #expect(message(error).contains("sample_rate must be"))
    }
}
