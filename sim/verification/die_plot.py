"""The die drawn from its DEF as SVG (``make die``'s die.svg, docs/die.svg).

Each cell is a rectangle of its LEF size where the placer put it, coloured by the block
of figure 2 it was made in (the spacers the flow added in grey); each routed wire a line
of its layer's colour; the critical path a dashed line from cell to cell, from its first
register to its last. A legend names the blocks with their cells, the layers with their
length of wire, and a bar gives the scale. SVG is written as text: no plotting library.
"""

from xml.sax.saxutils import escape

from sim.verification.die_files import CHIP, FILL

__all__ = ["COLOURS", "LAYERS", "colour", "draw"]

# One colour a block (figure 2's, and the chip's top), light enough for wires over it.
COLOURS = {"keyboard": "#f4b183", "board": "#9dc3e6", "move": "#a9d18e",
           "value": "#ffd966", "stack": "#c9b3e6", "controller": "#f4a6a6",
           CHIP: "#bfbfbf", FILL: "#ededed"}
# findfree, board's ripple (§3.1), in a darker blue than the rest of board.
FINDFREE = "#5b9bd5"
LAYERS = {"metal1": "#1f4e9c", "metal2": "#c0392b", "metal3": "#1e8449",
          "metal4": "#7d3c98"}
PIN = "#7a2e00"              # the pins, brown as docs/chip.svg has them
WIDTH = 1000                # the die's width in pixels
LEGEND = 250                # the legend's column


def colour(part):
    """The colour of a part of figure 2 (its block's; findfree its own)."""
    if part == "board.findfree":
        return FINDFREE
    return COLOURS.get(part.split(".")[0], COLOURS[CHIP])


def _fmt(value):
    return f"{value:.1f}".rstrip("0").rstrip(".")


def draw(layout_def, sizes, parts, report, title):
    """The SVG text of the die: `layout_def` (die_files.Def), `sizes` {cell: (w, h)},
    `parts` {instance: part}, `report` (die_files.report's dict, for the legend and the
    critical path)."""
    x0, y0, x1, y1 = layout_def.die
    scale = WIDTH / (x1 - x0)
    height = (y1 - y0) * scale

    def x(value):
        return _fmt((value - x0) * scale + 20)

    def y(value):
        return _fmt((y1 - value) * scale + 50)

    total_w, total_h = WIDTH + 40 + LEGEND, max(height + 110, 560)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(total_w)}" '
           f'height="{_fmt(total_h)}" viewBox="0 0 {_fmt(total_w)} {_fmt(total_h)}" '
           f'font-family="sans-serif">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{_fmt(total_w)}" height="{_fmt(total_h)}" fill="white"/>',
           f'<text x="20" y="30" font-size="15px" fill="#222">{escape(title)}</text>',
           f'<rect x="20" y="50" width="{_fmt(WIDTH)}" height="{_fmt(height)}" '
           f'fill="#fafafa" stroke="#444"/>']
    centres = {}
    by_part = {}
    for name, cell, cx, cy, _ in layout_def.components:
        w, h = sizes.get(cell, (0, 0))
        by_part.setdefault(parts.get(name, CHIP), []).append(
            f'M{x(cx)} {y(cy + h)}h{_fmt(w * scale)}v{_fmt(h * scale)}h-{_fmt(w * scale)}z')
        centres[name] = (cx + w / 2, cy + h / 2)
    for part, shapes in sorted(by_part.items()):
        out.append(f'<path data-part="{part}" fill="{colour(part)}" stroke="white" '
                   f'stroke-width="0.3" d="{"".join(shapes)}"/>')
    by_layer = {}
    for _, layer, ax, ay, bx, by in layout_def.wires:
        by_layer.setdefault(layer, []).append(f"M{x(ax)} {y(ay)}L{x(bx)} {y(by)}")
    for layer, lines in sorted(by_layer.items()):
        out.append(f'<path data-layer="{layer}" stroke="{LAYERS.get(layer, "#555")}" '
                   f'stroke-width="0.9" stroke-opacity="0.7" fill="none" '
                   f'd="{"".join(lines)}"/>')
    out.append(f'<path data-pins="{len(layout_def.pins)}" fill="{PIN}" d="' + "".join(
        f"M{_fmt(float(x(px)) - 3)} {_fmt(float(y(py)) - 3)}h6v6h-6z"
        for _, px, py in layout_def.pins) + '"/>')
    out += _path(report["critical_path"], centres, x, y)
    out += _legend(report, WIDTH + 40, scale, height)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _path(critical, centres, x, y):
    """The critical path: a dashed line through its cells' centres, in order."""
    points = [centres[step["cell"]] for step in critical["steps"] if step["cell"] in centres]
    if not points:
        return []
    line = " ".join(f"{x(px)},{y(py)}" for px, py in points)
    first, last = points[0], points[-1]
    return [f'<polyline data-critical-path="1" points="{line}" fill="none" stroke="#111" '
            f'stroke-width="2.2" stroke-dasharray="6 3"/>',
            f'<circle cx="{x(first[0])}" cy="{y(first[1])}" r="5" fill="#111"/>',
            f'<circle cx="{x(last[0])}" cy="{y(last[1])}" r="5" fill="white" stroke="#111" '
            f'stroke-width="2"/>']


