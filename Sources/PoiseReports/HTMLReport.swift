/// A self-contained HTML page: inline CSS, inline SVG figures and, when a figure is zoomable,
/// one small inline script; no external assets, nothing fetched from the network.
public struct HTMLReport: Sendable {
    /// One block of the page.
    public enum Block: Sendable {
        case heading(String)
        case paragraph(String)
        /// Already-escaped HTML (used for tables and figures built here).
        case html(String)
        case figure(svg: String, caption: String)
        case table(header: [String], rows: [[String]])
    }

    public var title: String
    public var blocks: [Block] = []

    public init(title: String) { self.title = title }

    public mutating func heading(_ text: String) { blocks.append(.heading(text)) }
    public mutating func paragraph(_ text: String) { blocks.append(.paragraph(text)) }
    public mutating func figure(_ svg: String, caption: String) { blocks.append(.figure(svg: svg, caption: caption)) }
    public mutating func table(header: [String], rows: [[String]]) { blocks.append(.table(header: header, rows: rows)) }

    static let style = """
    body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:960px;margin:24px auto;padding:0 16px;color:#222;line-height:1.45}
    h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}
    figure{margin:14px 0}figcaption{font-size:.88em;color:#555;margin-top:2px}
    table{border-collapse:collapse;font-size:.88em;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
    nav a{margin-right:12px}code{background:#f4f4f4;padding:0 3px}p.hint{font-size:.88em;color:#555}
    svg.plot{display:block;max-width:100%;height:auto;background:#fff}
    svg .title{font-size:13px;font-weight:600}svg .tick{font-size:11px;fill:#444}svg .axis-label{font-size:12px;fill:#222}
    svg .legend-text{font-size:11.5px;fill:#222}svg .grid{stroke:#e6e6e6;stroke-width:1}svg .frame{fill:none;stroke:#888;stroke-width:1}
    svg .area{fill:#fcfcfc}svg path.series{stroke-linejoin:round}
    svg.zoomable{cursor:crosshair;user-select:none}svg.zoomable path.series{vector-effect:non-scaling-stroke}
    svg .zoom-selection{fill:#1f77b4;fill-opacity:.15;stroke:#1f77b4}svg .cursor{stroke:#777;stroke-dasharray:3 3}
    .plot-tip{position:absolute;display:none;pointer-events:none;background:#fff;border:1px solid #aaa;padding:3px 6px;font-size:12px;line-height:1.35;white-space:nowrap;z-index:10}
    """

