/// Eigenvalues and eigenvectors of a small real symmetric matrix, by the cyclic Jacobi method
/// (Golub & Van Loan, *Matrix Computations*, §8.5): rotations zero the off-diagonal entries one
/// pair at a time until they are negligible. Accurate to a few ulps of the largest eigenvalue and
/// robust for the 3×3 and up to 10×10 matrices of the calibration fits; O(n³) per sweep, a few
/// sweeps.
struct SymmetricEigen {
    /// Eigenvalues, ascending.
    var values: [Double]
    /// Eigenvectors as columns of an n×n row-major matrix: `vectors[i * n + k]` is component i of
    /// the eigenvector of `values[k]`.
    var vectors: [Double]
    var n: Int

    /// Decomposes the symmetric n×n row-major `matrix` (only its upper triangle is read).
    init(_ matrix: [Double], n: Int) {
        var a = matrix
        for i in 0..<n { for j in 0..<i { a[i * n + j] = a[j * n + i] } }
        var v = [Double](repeating: 0, count: n * n)
        for i in 0..<n { v[i * n + i] = 1 }
        var scale = 0.0
        for x in a { scale = max(scale, x.magnitude) }
        for _ in 0..<60 {
            var off = 0.0
            for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { off = max(off, a[i * n + j].magnitude) } }
            if off <= 1e-17 * scale || off == 0 { break }
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) {
                    let apq = a[p * n + q]
                    if apq == 0 { continue }
                    let theta = (a[q * n + q] - a[p * n + p]) / (2 * apq)
                    let t = (theta >= 0 ? 1.0 : -1.0) / (theta.magnitude + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot()
                    let s = t * c
                    for k in 0..<n {
                        let akp = a[k * n + p], akq = a[k * n + q]
                        a[k * n + p] = c * akp - s * akq
                        a[k * n + q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let apk = a[p * n + k], aqk = a[q * n + k]
                        a[p * n + k] = c * apk - s * aqk
                        a[q * n + k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let vkp = v[k * n + p], vkq = v[k * n + q]
                        v[k * n + p] = c * vkp - s * vkq
                        v[k * n + q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0 * n + $0] < a[$1 * n + $1] }
        values = order.map { a[$0 * n + $0] }
        vectors = [Double](repeating: 0, count: n * n)
        for (k, column) in order.enumerated() { for i in 0..<n { vectors[i * n + k] = v[i * n + column] } }
        self.n = n
    }

    /// Decomposes a symmetric 3×3 matrix.
    init(_ m: Matrix3) {
        self.init([m.r0.x, m.r0.y, m.r0.z, m.r1.x, m.r1.y, m.r1.z, m.r2.x, m.r2.y, m.r2.z], n: 3)
    }

    /// Eigenvector `k` of a 3×3 decomposition.
    func vector3(_ k: Int) -> SIMD3<Double> { SIMD3(vectors[k], vectors[3 + k], vectors[6 + k]) }

    /// V · f(Λ) · Vᵀ of a 3×3 decomposition: the symmetric matrix with the same eigenvectors and
    /// eigenvalues f(λ) (the square root for `squareRoot`).
    func map3(_ f: (Double) -> Double) -> Matrix3 {
        var rows = [SIMD3<Double>](repeating: .zero, count: 3)
        for k in 0..<3 {
            let u = vector3(k), w = f(values[k])
            rows[0] += w * u.x * u; rows[1] += w * u.y * u; rows[2] += w * u.z * u
        }
        return Matrix3(rows[0], rows[1], rows[2])
    }
}