def _legend(report, left, scale, height):
    """The legend (blocks and their cells, layers and their wire, the path) and the
    scale bar under the die."""
    out, row = [], 60

    def line(text, size=13, weight="normal"):
        nonlocal row
        out.append(f'<text x="{left}" y="{row}" font-size="{size}px" font-weight="{weight}" '
                   f'fill="#222">{escape(text)}</text>')
        row += size + 7

    def swatch(colour, text, kind="rect"):
        nonlocal row
        shape = (f'<rect x="{left}" y="{row - 11}" width="14" height="12" fill="{colour}"/>'
                 if kind == "rect" else
                 f'<line x1="{left}" y1="{row - 5}" x2="{left + 14}" y2="{row - 5}" '
                 f'stroke="{colour}" stroke-width="{kind}"/>')
        out.append(shape)
        out.append(f'<text x="{left + 20}" y="{row}" font-size="12px" fill="#222">'
                   f'{escape(text)}</text>')
        row += 19

    line("Cells by block", weight="bold")
    cells = report["cells"]["by_block"]
    for block, count in cells.items():
        swatch(COLOURS[block], f"{block}: {count} cells")
        if block == "board":
            swatch(FINDFREE, "  of them findfree (§3.1)")
    swatch(COLOURS[FILL], f"fill: {report['cells']['fill']} spacers")
    swatch(PIN, "pins")
    row += 8
    line("Wires by layer", weight="bold")
    for layer, length in report["wire_um"].items():
        swatch(LAYERS.get(layer, "#555"), f"{layer}: {length / 1000:.1f} mm", kind="2")
    row += 8
    line("Critical path", weight="bold")
    out.append(f'<line x1="{left}" y1="{row - 5}" x2="{left + 14}" y2="{row - 5}" '
               f'stroke="#111" stroke-width="2.2" stroke-dasharray="4 2"/>')
    out.append(f'<text x="{left + 20}" y="{row}" font-size="12px" fill="#222">'
               f'{report["critical_path"]["delay_ps"] / 1000:.2f} ns, '
               f'{report["max_clock_mhz"]:.0f} MHz at most</text>')
    row += 19
    for fill, text in (("#111", "its first register"), ("white", "its last register")):
        out.append(f'<circle cx="{left + 7}" cy="{row - 5}" r="4" fill="{fill}" '
                   f'stroke="#111" stroke-width="2"/>')
        out.append(f'<text x="{left + 20}" y="{row}" font-size="12px" fill="#222">'
                   f'{text}</text>')
        row += 19
    for number, part in enumerate(report["critical_path"]["parts"], 1):
        swatch(colour(part), f"{number}. {part}")
    if not report["critical_path"]["findfree"]:
        line("findfree (§3.1) is not on it", size=12)
    bar = 100 if scale * 100 < 300 else 50           # micrometres
    base = 50 + height + 30
    out += [f'<line x1="20" y1="{_fmt(base)}" x2="{_fmt(20 + bar * scale)}" y2="{_fmt(base)}" '
            f'stroke="#111" stroke-width="3"/>',
            f'<text x="20" y="{_fmt(base + 18)}" font-size="12px" fill="#222">{bar} µm</text>',
            f'<text x="{_fmt(20 + bar * scale + 20)}" y="{_fmt(base + 5)}" font-size="12px" '
            f'fill="#555">die {report["die_um"][0]:.0f} x {report["die_um"][1]:.0f} µm, '
            f'{report["cells"]["total"]} cells, {report["transistors"]["total"]} '
            f'transistors ({report["process"]})</text>']
    return out
