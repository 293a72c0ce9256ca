import Poise

/// CSV form of a device-motion stream (`poise fuse`): one header row, one row per sample.
///
/// Columns (`quantity_axis_unit`): `t_s`; attitude quaternion `q_w,q_x,q_y,q_z` (device → earth
/// frame named in the header comment-free column suffix, e.g. `q_w` of an ENU attitude);
/// CoreMotion-compatible `roll_deg,pitch_deg,yaw_deg`; aerospace z-y′-x″
/// `zyx_roll_deg,zyx_pitch_deg,zyx_yaw_deg`; `grav_x_g…` (up in the device frame, g);
/// `user_x_g…` (user acceleration, device frame, g); optionally `user_e_x_g…` (earth frame);
/// `rot_x_radps…` (bias-corrected rotation rate); `bias_x_radps…`; `heading_deg` (empty for
/// 6D); flags `at_rest,mag_disturbance,acc_rejected,time_gap,invalid_input` (0/1).
public enum DeviceMotionCSV {
    /// The header row (without newline).
    public static func header(earthFrameUserAcceleration: Bool) -> String {
        var columns = ["t_s", "q_w", "q_x", "q_y", "q_z", "roll_deg", "pitch_deg", "yaw_deg",
                       "zyx_roll_deg", "zyx_pitch_deg", "zyx_yaw_deg",
                       "grav_x_g", "grav_y_g", "grav_z_g", "user_x_g", "user_y_g", "user_z_g"]
        if earthFrameUserAcceleration { columns += ["user_e_x_g", "user_e_y_g", "user_e_z_g"] }
        columns += ["rot_x_radps", "rot_y_radps", "rot_z_radps", "bias_x_radps", "bias_y_radps", "bias_z_radps",
                    "heading_deg", "at_rest", "mag_disturbance", "acc_rejected", "time_gap", "invalid_input"]
        return columns.joined(separator: ",")
    }

    /// Appends one row (with a trailing newline) to `text`.
    public static func appendRow(_ m: DeviceMotion, earthFrameUserAcceleration: Bool, to text: inout String) {
        let degrees = 180 / Double.pi
        let cm = m.coreMotionAngles, zyx = m.aerospaceAngles
        var values: [Double] = [m.time, m.attitude.w, m.attitude.x, m.attitude.y, m.attitude.z,
                                cm.roll * degrees, cm.pitch * degrees, cm.yaw * degrees,
                                zyx.roll * degrees, zyx.pitch * degrees, zyx.yaw * degrees,
                                m.gravity.x, m.gravity.y, m.gravity.z,
                                m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z]
        if earthFrameUserAcceleration {
            let e = m.userAccelerationEarth
            values += [e.x, e.y, e.z]
        }
        values += [m.rotationRate.x, m.rotationRate.y, m.rotationRate.z, m.bias.x, m.bias.y, m.bias.z]
        for v in values { text += v.description; text += "," }
        if let h = m.heading { text += h.description }
        for flag in [DeviceMotion.Flags.atRest, .magneticDisturbance, .accelerationRejected, .timeGap, .invalidInput] {
            text += m.flags.contains(flag) ? ",1" : ",0"
        }
        text += "\n"
    }
}