    /// The inline script for plots marked `zoomable` (``LinePlot/zoomable``): drag across a plot
    /// to zoom its x axis to the selection (the y axis follows the drawn values there),
    /// double-click to go back, hover to read the value of every series at the pointer. It works
    /// on the drawn paths (per pixel column the minimum and maximum sample), so zooming enlarges
    /// what is drawn rather than loading more samples. No network, no libraries.
    static let script = """
    (function () {
      "use strict";
      function ticks(lo, hi, n) {
        var raw = (hi - lo) / Math.max(1, n - 1), m = Math.pow(10, Math.floor(Math.log10(raw)));
        var step = [1, 2, 2.5, 5, 10].map(function (k) { return k * m; }).filter(function (k) { return k >= raw; })[0];
        var out = [];
        for (var i = Math.ceil(lo / step - 1e-9); i * step <= hi + 1e-9 * step; i++) out.push(+(i * step).toPrecision(12));
        return out;
      }
      function label(v) {
        if (v === 0) return "0";
        var a = Math.abs(v);
        if (a >= 1e5 || a < 1e-3) return v.toExponential(1).replace("e+", "e");
        return String(+v.toFixed(4));
      }
      function value(v) { return isFinite(v) ? String(+v.toPrecision(4)) : "–"; }
      var tip = document.createElement("div");
      tip.className = "plot-tip";
      document.body.appendChild(tip);
      Array.prototype.forEach.call(document.querySelectorAll("svg.zoomable"), function (svg) {
        var NS = svg.namespaceURI;
        var X = svg.getAttribute("data-x").split(" ").map(Number), Y = svg.getAttribute("data-y").split(" ").map(Number);
        var left = X[2], width = X[3], top = Y[2], height = Y[3];
        var data = svg.querySelector("g.data"), bands = svg.querySelector("g.bands");
        var xg = svg.querySelector("g.xticks"), yg = svg.querySelector("g.yticks");
        var xOriginal = xg.innerHTML, yOriginal = yg.innerHTML;
        var xLabel = (svg.querySelectorAll("text.axis-label")[0] || {}).textContent || "x";
        var series = Array.prototype.map.call(svg.querySelectorAll("path.series"), function (p) {
          var n = (p.getAttribute("d").match(/-?[0-9.]+/g) || []).map(Number), xs = [], ys = [];
          for (var i = 0; i + 1 < n.length; i += 2) {
            xs.push(X[0] + (n[i] - left) / width * (X[1] - X[0]));
            ys.push(Y[0] + (1 - (n[i + 1] - top) / height) * (Y[1] - Y[0]));
          }
          return { name: p.getAttribute("data-name"), color: p.getAttribute("stroke"), x: xs, y: ys };
        });
        var view = [X[0], X[1], Y[0], Y[1]];
        function px(x) { return left + (x - view[0]) / (view[1] - view[0]) * width; }
        function py(y) { return top + (1 - (y - view[2]) / (view[3] - view[2])) * height; }
        function dataX(p) { return view[0] + (p - left) / width * (view[1] - view[0]); }
        function el(name, attributes, text) {
          var e = document.createElementNS(NS, name);
          for (var k in attributes) e.setAttribute(k, attributes[k]);
          if (text !== undefined) e.textContent = text;
          return e;
        }
        function axes() {
          while (xg.firstChild) xg.removeChild(xg.firstChild);
          while (yg.firstChild) yg.removeChild(yg.firstChild);
          ticks(view[0], view[1], 10).forEach(function (t) {
            var x = px(t);
            if (x < left - 0.5 || x > left + width + 0.5) return;
            xg.appendChild(el("line", { "class": "grid", x1: x, y1: top, x2: x, y2: top + height }));
            xg.appendChild(el("text", { "class": "tick xt", x: x, y: top + height + 15, "text-anchor": "middle" }, label(t)));
          });
          ticks(view[2], view[3], 6).forEach(function (t) {
            var y = py(t);
            if (y < top - 0.5 || y > top + height + 0.5) return;
            yg.appendChild(el("line", { "class": "grid", x1: left, y1: y, x2: left + width, y2: y }));
            yg.appendChild(el("text", { "class": "tick yt", x: left - 6, y: y + 4, "text-anchor": "end" }, label(t)));
          });
        }
        function show() {
          var kx = (X[1] - X[0]) / (view[1] - view[0]), ky = (Y[1] - Y[0]) / (view[3] - view[2]);
          var tx = px(X[0]) - left * kx, ty = py(Y[0]) - (top + height) * ky;
          data.setAttribute("transform", "matrix(" + kx + " 0 0 " + ky + " " + tx + " " + ty + ")");
          if (bands) bands.setAttribute("transform", "matrix(" + kx + " 0 0 1 " + tx + " 0)");
          axes();
        }
        function zoom(a, b) {
          var lo = Infinity, hi = -Infinity;
          series.forEach(function (s) {
            for (var i = 0; i < s.x.length; i++) if (s.x[i] >= a && s.x[i] <= b) { lo = Math.min(lo, s.y[i]); hi = Math.max(hi, s.y[i]); }
          });
          if (!(hi > lo)) { lo = view[2]; hi = view[3]; } else { var pad = 0.06 * (hi - lo); lo -= pad; hi += pad; }
          view = [a, b, lo, hi];
          show();
        }
        function reset() {
          view = [X[0], X[1], Y[0], Y[1]];
          data.removeAttribute("transform");
          if (bands) bands.removeAttribute("transform");
          xg.innerHTML = xOriginal; yg.innerHTML = yOriginal;
        }
        function local(ev) {
          var pt = svg.createSVGPoint();
          pt.x = ev.clientX; pt.y = ev.clientY;
          return pt.matrixTransform(svg.getScreenCTM().inverse());
        }
        function clampX(p) { return Math.max(left, Math.min(left + width, p)); }
        var selection = el("rect", { "class": "zoom-selection", x: left, y: top, width: 0, height: height, visibility: "hidden" });
        var cursor = el("line", { "class": "cursor", x1: left, y1: top, x2: left, y2: top + height, visibility: "hidden" });
        svg.appendChild(selection); svg.appendChild(cursor);
        var start = null;
        function hide() { cursor.setAttribute("visibility", "hidden"); tip.style.display = "none"; }
        svg.addEventListener("mousedown", function (ev) {
          var p = local(ev);
          if (p.x < left || p.x > left + width || p.y < top || p.y > top + height) return;
          start = p.x;
          ev.preventDefault();
        });
        svg.addEventListener("mousemove", function (ev) {
          var p = local(ev);
          if (start !== null) {
            var a = Math.min(start, clampX(p.x)), b = Math.max(start, clampX(p.x));
            selection.setAttribute("x", a); selection.setAttribute("width", b - a); selection.setAttribute("visibility", "visible");
          }
          if (p.x < left || p.x > left + width || p.y < top || p.y > top + height) { hide(); return; }
          cursor.setAttribute("x1", p.x); cursor.setAttribute("x2", p.x); cursor.setAttribute("visibility", "visible");
          var x = dataX(p.x);
          tip.textContent = "";
          var head = document.createElement("div");
          head.textContent = xLabel + ": " + value(x);
          tip.appendChild(head);
          series.forEach(function (s) {
            if (!s.x.length) return;
            var lo = 0, hi = s.x.length - 1;
            while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (s.x[mid] < x) lo = mid; else hi = mid; }
            var i = Math.abs(s.x[lo] - x) <= Math.abs(s.x[hi] - x) ? lo : hi;
            if (Math.abs(px(s.x[i]) - p.x) > 8) return;
            var line = document.createElement("div"), swatch = document.createElement("span");
            swatch.textContent = "\\u25A0 ";
            swatch.style.color = s.color;
            line.appendChild(swatch);
            line.appendChild(document.createTextNode(s.name + ": " + value(s.y[i])));
            tip.appendChild(line);
          });
          tip.style.display = "block";
          tip.style.left = (ev.pageX + 14) + "px";
          tip.style.top = (ev.pageY + 12) + "px";
        });
        svg.addEventListener("mouseleave", hide);
        window.addEventListener("mouseup", function (ev) {
          if (start === null) return;
          var p = local(ev), a = Math.min(start, clampX(p.x)), b = Math.max(start, clampX(p.x));
          start = null;
          selection.setAttribute("visibility", "hidden");
          if (b - a >= 4) zoom(dataX(a), dataX(b));
        });
        svg.addEventListener("dblclick", reset);
      });
    })();
    """

