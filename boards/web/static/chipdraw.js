// The chip panel's pictures in SVG (chip.js): the controller's states and appendix C's
// transitions, the search tree of the chip's move, and the strip of waves. What they
// name (the states, the transitions, the codes, the players) is the server's words.

import { words as shared } from "./words.js";

// The controller's states where the server's words place them on a grid, and appendix
// C's transitions between them.
export function diagram(words) {
  const at = Object.fromEntries(Object.entries(words.diagram)
    .map(([state, [column, row]]) => [state, [70 + 160 * column, 40 + 110 * row]]));
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 -12 460 302");     // the loops above the top row too
  svg.setAttribute("role", "img");
  svg.setAttribute("class", "states");
  const defs = document.createElementNS(ns, "defs");
  const marker = document.createElementNS(ns, "marker");
  Object.entries({ id: "chip-arrowhead", viewBox: "0 0 10 10", refX: 9, refY: 5,
                   markerWidth: 9, markerHeight: 9, markerUnits: "userSpaceOnUse",
                   orient: "auto-start-reverse" })
    .forEach(([k, v]) => marker.setAttribute(k, v));
  const head = document.createElementNS(ns, "path");
  head.setAttribute("d", "M0,0 L10,5 L0,10 z");
  head.setAttribute("class", "head");
  marker.append(head);
  defs.append(marker);
  svg.append(defs);
  const arrows = {};
  for (const [from, to] of words.transitions) {
    const [x1, y1] = at[from], [x2, y2] = at[to];
    const path = document.createElementNS(ns, "path");
    // From edge to edge of the two ellipses, a pair of opposite arrows side by side.
    const dx = x2 - x1, dy = y2 - y1, length = Math.hypot(dx, dy) || 1;
    const edge = 1 / Math.hypot(dx / 58, dy / 18);
    const [ox, oy] = [-dy / length * 4, dx / length * 4];
    path.setAttribute("d", from === to
      ? `M${x1 - 10},${y1 - 18} C${x1 - 40},${y1 - 55} ${x1 + 40},${y1 - 55} ${x1 + 10},${y1 - 18}`
      : `M${x1 + dx * edge + ox},${y1 + dy * edge + oy} ` +
        `L${x2 - dx * edge + ox},${y2 - dy * edge + oy}`);
    path.setAttribute("class", "arrow");
    path.setAttribute("marker-end", "url(#chip-arrowhead)");
    svg.append(path);
    arrows[`${from}>${to}`] = path;
  }
  const nodes = {};
  for (const state of words.codes["controller.state"]) {
    const [x, y] = at[state];
    const g = document.createElementNS(ns, "g");
    const ellipse = document.createElementNS(ns, "ellipse");
    Object.entries({ cx: x, cy: y, rx: 58, ry: 18 }).forEach(([k, v]) =>
      ellipse.setAttribute(k, v));
    const text = document.createElementNS(ns, "text");
    Object.entries({ x, y: y + 5, "text-anchor": "middle" }).forEach(([k, v]) =>
      text.setAttribute(k, v));
    text.textContent = state;
    g.append(ellipse, text);
    g.setAttribute("class", "node");
    svg.append(g);
    nodes[state] = g;
  }
  return { svg, arrows, nodes };
}

