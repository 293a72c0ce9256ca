/// Milliseconds with three decimals, for messages.
func formatMilliseconds(_ seconds: Double) -> String {
    let microseconds = (seconds * 1e6).rounded()
    guard abs(microseconds) < 1e15 else { return "\(seconds * 1000)" }  // absurd times: no fixed-point form
    let whole = Int(microseconds / 1000)
    let fraction = Int(abs(microseconds).truncatingRemainder(dividingBy: 1000))
    let padded = String(fraction).count < 3 ? String(repeating: "0", count: 3 - String(fraction).count) + String(fraction) : String(fraction)
    return "\(microseconds < 0 && whole == 0 ? "-" : "")\(whole).\(padded)"
}
