// libFuzzer target: arbitrary bytes as a sequence of UDP datagrams (split at 0xFF bytes) for a
// live stream. `DatagramLines` must never trap, must end every line it writes with a newline, and
// every row it makes from a JSON object must have as many fields as the header it made.
import PoiseRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func datagramFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var converter = DatagramLines()
    var jsonColumns: Int?
    for datagram in bytes.split(separator: 0xFF, omittingEmptySubsequences: false) {
        let isJSON = datagram.first == UInt8(ascii: "{")
        let out = converter.lines(datagram)
        if !out.isEmpty && out.last != UInt8(ascii: "\n") { fatalError("a line without its newline: \(out)") }
        guard isJSON else { continue }
        for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).count
            if let columns = jsonColumns, !line.contains("\""), fields != columns, !line.contains("{") {
                fatalError("a JSON row with \(fields) fields under a header of \(columns): \(line)")
            }
            if jsonColumns == nil, !line.contains("{") { jsonColumns = fields }
        }
    }
    return 0
}