// The search tree as an icicle: each node a box under its parent, as wide as the
// leaves below it, one row per depth; coloured by its value seen by its player, a cut
// outlined. A click on a node jumps the clock to the cycle that set its stone.
export function drawTree(words, svg, tree, jump) {
  const ns = "http://www.w3.org/2000/svg";
  const at = Object.fromEntries(tree.fields.map((f, k) => [f, k]));
  const nodes = tree.nodes;
  const children = nodes.map(() => []);
  const roots = [];
  nodes.forEach((n, k) => (n[at.parent] === null ? roots : children[n[at.parent]]).push(k));
  const leaves = new Array(nodes.length).fill(0);
  for (let k = nodes.length - 1; k >= 0; k--) {
    leaves[k] = children[k].length ? children[k].reduce((t, c) => t + leaves[c], 0) : 1;
  }
  const total = roots.reduce((t, k) => t + leaves[k], 0) || 1;
  const depth = Math.max(1, ...nodes.map((n) => n[at.depth] + 1));
  const width = 1000, row = 24;
  // As wide as its box, each row the same height however deep the tree.
  svg.setAttribute("viewBox", `0 0 ${width} ${depth * row}`);
  svg.setAttribute("height", depth * row);
  svg.setAttribute("preserveAspectRatio", "none");
  const boxes = [];
  const place = (list, x0) => {
    let x = x0;
    for (const k of list) {
      const n = nodes[k];
      const w = (leaves[k] / total) * width;
      const rect = document.createElementNS(ns, "rect");
      const value = n[at.value];
      Object.entries({ x, y: n[at.depth] * row, width: Math.max(w - 0.3, 0.3),
                       height: row - 3 }).forEach(([a, v]) => rect.setAttribute(a, v));
      rect.setAttribute("class", `node v${value === null ? "u" : value}` +
                                 (n[at.cut] ? " cut" : ""));
      const title = document.createElementNS(ns, "title");
      title.textContent = `${shared.places[n[at.place]]} by the ${words.players[n[at.player]]}` +
        `, cycle ${n[at.cycle]}, bound a=${n[at.bound]}, value ` +
        `${value === null ? "not yet" : value}${n[at.cut] ? ", cut after it" : ""}`;
      rect.append(title);
      rect.addEventListener("click", () => jump(n[at.cycle]));
      svg.append(rect);
      boxes[k] = rect;
      place(children[k], x);
      x += w;
    }
  };
  svg.replaceChildren();
  place(roots, 0);
  return boxes;
}

// The strip of waves: the clock first, then the pins and each block's registers and
// controls as GTKWave's view groups them, over the last cycles up to the one shown.
export function drawStrip(words, svg, strip, current) {
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attributes, text) => {
    const node = document.createElementNS(ns, tag);
    Object.entries(attributes).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const label = 150, cell = 34, row = 15;
  const names = strip.groups.flatMap(([group, list]) => [[group], ...list.map((n) => [null, n])]);
  const count = strip.values[names.find(([g]) => g === null)[1]].length;
  const height = (names.length + 1) * row + 4;
  // At one scale whatever the cycles shown, a pixel a unit: the page's box scrolls.
  svg.setAttribute("viewBox", `0 0 ${label + cell * count} ${height}`);
  svg.setAttribute("width", label + cell * count);
  svg.setAttribute("height", height);
  svg.setAttribute("aria-label", `waves of cycles ${strip.first} to ${strip.first + count - 1}`);
  const parts = [];
  // The clock: high for the second half of each cycle, rising at its edge.
  let clock = `M${label},${row - 2}`;
  for (let c = 0; c < count; c++) {
    const x = label + c * cell;
    clock += ` L${x},${row - 2} L${x},3 L${x + cell / 2},3 L${x + cell / 2},${row - 2}`;
  }
  parts.push(make("text", { x: 2, y: row - 3, class: "name" }, "cp"),
             make("path", { d: clock + ` L${label + count * cell},${row - 2}`, class: "bit" }));
  names.forEach(([group, name], k) => {
    const y = (k + 1) * row + 2;
    if (group) {
      parts.push(make("text", { x: 2, y: y + row - 4, class: "group" }, group));
      return;
    }
    const short = name.includes(".") ? name.split(".")[1] : name;
    parts.push(make("text", { x: 14, y: y + row - 4, class: "name" }, short));
    const values = strip.values[name];
    if (strip.widths[name] === 1) {
      let d = "";
      values.forEach((v, c) => {
        const yy = v ? y + 2 : y + row - 3;
        d += `${c ? "L" : "M"}${label + c * cell},${yy} L${label + (c + 1) * cell},${yy} `;
      });
      parts.push(make("path", { d, class: "bit" }));
    } else {
      values.forEach((v, c) => {
        if (c > 0 && values[c - 1] === v) return;
        let end = c + 1;
        while (end < count && values[end] === v) end++;
        const x = label + c * cell;
        parts.push(make("rect", { x: x + 1, y: y + 1, width: (end - c) * cell - 2,
                                  height: row - 3, class: "bus" }));
        const codes = words.codes[name];
        const shownValue = codes ? codes[v] : strip.widths[name] > 4 ? v.toString(16)
          : String(v);
        parts.push(make("text", { x: x + 3, y: y + row - 4, class: "value" },
                        shownValue.slice(0, Math.max(1, Math.floor((end - c) * cell / 6.5)))));
      });
    }
  });
  const at = label + (current - strip.first) * cell;
  parts.push(make("rect", { x: at, y: 0, width: cell, height, class: "now" }));
  svg.replaceChildren(...parts);
}
