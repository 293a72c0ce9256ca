extension HeaderMapping {
    static let unknownReason = "not a quantity Poise reads"
    static let unnamedReason = "unnamed column"
    static let gravityFreeReason = "gravity-free (user) acceleration, not an accelerometer reading (specific force); Poise does not add gravity back"

    /// Why a known column that Poise does not read is ignored, or nil for a name it does not know.
    ///
    /// Poise computes only from the sensors a file has: gravity-free ("linear", "user", "free")
    /// acceleration is not an accelerometer reading (specific force) and gravity is never added
    /// back to it, so such columns are ignored, as are norms, orientation estimates and sensors
    /// Poise has no use for.
    static func ignoredReason(for name: String) -> String? {
        let lower = name.lowercased()
        if lower.hasPrefix("linear acceleration") || lower.hasPrefix("freeacc_") || lower.hasPrefix("useracceleration") {
            return gravityFreeReason
        }
        if lower.hasPrefix("absolute acceleration") {
            return "a norm without axes"
        }
        if lower.contains("barometer") || lower.contains("pressure") { return "barometer (not used)" }
        if lower.contains("temperature") { return "temperature (not used)" }
        if ["Mag_X", "Mag_Y", "Mag_Z"].contains(name) {
            return "Xsens magnetometer in arbitrary units (normalised to the local field), not µT"
        }
        if lower.hasPrefix("mat[") || lower.hasPrefix("quat_") || lower.hasPrefix("roll") || lower.hasPrefix("pitch")
            || lower.hasPrefix("yaw") || lower.hasPrefix("euler_") || lower.hasPrefix("attitude.") || lower.hasPrefix("orientation") {
            return "the device's own orientation estimate (not ground truth; not used)"
        }
        if lower == "sampletimefine" || lower.hasPrefix("utc_") || ["year", "month", "day", "hour", "minute", "second"].contains(lower) {
            return "device clock field (not used; time comes from the time column)"
        }
        if lower == "seconds_elapsed" { return "second time column (not used)" }
        return nil
    }
}
