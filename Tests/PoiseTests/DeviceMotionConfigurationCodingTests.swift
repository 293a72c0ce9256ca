import Foundation
import Poise
import Testing

/// `DeviceMotionConfiguration` decoding: keys are optional (older saved configurations, e.g.
/// from before `correctionRate` existed, still decode, with the defaults for what is missing),
/// while a present key of the wrong type is still rejected.
@Suite struct DeviceMotionConfigurationCodingTests {
    private func object(_ configuration: DeviceMotionConfiguration) throws -> [String: Any] {
        let data = try JSONEncoder().encode(configuration)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func decode(_ object: [String: Any]) throws -> DeviceMotionConfiguration {
        try JSONDecoder().decode(DeviceMotionConfiguration.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test func aConfigurationSavedWithoutCorrectionRateDecodesWithTheDefault() throws {
        var saved = DeviceMotionConfiguration.vqfDefaults(sampleRate: 285.714, reference: .trueNorthZVertical)
        saved.declination = 2.5
        saved.earthFrame = .northEastDown
        var json = try object(saved)
        #expect(json.removeValue(forKey: "correctionRate") != nil)
        let decoded = try decode(json)
        var expected = saved
        expected.correctionRate = DeviceMotionConfiguration().correctionRate
        #expect(decoded == expected)
        #expect(decoded != saved)  // vqfDefaults corrects on every sample; the default does not
    }

    @Test func everyMissingKeyTakesItsDefaultAndPresentOnesAreKept() throws {
        var custom = DeviceMotionConfiguration(sampleRate: 50, reference: .arbitraryZVertical)
        custom.biasSigmaRest = 0.2
        custom.magneticDipThreshold = 7
        let full = try object(custom)
        #expect(try decode(full) == custom)  // round trip
        #expect(try decode([:]) == DeviceMotionConfiguration())
        for key in full.keys {
            var json = full
            json.removeValue(forKey: key)
            let decoded = try decode(json)
            // Equal to the custom configuration with that one setting reset to its default.
            let defaults = try object(DeviceMotionConfiguration())
            var expectedJSON = full
            expectedJSON[key] = defaults[key]
            #expect(decoded == (try decode(expectedJSON)), "key \(key)")
        }
    }

    @Test func aPresentKeyOfTheWrongTypeIsAnError() throws {
        var json = try object(DeviceMotionConfiguration())
        json["correctionRate"] = "ten"
        #expect(throws: DecodingError.self) { try decode(json) }
        json = try object(DeviceMotionConfiguration())
        json["reference"] = "south-pole"
        #expect(throws: DecodingError.self) { try decode(json) }
    }
}
