import CPoise
import Poise
import PoiseC
import Testing

/// A deterministic pseudo-random sequence (SplitMix64) for test signals.
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}

/// The message of a `poise_error` as a Swift string.
func message(_ error: poise_error) -> String {
    var copy = error
    return withUnsafeBytes(of: &copy.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

@Suite struct CFilterTests {
    func signal(_ count: Int) -> [Double] {
        var random = TestRandom(state: 7)
        return (0..<count * 3).map { i in (i % 3 == 2 ? 1 : 0) + 0.05 * random.unit() + (i / 300 % 2 == 0 ? 0 : 0.5) }
    }

    @Test(arguments: ["adaptive", "lowpass:cutoff=5", "butter:bandpass,order=2,low=0.5,high=10", "oneeuro:mincutoff=1,beta=0.5", "accelgraph:cutoff=5,adaptive"])
    func bufferEqualsTheSwiftFilterBitForBit(spec: String) throws {
        var error = poise_error()
        let handle = try #require(poise_filter_create(spec, 100, &error), "\(message(error))")
        defer { poise_filter_destroy(handle, nil) }
        var swiftFilter = try FilterSpec(parsing: spec).makeFilter(SIMD3<Double>.self, sampleRate: 100)
        var buffer = signal(1000)
        let input = buffer
        #expect(poise_filter_process_buffer(handle, &buffer, 1000, &error) == POISE_OK)
        #expect(error.code == 0 && message(error).isEmpty)
        var differing = 0
        for i in 0..<1000 {
            let y = swiftFilter.process(SIMD3(input[3 * i], input[3 * i + 1], input[3 * i + 2]))
            if y != SIMD3(buffer[3 * i], buffer[3 * i + 1], buffer[3 * i + 2]) { differing += 1 }
        }
        #expect(differing == 0)
        // The per-sample call continues the same state.
        var sample = [0.1, 0.2, 0.9]
        #expect(poise_filter_process(handle, &sample, &error) == POISE_OK)
        let y = swiftFilter.process(SIMD3(0.1, 0.2, 0.9))
        #expect(sample == [y.x, y.y, y.z])
    }

    @Test func floatBufferFollowsTheDoubleOneToFloatRounding() throws {
        let a = try #require(poise_filter_create("lowpass:cutoff=2", 100, nil))
        let b = try #require(poise_filter_create("lowpass:cutoff=2", 100, nil))
        defer { poise_filter_destroy(a, nil); poise_filter_destroy(b, nil) }
        var doubles = signal(500).map { Double(Float($0)) }
        var floats = doubles.map { Float($0) }
        #expect(poise_filter_process_buffer(a, &doubles, 500, nil) == POISE_OK)
        #expect(poise_filter_process_buffer_f(b, &floats, 500, nil) == POISE_OK)
        #expect(zip(doubles, floats).allSatisfy { Float($0) == $1 })
    }

    @Test func specErrorsAreParseErrorsWithTheirColumn() {
        var error = poise_error()
        #expect(poise_filter_create("lowpass:cutof=5", 100, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_PARSE.rawValue))
        #expect(message(error).contains("column 9"), "\(message(error))")
        #expect(poise_filter_create("butter:lowpass,order=2,cutoff=60", 100, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue), "\(message(error))")
        for rate in [0, -1, Double.nan, .infinity] {
            #expect(poise_filter_create("adaptive", rate, &error) == nil)
            #expect(error.code == Int32(POISE_ERROR_INVALID_ARGUMENT.rawValue))
        }
        #expect(poise_filter_create(nil, 100, &error) == nil)
        #expect(error.code == Int32(POISE_ERROR_NULL_ARGUMENT.rawValue))
        #expect(String(cString: poise_status_name(Int32(POISE_ERROR_PARSE.rawValue))) == "POISE_ERROR_PARSE")
        #expect(String(cString: poise_status_name(99)) == "POISE_ERROR_UNKNOWN")
    }

    @Test func nonFiniteInputIsRejectedAndLeavesTheStateUnchanged() throws {
        let a = try #require(poise_filter_create("adaptive", 100, nil))
        let b = try #require(poise_filter_create("adaptive", 100, nil))
        defer { poise_filter_destroy(a, nil); poise_filter_destroy(b, nil) }
        var first = signal(100), second = first
        _ = poise_filter_process_buffer(a, &first, 100, nil)
        _ = poise_filter_process_buffer(b, &second, 100, nil)
        var bad = signal(10)
        bad[17] = .nan
        let before = bad
        var error = poise_error()
        #expect(poise_filter_process_buffer(a, &bad, 10, &error) == POISE_ERROR_NON_FINITE)
        #expect(message(error).contains("row 5"), "\(message(error))")
        #expect(bad.elementsEqual(before) { $0 == $1 || ($0.isNaN && $1.isNaN) })
        var one = [0.0, Double.infinity, 1]
        #expect(poise_filter_process(a, &one, &error) == POISE_ERROR_NON_FINITE)
        var x = [0.3, 0.1, 0.8], y = x
        _ = poise_filter_process(a, &x, nil)
        _ = poise_filter_process(b, &y, nil)
        #expect(x == y)
    }

    /// Lengths around the low-pass's blocks of 256 rows and its one-row tail.
    static let intoLengths = [1, 2, 3, 255, 256, 257, 1000]

    @Test(arguments: ["lowpass:cutoff=5", "factor:k=0.1", "lowpass:cutoff=5,start=zero", "highpass:cutoff=1", "adaptive",
                      "butter:lowpass,order=2,cutoff=5"])
    func processIntoEqualsThePerSampleCallsBitForBit(spec: String) throws {
        for count in Self.intoLengths {
            let a = try #require(poise_filter_create(spec, 100, nil))
            let b = try #require(poise_filter_create(spec, 100, nil))
            defer { poise_filter_destroy(a, nil); poise_filter_destroy(b, nil) }
            let input = signal(count).map { 40 * $0 }
            var output = [Double](repeating: .nan, count: 3 * count)
            var error = poise_error()
            // In two calls, so the state carries over from one to the next.
            let half = count / 2
            #expect(poise_filter_process_into(a, input, &output, half, &error) == POISE_OK, "\(message(error))")
            input.withUnsafeBufferPointer { from in
                output.withUnsafeMutableBufferPointer { to in
                    #expect(poise_filter_process_into(a, from.baseAddress! + 3 * half, to.baseAddress! + 3 * half, count - half, &error) == POISE_OK)
                }
            }
            var expected = [Double]()
            for i in 0..<count {
                var row = Array(input[3 * i..<3 * i + 3])
                #expect(poise_filter_process(b, &row, nil) == POISE_OK)
                expected += row
            }
            #expect(output == expected, "\(spec), \(count) rows")
            // The input itself as the output: the in-place result.
            var inPlace = input
            let c = try #require(poise_filter_create(spec, 100, nil))
            defer { poise_filter_destroy(c, nil) }
            inPlace.withUnsafeMutableBufferPointer { buffer in
                #expect(poise_filter_process_into(c, buffer.baseAddress, buffer.baseAddress, count, nil) == POISE_OK)
            }
            #expect(inPlace == expected)
        }
    }

    @Test(arguments: ["lowpass:cutoff=2", "adaptive"])
    func processIntoFloatFollowsTheDoubleOneToFloatRounding(spec: String) throws {
        for count in Self.intoLengths {
            let a = try #require(poise_filter_create(spec, 100, nil))
            let b = try #require(poise_filter_create(spec, 100, nil))
            defer { poise_filter_destroy(a, nil); poise_filter_destroy(b, nil) }
            let floats = signal(count).map { Float($0) }
            var output = [Float](repeating: .nan, count: 3 * count)
            #expect(poise_filter_process_into_f(a, floats, &output, count, nil) == POISE_OK)
            var doubles = floats.map { Double($0) }
            #expect(poise_filter_process_buffer(b, &doubles, count, nil) == POISE_OK)
            #expect(output == doubles.map { Float($0) }, "\(spec), \(count) rows")
        }
    }

    @Test(arguments: ["lowpass:cutoff=5", "adaptive"])
    func processIntoRejectsANonFiniteValueAndKeepsTheState(spec: String) throws {
        // A bad value in each place the low-pass reads it: a block, a block's last row, the
        // row after a block, the last row.
        for (count, badIndex) in [(600, 17), (600, 3 * 255 + 2), (600, 3 * 256), (600, 3 * 599 + 1), (1, 2)] {
            let a = try #require(poise_filter_create(spec, 100, nil))
            let b = try #require(poise_filter_create(spec, 100, nil))
            defer { poise_filter_destroy(a, nil); poise_filter_destroy(b, nil) }
            var warm = signal(50), warmCopy = warm
            _ = poise_filter_process_buffer(a, &warm, 50, nil)
            _ = poise_filter_process_buffer(b, &warmCopy, 50, nil)
            for bad in [Double.nan, .infinity, -.infinity] {
                var input = signal(count)
                input[badIndex] = bad
                let before = input
                var output = [Double](repeating: 0, count: 3 * count)
                var error = poise_error()
                #expect(poise_filter_process_into(a, input, &output, count, &error) == POISE_ERROR_NON_FINITE)
                #expect(message(error).contains("row \(badIndex / 3), column \(badIndex % 3)"), "\(message(error))")
                #expect(input.elementsEqual(before) { $0 == $1 || ($0.isNaN && $1.isNaN) })
            }
            var x = [0.3, 0.1, 0.8], y = x
            _ = poise_filter_process(a, &x, nil)
            _ = poise_filter_process(b, &y, nil)
            #expect(x == y, "\(spec): state changed by a rejected buffer")
        }
    }

    @Test func processIntoRefusesNullsAndOverlappingBuffers() throws {
        let filter = try #require(poise_filter_create("lowpass:cutoff=5", 100, nil))
        defer { poise_filter_destroy(filter, nil) }
        var error = poise_error()
        var buffer = signal(10)
        #expect(poise_filter_process_into(filter, nil, nil, 0, &error) == POISE_OK)
        #expect(poise_filter_process_into(filter, nil, &buffer, 3, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_filter_process_into(filter, buffer, nil, 3, &error) == POISE_ERROR_NULL_ARGUMENT)
        #expect(poise_filter_process_into(filter, buffer, &buffer, -1, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_filter_process_into(nil, buffer, &buffer, 3, &error) == POISE_ERROR_INVALID_HANDLE)
        let before = buffer
        buffer.withUnsafeMutableBufferPointer { b in
            let base = b.baseAddress!
            for shift in [1, 3, -1] where shift > 0 {
                #expect(poise_filter_process_into(filter, base, base + shift, 9, &error) == POISE_ERROR_INVALID_ARGUMENT)
                #expect(message(error).contains("overlap"))
            }
            #expect(poise_filter_process_into(filter, base + 3, base, 9, &error) == POISE_ERROR_INVALID_ARGUMENT)
            // Adjacent is not overlapping.
            #expect(poise_filter_process_into(filter, base, base + 15, 5, &error) == POISE_OK)
        }
        #expect(Array(buffer[0..<15]) == Array(before[0..<15]))
    }

    @Test func wrongAndDestroyedHandlesAreErrorsNotCrashes() throws {
        var error = poise_error()
        var config = poise_fusion_config()
        _ = poise_fusion_config_default(&config, 100, nil)
        let fusion = try #require(poise_fusion_create(&config, nil))
        // A fusion handle passed as a filter.
        #expect(poise_filter_reset(fusion, &error) == POISE_ERROR_INVALID_HANDLE)
        #expect(poise_fusion_destroy(fusion, nil) == POISE_OK)
        #expect(poise_filter_reset(nil, &error) == POISE_ERROR_INVALID_HANDLE)
        #expect(poise_filter_destroy(nil, &error) == POISE_OK)
        let filter = try #require(poise_filter_create("adaptive", 100, nil))
        #expect(poise_filter_destroy(filter, nil) == POISE_OK)
        var sample = [0.0, 0, 1]
        #expect(poise_filter_process(filter, &sample, &error) == POISE_ERROR_INVALID_HANDLE)
        #expect(poise_filter_destroy(filter, &error) == POISE_ERROR_INVALID_HANDLE)
        #expect(message(error).contains("poise_filter"))
    }

    @Test func nullBuffersAndImpossibleCountsAreRejected() throws {
        let filter = try #require(poise_filter_create("adaptive", 100, nil))
        defer { poise_filter_destroy(filter, nil) }
        var error = poise_error()
        #expect(poise_filter_process_buffer(filter, nil, 0, &error) == POISE_OK)
        #expect(poise_filter_process_buffer(filter, nil, 3, &error) == POISE_ERROR_NULL_ARGUMENT)
        var buffer = [0.0, 0, 1]
        #expect(poise_filter_process_buffer(filter, &buffer, Int.max, &error) == POISE_ERROR_INVALID_ARGUMENT)
        #expect(poise_filter_process_buffer(filter, &buffer, -1, &error) == POISE_ERROR_INVALID_ARGUMENT)  // a huge size_t
        #expect(poise_filter_process(filter, nil, &error) == POISE_ERROR_NULL_ARGUMENT)
        var text = [CChar](repeating: 0, count: 8)
        #expect(poise_filter_spec(filter, &text, 8, &error) == POISE_ERROR_BUFFER_TOO_SMALL)
        text = [CChar](repeating: 0, count: 64)
        #expect(poise_filter_spec(filter, &text, 64, &error) == POISE_OK)
        let spec = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #expect(spec.hasPrefix("adaptive:cutoff="))
    }

    @Test func longMessagesAreCutAtACharacterBoundary() {
        var error = poise_error()
        let spec = String(repeating: "é", count: 400)   // 2 bytes each
        #expect(poise_filter_create(spec, 100, &error) == nil)
        let text = message(error)
        #expect(text.utf8.count <= 255 && text.utf8.count > 200)
        #expect(!text.unicodeScalars.contains("\u{FFFD}"))
    }
}
