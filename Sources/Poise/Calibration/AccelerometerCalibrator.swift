/// Accelerometer calibration from a multi-position recording: the device held still in several
/// orientations (each face up and down at least). At rest the calibrated specific force has
/// length 1 g, so the still segments' mean readings lie on an ellipsoid whose centre is the
/// offset and whose matrix gives scale and cross-axis coupling (`EllipsoidFit` on the segment
/// means; the matrix is E^½, so |matrix · (mean − offset)| = 1 g).
///
/// Only the symmetric part of the cross-axis coupling is observable from |a|: a rotation of the
/// sensor frame leaves every length unchanged, so the matrix is the symmetric one that explains
/// the data. With six to eight distinct orientations only offset and per-axis scale are solved
/// (`.diagonal`); from nine on also the cross-axis terms (`.full`), unless a model is given.
public enum AccelerometerCalibrator {
    /// Angle between two still segments' mean directions above which they count as distinct
    /// orientations, degrees (30).
    public static let distinctAngle = 30.0

    /// Calibrates from `samples` (time s, acceleration g, rotation rate rad/s; the gyroscope test
    /// of the rest detector is switched off by `detector` when the recording has none).
    ///
    /// - Parameters:
    ///   - samples: the recording, in time order.
    ///   - model: `.full` or `.diagonal`, or `nil` to choose from the number of orientations.
    ///   - detector: finds the still segments (default: ``GyroscopeBiasEstimator/calibrationDetector``).
    /// - Throws: ``CalibrationError`` naming how many distinct orientations were found when fewer
    ///   than six (or nine for `.full`), or when the orientations do not determine the fit.
    public static func calibrate(_ samples: [MotionSample], model: EllipsoidModel? = nil,
                                 detector: RestDetector = GyroscopeBiasEstimator.calibrationDetector) throws(CalibrationError) -> AccelerometerCalibration {
        var still = AccelerometerStillMeans(detector: detector)
        still.add(contentsOf: samples)
        return try calibrate(still, model: model)
    }

    /// Calibrates from the still segments' means of a recording (``AccelerometerStillMeans``, its
    /// `finish()` called here when it was not).
    ///
    /// - Throws: ``CalibrationError`` as the form that takes the samples.
    public static func calibrate(_ still: AccelerometerStillMeans, model: EllipsoidModel? = nil) throws(CalibrationError) -> AccelerometerCalibration {
        var still = still
        still.finish()
        let means = still.means, nonFinite = still.nonFiniteSegments, detector = still.detector
        // Distinct orientations: greedy clustering of the mean directions.
        var representatives: [SIMD3<Double>] = []
        let cosine = cos(distinctAngle * .pi / 180)
        for m in means {
            let u = m / (m * m).sum().squareRoot()
            if !representatives.contains(where: { ($0 * u).sum() > cosine }) { representatives.append(u) }
        }
        let found = representatives.count
        let chosen = model ?? (found >= 9 ? .full : .diagonal)
        if chosen == .offset { throw CalibrationError("the accelerometer is calibrated with the full or diagonal model") }
        let needed = chosen == .full ? 9 : 6
        guard found >= needed else {
            throw CalibrationError("found \(found) distinct still orientation\(found == 1 ? "" : "s") (\(means.count) still segment\(means.count == 1 ? "" : "s") of at least \(detector.minimumDuration) s\(nonFinite > 0 ? ", and \(nonFinite) left out for readings that are not finite" : "")); the \(chosen.rawValue) accelerometer calibration needs at least \(needed): hold the device still for a few seconds with each face up and each face down\(chosen == .full ? ", and in three tilted positions" : "")")
        }
        var fit: EllipsoidFit
        var used = chosen
        do throws(CalibrationError) {
            fit = try EllipsoidFit(means, model: chosen)
        } catch {
            guard model == nil, chosen == .full, let diagonal = try? EllipsoidFit(means, model: .diagonal) else {
                throw CalibrationError("the \(found) still orientations do not determine the \(chosen.rawValue) calibration (\(error.message)); hold the device still with each face up and each face down")
            }
            fit = diagonal
            used = .diagonal
        }
        let matrix = SymmetricEigen(fit.shape).map3 { $0.squareRoot() }
        let correction = SensorCorrection(offset: fit.center, matrix: matrix)
        var before = 0.0, after = 0.0
        for m in means {
            let raw = (m * m).sum().squareRoot() - 1
            let c = correction.apply(m)
            let calibrated = (c * c).sum().squareRoot() - 1
            before += raw * raw; after += calibrated * calibrated
        }
        return AccelerometerCalibration(correction: correction, model: used, orientations: found, segments: means.count,
                                        nonFiniteSegments: nonFinite,
                                        residualBefore: (before / Double(means.count)).squareRoot(),
                                        residual: (after / Double(means.count)).squareRoot())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
