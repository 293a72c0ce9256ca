import Foundation
import PoiseRun

/// FNV-1a hash of a string in hexadecimal: stable across runs (Swift's `hashValue` is seeded).
func stableHash(_ text: String) -> String {
    var h: UInt64 = 0xcbf29ce484222325
    for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
    return String(h & 0xffff_ffff, radix: 16)
}

/// Formats a pixel coordinate with one decimal.
func pixels(_ value: Double) -> String { String(format: "%.1f", value) }

/// Escapes text for XML/HTML content and attributes.
public func escapeXML(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for c in text {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(c)
        }
    }
    return out
}