    /// The page. It carries ``script`` (inline) only when a figure is zoomable.
    public func render() -> String {
        var body = ""
        var headings: [(String, String)] = []
        var zoomable = false
        for block in blocks {
            switch block {
            case .heading(let text):
                let id = "s\(headings.count + 1)"
                headings.append((id, text))
                body += "<h2 id=\"\(id)\">\(escapeXML(text))</h2>\n"
            case .paragraph(let text): body += "<p>\(escapeXML(text))</p>\n"
            case .html(let html): body += html + "\n"
            case .figure(let svg, let caption):
                zoomable = zoomable || svg.hasPrefix("<svg class=\"plot zoomable\"")
                body += "<figure>\n\(svg)\n<figcaption>\(escapeXML(caption))</figcaption>\n</figure>\n"
            case .table(let header, let rows):
                body += "<table><thead><tr>" + header.map { "<th>\(escapeXML($0))</th>" }.joined() + "</tr></thead><tbody>\n"
                for row in rows { body += "<tr>" + row.map { "<td>\(escapeXML($0))</td>" }.joined() + "</tr>\n" }
                body += "</tbody></table>\n"
            }
        }
        let nav = headings.map { "<a href=\"#\($0.0)\">\(escapeXML($0.1))</a>" }.joined(separator: " ")
        let hint = zoomable ? "<p class=\"hint\">Time plots: hover for the values at the pointer; drag across a plot to zoom its time axis, double-click it to go back.</p>\n" : ""
        let script = zoomable ? "<script>\n\(Self.script)</script>\n" : ""
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escapeXML(title))</title>
        <style>
        \(Self.style)
        </style>
        </head>
        <body>
        <h1>\(escapeXML(title))</h1>
        <nav>\(nav)</nav>
        \(hint)\(body)\(script)</body>
        </html>

        """
    }
}
