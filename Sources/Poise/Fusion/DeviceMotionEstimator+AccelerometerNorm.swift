extension DeviceMotionEstimator {
    /// The specific-force norm test (`accelerometerNormThreshold`), at a correction step: the
    /// fraction (0…1) of the inclination correction to make, from the block mean `mean` of the
    /// accelerometer since the last step (g, any frame: only its norm is used). 1 when the norm
    /// is within the threshold of 1 g, `accelerometerNormGainFactor` otherwise.
    @inlinable @inline(__always)
    func accelerometerNormWeight(blockMean mean: SIMD4<Double>, lowPass lp: SIMD4<Double>) -> Double {
        let norm = (mean.x * mean.x + mean.y * mean.y + mean.z * mean.z).squareRoot()
        if (norm - 1).magnitude > coefficients.accelerometerNormThreshold { return coefficients.accelerometerNormGainFactor }
        let lpNorm = (lp.x * lp.x + lp.y * lp.y + lp.z * lp.z).squareRoot()
        let dot = mean.x * lp.x + mean.y * lp.y + mean.z * lp.z
        return dot >= coefficients.accelerometerDirectionCosine * norm * lpNorm ? 1 : coefficients.accelerometerNormGainFactor
    }
}
