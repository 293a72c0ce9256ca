import ArgumentParser
import PoiseRun

/// `--send udp://HOST:PORT` and `--send-format csv|json`, shared by `replay` and `live`.
struct SendOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Send every processed sample (every frame with --frame-rate) as one UDP datagram to the app under test, e.g. udp://127.0.0.1:9000 (docs/replay.md \"Sending to the app under test\").", valueName: "udp://HOST:PORT"))
    var send: String?

    @Option(name: .customLong("send-format"), help: "Datagram format: csv (a header datagram, then one row per sample) or json (one object per sample, keys = the output CSV's column names).")
    var sendFormat: UDPSender.Format = .csv
}

extension UDPSender.Format: ExpressibleByArgument {}
