import Poise
import PoiseRecording

/// A minimal, exact CSV writer for recordings with Poise column names. Numbers use Swift's
/// shortest round-trip representation, so reading the file back gives the same Doubles.
/// (Kept small on purpose: PoiseRecording may grow a full writer.)
enum RecordingCSV {
    /// The header and rows for `samples`, with the columns `schema` has: `t_s`, `acc_*_g`,
    /// `gyr_*_radps`, `mag_*_uT`, `gt_q*` (`nan` where the truth is unknown), `movement`.
    static func text(samples: [MotionSample], schema: RecordingSchema) -> String {
        var header = ["t_s"]
        if schema.hasAccelerometer { header += ["acc_x_g", "acc_y_g", "acc_z_g"] }
        if schema.hasGyroscope { header += ["gyr_x_radps", "gyr_y_radps", "gyr_z_radps"] }
        if schema.hasMagnetometer { header += ["mag_x_uT", "mag_y_uT", "mag_z_uT"] }
        if schema.hasTruth { header += ["gt_qw", "gt_qx", "gt_qy", "gt_qz"] }
        if schema.hasMovement { header.append("movement") }
        var out = header.joined(separator: ",") + "\n"
        out.reserveCapacity(samples.count * 16 * header.count)
        for s in samples {
            out += number(s.time)
            if schema.hasAccelerometer { append(s.acceleration, to: &out) }
            if schema.hasGyroscope { append(s.rotationRate, to: &out) }
            if schema.hasMagnetometer { append(s.magneticField ?? SIMD3(repeating: .nan), to: &out) }
            if schema.hasTruth {
                let q = s.truth ?? Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
                for c in [q.w, q.x, q.y, q.z] { out += ","; out += number(c) }
            }
            if schema.hasMovement { out += s.movement == true ? ",1" : ",0" }
            out += "\n"
        }
        return out
    }

    static func append(_ v: SIMD3<Double>, to out: inout String) {
        out += ","; out += number(v.x); out += ","; out += number(v.y); out += ","; out += number(v.z)
    }

    /// Shortest representation that reads back exactly (`1.0`, `0.1`, `1e-05`, `nan`).
    static func number(_ x: Double) -> String { x.isNaN ? "nan" : "\(x)" }
}
