// The die on the page (docs/die.md, "The die on the page"): make die's layout drawn,
// its cells in the colours of their blocks and its wires in those of their layers, each
// wire lit while its net is 1 and faint while it is 0. The values are the post-layout
// netlist's, simulated gate by gate beside the chip the clock above steps; the server
// catches the die up with a search the chip ran whole over several answers, and the
// page asks again at the screen's rate until it is there. A click on a cell, or its
// name typed, names it, its block and the values on its pins.

import { element } from "./dom.js";

const ZOOMS = [["1", "whole die"], ["2", "2x"], ["4", "4x"]];
const FAINT = 0.18;             // a wire at 0, against one at 1

export class DiePanel {
  // `send(fields)` sends a chip message.
  constructor(send) {
    this.send = send;
    this.map = null;
    this.view = null;
    this.chosen = null;         // the cell named, by its index
    this.asking = false;        // a catch-up message is on its way
    this.drawnMs = null;
    this.canvas = element("canvas", { class: "diecanvas", role: "img",
                                      "aria-label": "the die, not drawn yet" });
    this.canvas.addEventListener("click", (event) => this.clicked(event));
    this.zoom = element("select", { id: "die-zoom", "aria-label": "the die's zoom" },
      ...ZOOMS.map(([v, t]) => element("option", { value: v, text: t })));
    this.zoom.addEventListener("change", () => this.layout());
    this.name = element("input", { id: "die-cell", list: "die-cells", size: "14",
                                   "aria-label": "a cell's name" });
    this.names = element("datalist", { id: "die-cells" });
    this.name.addEventListener("change", () => this.choose(this.name.value.trim()));
    this.critical = element("input", { type: "checkbox", id: "die-critical" });
    this.critical.addEventListener("change", () => this.view && this.draw());
    this.status = element("p", { class: "diestatus", "aria-live": "off" });
    this.cell = element("p", { class: "diecell", "aria-live": "polite" });
    this.agree = element("p", { class: "differences", role: "alert" });
    this.legend = element("p", { class: "dielegend" });
    this.section = element("section", { class: "block die", "aria-label": "the die",
                                        hidden: true },
      element("h3", { text: "The die: make die's layout, each wire lit by its net's " +
                            "value in the post-layout netlist" }),
      element("div", { class: "dietools" },
              element("label", { for: "die-zoom", text: "zoom " }), this.zoom,
              element("label", { for: "die-cell", text: " cell " }), this.name,
              this.names, this.critical,
              element("label", { for: "die-critical", text: "the critical path" })),
      this.status, this.agree,
      element("div", { class: "diescroll", tabindex: "0", role: "region",
                       "aria-label": "the die, scrolled" }, this.canvas),
      this.cell, this.legend);
    new ResizeObserver(() => this.layout()).observe(this.section);
  }

  get shown() { return !this.section.hidden; }

  // Shown: the die's description asked for the first time, and its values from then on.
  show(shown) {
    this.section.hidden = !shown;
    if (shown) this.send({ do: "die", map: this.map === null });
  }

  render(die) {
    if (die.map) this.load(die.map);
    if (!this.map) return;
    this.view = die;
    const began = performance.now();
    this.draw();
    this.drawnMs = performance.now() - began;
    this.canvas.dataset.cycle = String(die.cycle);
    this.canvas.dataset.drawnMs = this.drawnMs.toFixed(1);
    const behind = die.cycle < die.target;
    this.status.textContent = behind
      ? `The die is at cycle ${die.cycle}, catching up with the chip at ${die.target}…`
      : `The die at cycle ${die.cycle}: ${this.count()} of its ${this.map.nets.length} ` +
        `nets at 1.`;
    this.agree.textContent = die.differences.length
      ? "The die's pins differ from the HDL chip's: " + die.differences
        .map(([pin, ours, hdl]) => `${pin} is ${ours} on the die, ${hdl} in the HDL`)
        .join("; ")
      : "";
    this.canvas.setAttribute("aria-label", `the die at cycle ${die.cycle}, ` +
      `${die.differences.length ? "its pins differing from" : "its pins as"} the HDL chip's`);
    if (this.chosen !== null) this.describe(this.chosen);
    if (behind && !this.asking) {
      this.asking = true;
      requestAnimationFrame(() => { this.asking = false; this.send({ do: "die" }); });
    }
  }

  count() {
    let ones = 0;
    for (const v of this.view.values) ones += v === "1";
    return ones;
  }

  load(map) {
    this.map = map;
    const [x0, y0, x1, y1] = map.die;
    this.size = [x1 - x0, y1 - y0];
    this.names.replaceChildren(...map.cells.filter((c) => Object.keys(c[7]).length)
      .map((c) => element("option", { value: c[0] })));
    this.legend.replaceChildren(
      ...map.parts.flatMap((part, k) => [swatch(map.colours.parts[k]), ` ${part} `]),
      " — wires: ",
      ...map.layers.flatMap((layer, k) => [swatch(map.colours.layers[k]), ` ${layer} `]),
      "lit at 1, faint at 0; ", swatch(map.colours.pin), " the die's pins, filled at 1; " +
      `${map.process} cells, at most ${Math.round(map.max_clock_mhz)} MHz.`);
    this.layout();
  }

  // The whole die as wide as its section and no taller than the window (times the
  // zoom), its pixels the screen's.
  layout() {
    if (!this.map) return;
    const fits = Math.min(this.section.clientWidth - 24,
                          window.innerHeight * 0.9 * this.size[0] / this.size[1]);
    const width = Math.max(200, fits) * Number(this.zoom.value);
    const height = width * this.size[1] / this.size[0];
    const ratio = window.devicePixelRatio || 1;
    // Its own new height resizes the section: the same size again draws nothing anew.
    if (this.canvas.width === Math.round(width * ratio) && this.background) return;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.scale = this.canvas.width / this.size[0];
    this.background = null;
    if (this.view) this.draw();
  }

