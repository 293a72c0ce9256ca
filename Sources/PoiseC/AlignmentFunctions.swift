import CPoise
import Poise

/// Conversion between `poise_alignment` and `AxisAlignment`.
enum AlignmentBridge {
    static func alignment(_ a: UnsafePointer<poise_alignment>?) throws(CError) -> AxisAlignment {
        guard let a else { throw .null("alignment") }
        let axes = [a.pointee.axis.0, a.pointee.axis.1, a.pointee.axis.2]
        let signs = [a.pointee.sign.0, a.pointee.sign.1, a.pointee.sign.2]
        var signed: [SignedAxis] = []
        for i in 0..<3 {
            guard (0...2).contains(axes[i]) else { throw .invalid("alignment axis[\(i)] must be 0, 1 or 2, got \(axes[i])") }
            guard signs[i] == 1 || signs[i] == -1 else { throw .invalid("alignment sign[\(i)] must be +1 or -1, got \(signs[i])") }
            signed.append(SignedAxis(index: Int(axes[i]), negative: signs[i] == -1))
        }
        guard let alignment = AxisAlignment(x: signed[0], y: signed[1], z: signed[2]) else {
            throw .invalid("alignment uses an axis twice: \(axes)")
        }
        return alignment
    }

    static func cAlignment(_ a: AxisAlignment) -> poise_alignment {
        var c = poise_alignment()
        c.axis = (Int32(a.x.index), Int32(a.y.index), Int32(a.z.index))
        c.sign = (Int32(a.x.sign), Int32(a.y.sign), Int32(a.z.sign))
        return c
    }
}

@_cdecl("poise_alignment_parse")
public func cAlignmentParse(_ text: UnsafePointer<CChar>?, _ allowReflection: Int32, _ alignment: UnsafeMutablePointer<poise_alignment>?,
                            _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let source = try string(text, "text")
        guard let alignment else { throw .null("alignment") }
        do {
            alignment.pointee = AlignmentBridge.cAlignment(try AxisAlignment(source, allowingReflection: allowReflection != 0))
        } catch {
            throw CError(POISE_ERROR_PARSE, "\(error)")
        }
    }
}

@_cdecl("poise_alignment_apply")
public func cAlignmentApply(_ alignment: UnsafePointer<poise_alignment>?, _ vectors: UnsafeMutablePointer<Double>?, _ count: Int,
                            _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let a = try AlignmentBridge.alignment(alignment)
        _ = try elementCount(count, width: 3, "vectors")
        guard count > 0 else { return }
        guard let vectors else { throw .null("vectors") }
        for i in 0..<count {
            store(a.apply(vector(vectors + 3 * i)), vectors + 3 * i)
        }
    }
}

@_cdecl("poise_alignment_apply_f")
public func cAlignmentApplyFloat(_ alignment: UnsafePointer<poise_alignment>?, _ vectors: UnsafeMutablePointer<Float>?, _ count: Int,
                                 _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let a = try AlignmentBridge.alignment(alignment)
        _ = try elementCount(count, width: 3, "vectors")
        guard count > 0 else { return }
        guard let vectors else { throw .null("vectors") }
        for i in 0..<count {
            let p = vectors + 3 * i
            let v = a.apply(SIMD3<Float>(p[0], p[1], p[2]))
            p[0] = v.x; p[1] = v.y; p[2] = v.z
        }
    }
}

@_cdecl("poise_alignment_apply_attitudes")
public func cAlignmentApplyAttitudes(_ alignment: UnsafePointer<poise_alignment>?, _ attitudes: UnsafeMutablePointer<Double>?, _ count: Int,
                                     _ error: UnsafeMutablePointer<poise_error>?) -> poise_status {
    guarded(error) { () throws(CError) in
        let a = try AlignmentBridge.alignment(alignment)
        let remap: FrameRemap<Double>
        do { remap = try FrameRemap(alignment: a) } catch { throw .invalid("\(error)") }
        _ = try elementCount(count, width: 4, "attitudes")
        guard count > 0 else { return }
        guard let attitudes else { throw .null("attitudes") }
        for i in 0..<count {
            let p = attitudes + 4 * i
            let q = remap.attitude(Quaternion(w: p[0], x: p[1], y: p[2], z: p[3]))
            p[0] = q.w; p[1] = q.x; p[2] = q.y; p[3] = q.z
        }
    }
}
