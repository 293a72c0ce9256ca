import Poise
import PoiseRun

/// A report pass's progress as a sink: calls `report` with the samples done after every `step`
/// of them and once more at the end (when the last step was not whole).
struct PassProgress: Sink {
    let step: Int
    let report: ((Int) -> Void)?
    var done = 0

    init(step: Int = ReportInput.chunkSize, _ report: ((Int) -> Void)?) {
        self.step = max(1, step); self.report = report
    }

    mutating func consume(_ record: ProcessedSample, _ delivery: SampleDelivery) {
        done += 1
        if done % step == 0 { report?(done) }
    }

    mutating func finish(_ end: RunEnd) {
        if done % step != 0 { report?(done) }
    }
}
