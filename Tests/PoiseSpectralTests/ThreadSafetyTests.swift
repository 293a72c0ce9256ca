import Foundation
import Testing
@testable import PoiseSpectral

/// FFTW's planner is not thread-safe. These tests plan and execute from many threads at once
/// (new sizes force plan creation inside the concurrent region) and require results identical to
/// the serial ones.
@Suite struct ThreadSafetyTests {
    @Test func concurrentTransformsWithPlanning() throws {
        // Sizes no other test uses, so the plans are created concurrently here.
        let sizes = [123, 250, 333, 510, 777, 1001, 1234, 2047]
        let jobs = 64
        var random = SplitMix(state: 99)
        let signals = (0..<jobs).map { j in (0..<sizes[j % sizes.count]).map { _ in random.normal() } }
        let results = ResultBox(count: jobs)
        DispatchQueue.concurrentPerform(iterations: jobs) { j in
            do {
                let fft = try RealFFT(count: signals[j].count)
                let spectrum = try fft.forward(signals[j])
                let psd = try WelchEstimator(configuration: SpectralConfiguration(
                    sampleRate: 100, segmentLength: signals[j].count / 3 + 1, window: .blackman)).estimate(signals[j])
                results.set(j, (spectrum, psd.values))
            } catch {
                results.set(j, nil)
            }
        }
        for j in 0..<jobs {
            let concurrent = try #require(results.get(j), "job \(j) failed")
            let serialSpectrum = try RealFFT(count: signals[j].count).forward(signals[j])
            let serialPSD = try WelchEstimator(configuration: SpectralConfiguration(
                sampleRate: 100, segmentLength: signals[j].count / 3 + 1, window: .blackman)).estimate(signals[j])
            #expect(concurrent.0 == serialSpectrum)
            #expect(concurrent.1 == serialPSD.values)
        }
    }

    /// One estimator shared by many tasks gives every task the serial answer.
    @Test func sharedEstimatorInTaskGroup() async throws {
        let estimator = try WelchEstimator(configuration: SpectralConfiguration(sampleRate: 100, segmentLength: 96, window: .hamming))
        let signal = Golden.shared.signal
        let serial = try estimator.estimate(signal)
        let all = try await withThrowingTaskGroup(of: PowerSpectrum.self) { group in
            for _ in 0..<32 { group.addTask { try estimator.estimate(signal) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(all.count == 32)
        #expect(all.allSatisfy { $0 == serial })
    }
}

/// Lock-protected slots for results written from concurrent iterations.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [([Complex], [Double])?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: ([Complex], [Double])?) { lock.lock(); slots[i] = value; lock.unlock() }
    func get(_ i: Int) -> ([Complex], [Double])? { lock.lock(); defer { lock.unlock() }; return slots[i] }
}

/// The plan cache: one plan per shape, and plans stay valid while in use even after eviction.
@Suite struct PlanCacheTests {
    @Test func samePlanForSameShape() {
        let key = FFTWPlanKey(kind: .realForward, count: 4321, planning: .estimate)
        #expect(FFTWPlanner.plan(key) === FFTWPlanner.plan(key))
        let other = FFTWPlanKey(kind: .realInverse, count: 4321, planning: .estimate)
        #expect(FFTWPlanner.plan(key) !== FFTWPlanner.plan(other))
    }

    /// Filling the cache past its capacity evicts old plans; a transform made before still
    /// holds its plan and computes the same spectrum.
    @Test func evictedPlansStayAliveWhileUsed() throws {
        let signal = (0..<517).map { sin(Double($0) * 0.3) + 0.1 * Double($0 % 7) }
        let early = try RealFFT(count: 517)
        let before = try early.forward(signal)
        for multiple in 1...(FFTWPlanner.cacheCapacity + 8) {
            _ = try RealFFT(count: 60 * multiple)   // composite lengths plan quickly
        }
        #expect(FFTWPlanner.cachedPlanCount <= FFTWPlanner.cacheCapacity)
        #expect(try early.forward(signal) == before)
        #expect(try RealFFT(count: 517).forward(signal) == before)   // re-planned: same algorithm, same bits
    }
}
