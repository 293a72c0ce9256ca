import Poise

/// The linear map a pipeline's non-filtering stages (remapping) apply to the acceleration, found
/// by sending the three unit vectors through them, and its inverse. Step progress and lag compare
/// a stage's output with the raw input, so outputs in remapped axes are first mapped back.
struct AxisMap: Sendable {
    /// Rows of the inverse map; `nil` when the stages leave the axes alone (or the map is singular).
    let inverse: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)?

    init(_ pipeline: Pipeline) {
        let axisStages = Pipeline(pipeline.stages.filter { $0.measuredSignal == nil })
        let units = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        let columns = units.map { unit -> SIMD3<Double> in
            var stages = axisStages
            var record = ProcessedSample(MotionSample(time: 0, acceleration: unit))
            stages.process(&record)
            return record.acceleration
        }
        guard columns != units else { inverse = nil; return }
        // Inverse of the matrix with these columns: rows are cross products over the determinant.
        let (a, b, c) = (columns[0], columns[1], columns[2])
        let determinant = (a * cross(b, c)).sum()
        guard abs(determinant) > 1e-9 else { inverse = nil; return }
        inverse = (cross(b, c) / determinant, cross(c, a) / determinant, cross(a, b) / determinant)
    }

    /// `value` in the input's axes.
    func toInput(_ value: SIMD3<Double>) -> SIMD3<Double> {
        guard let (x, y, z) = inverse else { return value }
        return SIMD3((x * value).sum(), (y * value).sum(), (z * value).sum())
    }
}
