// libFuzzer target: arbitrary bytes as a sequence of one-line UDP datagrams (split at 0xFF
// bytes, line breaks removed) for a live stream. `DatagramLines` must never trap, must end every
// line it writes with a newline, a row it makes from a JSON object must have as many fields as
// the header made from the first object, and a row it makes from a Sensorstream line must have
// the time and three fields per sensor of the first such line (a line it does not understand is
// passed on unchanged for the CSV reader to judge).
import PoiseRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func datagramFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var converter = DatagramLines()
    for piece in bytes.split(separator: 0xFF, omittingEmptySubsequences: false) {
        let datagram = piece.filter { $0 != 10 && $0 != 13 }
        let out = converter.lines(datagram[...])
        if !out.isEmpty && out.last != 10 { fatalError("a line without its newline: \(out)") }
        let text = String(decoding: datagram, as: UTF8.self)
        guard let last = String(decoding: out, as: UTF8.self).split(separator: "\n").last, last != text else { continue }
        let fields = last.split(separator: ",", omittingEmptySubsequences: false).count
        if let header = converter.header {
            if fields != header.count { fatalError("a JSON row with \(fields) fields under a header of \(header.count): \(last)") }
        } else if let ids = converter.sensorStreamIds {
            // Counted in comma bytes, as the CSV reader splits (a comma followed by a combining
            // mark is one Character).
            let fields = last.utf8.filter { $0 == UInt8(ascii: ",") }.count + 1
            if fields != 1 + 3 * ids.count { fatalError("a Sensorstream row with \(fields) fields for sensors \(ids): \(last)") }
        }
    }
    return 0
}