  // Die coordinates (micrometres, y up) to the canvas's pixels.
  px(x) { return (x - this.map.die[0]) * this.scale; }
  py(y) { return (this.map.die[3] - y) * this.scale; }

  // The cells, drawn once a size: the wires are drawn over them each frame.
  cells() {
    const canvas = new OffscreenCanvas(this.canvas.width, this.canvas.height);
    const g = canvas.getContext("2d");
    g.fillStyle = "#fafafa";
    g.fillRect(0, 0, canvas.width, canvas.height);
    // Each cell's edge, where a cell is wide enough on the screen to show one.
    const edges = this.scale >= 2;
    g.strokeStyle = "rgba(255, 255, 255, 0.7)";
    g.lineWidth = 1;
    for (const [, , part, x, y, w, h] of this.map.cells) {
      g.fillStyle = this.map.colours.parts[part];
      g.fillRect(this.px(x), this.py(y + h), w * this.scale, h * this.scale);
      if (edges) g.strokeRect(this.px(x), this.py(y + h), w * this.scale, h * this.scale);
    }
    return canvas;
  }

  draw() {
    const g = this.canvas.getContext("2d");
    this.background ??= this.cells();
    g.drawImage(this.background, 0, 0);
    const { wires, layers, colours } = this.map, values = this.view.values;
    const paths = layers.map(() => [new Path2D(), new Path2D()]);
    for (let k = 0; k < wires.length; k += 6) {
      const net = wires[k], on = net >= 0 && values[net] === "1" ? 1 : 0;
      const path = paths[wires[k + 1]][on];
      path.moveTo(this.px(wires[k + 2]), this.py(wires[k + 3]));
      path.lineTo(this.px(wires[k + 4]), this.py(wires[k + 5]));
    }
    const width = Math.max(1, this.scale * 0.5);
    layers.forEach((_, layer) => {
      g.strokeStyle = colours.layers[layer];
      for (const on of [0, 1]) {
        g.globalAlpha = on ? 1 : FAINT;
        g.lineWidth = on ? width * 1.6 : width;
        g.stroke(paths[layer][on]);
      }
    });
    g.globalAlpha = 1;
    // The die's pins on its edge, filled while at 1.
    const side = Math.max(4, this.scale * 3);
    const pin = colours.pin;
    g.strokeStyle = pin;
    g.lineWidth = 1.5;
    for (const [, x, y, net] of this.map.pins) {
      g.fillStyle = net >= 0 && values[net] === "1" ? pin : "#fff";
      g.fillRect(this.px(x) - side / 2, this.py(y) - side / 2, side, side);
      g.strokeRect(this.px(x) - side / 2, this.py(y) - side / 2, side, side);
    }
    if (this.critical.checked) this.drawCritical(g);
    if (this.chosen !== null) {
      const [, , , x, y, w, h] = this.map.cells[this.chosen];
      g.strokeStyle = "#000";
      g.lineWidth = Math.max(2, this.scale * 0.6);
      g.strokeRect(this.px(x), this.py(y + h), w * this.scale, h * this.scale);
    }
  }

  // The critical path as make die's timing gives it: a dashed line through its cells'
  // centres, from its first register to its last, as docs/die.svg draws it.
  drawCritical(g) {
    const at = new Map(this.map.cells.map((c) => [c[0], c]));
    g.beginPath();
    for (const name of this.map.critical) {
      const cell = at.get(name);
      if (!cell) continue;
      const [, , , x, y, w, h] = cell;
      g.lineTo(this.px(x + w / 2), this.py(y + h / 2));
    }
    g.setLineDash([8, 5]);
    g.strokeStyle = "#111";
    g.lineWidth = 2.5;
    g.stroke();
    g.setLineDash([]);
  }

  clicked(event) {
    if (!this.map) return;
    const box = this.canvas.getBoundingClientRect();
    const ratio = this.canvas.width / box.width;
    const x = (event.clientX - box.left) * ratio / this.scale + this.map.die[0];
    const y = this.map.die[3] - (event.clientY - box.top) * ratio / this.scale;
    const found = this.map.cells.findIndex(([, , , cx, cy, w, h]) =>
      x >= cx && x <= cx + w && y >= cy && y <= cy + h);
    if (found >= 0) this.pick(found);
  }

  choose(name) {
    const found = this.map?.cells.findIndex((c) => c[0] === name) ?? -1;
    if (found >= 0) this.pick(found);
    else this.cell.textContent = `The die has no cell ${name}.`;
  }

  pick(k) {
    this.chosen = k;
    this.describe(k);
    if (this.view) this.draw();
  }

  // A cell named: its type, its block, and each pin with its net and value.
  describe(k) {
    const [name, type, part, , , , , pins] = this.map.cells[k];
    const values = this.view?.values ?? "";
    const said = Object.entries(pins).map(([pin, net]) =>
      `${pin}=${values[net] ?? "?"} (${this.map.nets[net]})`);
    this.cell.textContent = `${name}, a ${type} of ${this.map.parts[part]}` +
      (said.length ? `: ${said.join(", ")}` : ", a spacer the flow added") +
      (this.view ? `, at cycle ${this.view.cycle}.` : ".");
  }
}

// A colour's square (set through the style's object: the page's policy forbids a
// style attribute).
function swatch(colour) {
  const square = element("span", { class: "swatch", "aria-hidden": "true" });
  square.style.background = colour;
  return square;
}
