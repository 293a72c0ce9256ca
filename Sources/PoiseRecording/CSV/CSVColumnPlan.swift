/// Where each field of a `MotionSample` is in a CSV row, and the scale to the core units
/// (seconds, g specific force, rad/s, µT), read once from the schema.
struct CSVColumnPlan {
    /// The time column, or −1 when the file has none and rows are timed by `rowRate`.
    let timeColumn: Int
    /// Seconds per unit of the time column.
    let timeScale: Double
    /// The modulus of a packet-counter time column (Xsens `PacketCounter`: 65,536), or nil.
    let counterModulus: Double?
    /// `options.sampleRate` for a file without a time column (row n at n / rate s), else nil.
    let rowRate: Double?
    let accelerationColumns: SIMD3<Int>?
    /// Per axis, the column's unit to g, with Apple's sign flipped when asked for.
    let accelerationScales: SIMD3<Double>
    /// Columns added to the acceleration (`ColumnMeaning.accelerationComponent`), or nil.
    let accelerationComponentColumns: SIMD3<Int>?
    let accelerationComponentScales: SIMD3<Double>
    let rotationRateColumns: SIMD3<Int>?
    let rotationRateScales: SIMD3<Double>
    let magneticFieldColumns: SIMD3<Int>?
    let magneticFieldScales: SIMD3<Double>
    /// The truth quaternion's w, x, y, z columns, or nil.
    let truthColumns: SIMD4<Int>?
    let movementColumn: Int?

    init(schema: RecordingSchema, options: ReadOptions) {
        var time = (column: -1, scale: 1.0)
        var acc = (columns: SIMD3<Int>(repeating: -1), scales: SIMD3<Double>(repeating: 1))
        var gyr = acc
        var mag = acc
        var component = acc
        var truth = SIMD4<Int>(repeating: -1)
        var movement: Int?
        let sign = options.appleAccelerometerSign ? -1.0 : 1.0
        for (i, column) in schema.columns.enumerated() {
            switch column.meaning {
            case .time(let scale): time = (i, scale)
            case .acceleration(let axis, let scale): acc.columns[axis] = i; acc.scales[axis] = sign * scale
            case .accelerationComponent(let axis, let scale): component.columns[axis] = i; component.scales[axis] = sign * scale
            case .rotationRate(let axis, let scale): gyr.columns[axis] = i; gyr.scales[axis] = scale
            case .magneticField(let axis, let scale): mag.columns[axis] = i; mag.scales[axis] = scale
            case .truth(let component): truth[component] = i
            case .movement: movement = i
            case .ignored: break
            }
        }
        timeColumn = time.column
        timeScale = time.scale
        counterModulus = time.column >= 0 && schema.columns[time.column].name == "PacketCounter" ? 65536 : nil
        rowRate = time.column < 0 ? options.sampleRate : nil
        accelerationColumns = schema.hasAccelerometer ? acc.columns : nil
        accelerationScales = acc.scales
        accelerationComponentColumns = component.columns[0] >= 0 ? component.columns : nil
        accelerationComponentScales = component.scales
        rotationRateColumns = schema.hasGyroscope ? gyr.columns : nil
        rotationRateScales = gyr.scales
        magneticFieldColumns = schema.hasMagnetometer ? mag.columns : nil
        magneticFieldScales = mag.scales
        truthColumns = schema.hasTruth ? truth : nil
        movementColumn = movement
    }
}
