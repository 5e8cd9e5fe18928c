#!/usr/bin/env python3
"""Where a tlbscope-report html page's heatmaps land in a browser, one fact a line.

Usage: html_boxes.py instrument PAGE OUT    a copy of PAGE that, as it is laid out, writes the
                                            heatmaps' boxes into <pre id="boxes">
       html_boxes.py read DOM               the facts, from Chromium's --dump-dom of OUT

The page's own policy allows no script (views/page.h), so the copy drops the policy and adds
one: the test's, never the tool's. Per heatmap it records its grid, its title (the report's
name), the rendered box of its SVG and of its figure, the SVG's viewBox and the page's width.
Facts: "heatmaps N rows R widest_row W" (W heatmaps share a row: the same top), and
"cut C": heatmaps whose SVG reaches past its figure or the page, or is drawn at another
aspect ratio than its viewBox (squeezed or clipped), or is untitled.
tests/checks/html_chromium.sh reads them with grep.
"""
import re
import sys

SCRIPT = """<script>
(function () { /* at the end of the body: every heatmap is laid out (the style is inline) */
  var lines = [];
  document.querySelectorAll('svg.heatmap').forEach(function (svg) {
    var fig = svg.closest('figure'), grid = svg.closest('.heatgrid');
    var title = fig ? fig.querySelector('.heat-title') : null;
    var r = svg.getBoundingClientRect(), f = fig ? fig.getBoundingClientRect() : r;
    var vb = svg.viewBox.baseVal;
    lines.push([grid ? 1 : 0, Math.round(r.left), Math.round(r.top + window.scrollY),
                Math.round(r.width), Math.round(r.height), Math.round(f.right),
                vb ? vb.width : 0, vb ? vb.height : 0, document.documentElement.clientWidth,
                title ? title.textContent.replace(/\\s+/g, '_') : '-'].join(' '));
  });
  var pre = document.createElement('pre');
  pre.id = 'boxes';
  pre.textContent = lines.join('\\n');
  document.body.appendChild(pre);
})();
</script>"""


def instrument(src, dst):
    page = open(src, encoding="utf-8").read()
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
    page = page.replace("</body>", SCRIPT + "\n</body>")
    open(dst, "w", encoding="utf-8").write(page)


def read(dom_path):
    dom = open(dom_path, encoding="utf-8").read()
    m = re.search(r'<pre id="boxes">(.*?)</pre>', dom, re.S)
    boxes = []
    for line in (m.group(1).strip().splitlines() if m else []):
        f = line.split()
        if len(f) == 10:
            boxes.append(([int(x) for x in f[:6]] + [float(f[6]), float(f[7]), int(f[8])], f[9]))
    rows = {}
    cut = 0
    for (grid, left, top, w, h, fig_right, vbw, vbh, page_w), title in boxes:
        rows[top] = rows.get(top, 0) + 1
        squeezed = vbw > 0 and vbh > 0 and w > 0 and abs(h / w - vbh / vbw) > 0.02
        if (left + w > fig_right + 1 or left + w > page_w + 1 or w <= 0 or squeezed
                or not grid or title == "-"):
            cut += 1
    print("heatmaps", len(boxes), "rows", len(rows), "widest_row", max(rows.values()) if rows else 0)
    print("cut", cut)
    print("titles", " ".join(t for _, t in boxes))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "instrument":
        instrument(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "read":
        read(sys.argv[2])
    else:
        sys.exit(__doc__)
