// The chip's insides (docs/web.md, the chip message): the blocks of the paper's figure 2
// and the keyboard with their registers and controls by the paper's names, the
// controller's state diagram, and a clock in the person's hand. Every value comes from
// the server's chip session: the HDL chip, its golden model beside it, and a
// difference between them shown here, never hidden.

import { element, PLACES, toggle } from "./dom.js";

let panel = null;

export function openChip(root, opener, connection) {
  toggle(root, opener, panel !== null);
  if (panel) return;
  panel = mount(root, connection);
  connection.on("chip", (message) => panel.render(message));
  connection.send({ kind: "chip", do: "open" });
}

// What each block shows, by the name the server's frame gives it below the block.
const BLOCKS = {
  board: ["p", "wins", "full", "lasti", "nextfree", "validkey"],
  move: ["choose", "i", "m", "random", "index"],
  value: ["r", "bestr", "a", "rgea", "rgbestr"],
  stack: ["sp", "ground"],
  controller: ["state", "choose", "toggleN", "usei", "nexti", "init", "call", "pop",
               "assignmove", "remember", "retbest", "negr", "sno", "clearr"],
  keyboard: ["keyboard", "keypressed", "key"],
  pins: ["led", "copyboard", "prompt", "fin", "win"],
};
// A control drawn in the block it steers: the multiplexer's select, in the move block.
const ALIASES = { "move.choose": "controller.choose" };
const STATES = ["waiting", "returned", "rating", "justreset", "finished",
                "userjustmoved", "doingbestmove", "setboardi"];
const CHOOSE = ["random", "i", "m", "key"];
// Appendix C's transitions (a reset goes to justreset from any state).
const ARROWS = [["justreset", "justreset"], ["justreset", "waiting"], ["waiting", "waiting"],
  ["waiting", "userjustmoved"], ["userjustmoved", "setboardi"],
  ["userjustmoved", "finished"], ["setboardi", "rating"], ["rating", "setboardi"],
  ["rating", "returned"], ["rating", "finished"], ["returned", "setboardi"],
  ["returned", "returned"], ["returned", "doingbestmove"], ["doingbestmove", "waiting"],
  ["finished", "finished"]];
// Laid out so that no arrow crosses a state: the search's loop below, the way out of
// it (doingbestmove) on the left, back up to waiting.
const AT = { justreset: [70, 40], waiting: [230, 40], userjustmoved: [390, 40],
             doingbestmove: [70, 150], setboardi: [230, 150], finished: [390, 150],
             returned: [70, 260], rating: [230, 260] };
const RATES = [["1", "1 Hz"], ["2", "2 Hz"], ["10", "10 Hz"], ["100", "100 Hz"],
               ["full", "full speed"]];

function shown(block, name, value) {
  if (name === "state") return STATES[value];
  if (name === "choose") return CHOOSE[value];
  if (name === "keyboard") return value.toString(2).padStart(9, "0");
  if (name === "led") return value.toString(2).padStart(18, "0");
  return String(value);
}

// The chip's blocks and wires as docs/chip.svg draws them (the paper's figure 2): each
// signal a wire carries is given its value, and a wire whose signal changed on the last
// edge is lit.
async function figure(section) {
  const answer = await fetch("/static/chip.svg");
  if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
  const svg = new DOMParser().parseFromString(await answer.text(), "image/svg+xml")
    .documentElement;
  ["width", "height"].forEach((size) => svg.removeAttribute(size));
  // Its style sheet would reach the whole page: each rule is kept to the figure.
  for (const style of svg.querySelectorAll("style")) {
    style.textContent = style.textContent.replace(/(^|})\s*\./g, "$1 svg.figure .");
  }
  svg.setAttribute("class", "figure");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the chip's blocks and the wires between them");
  section.append(document.importNode(svg, true));
  return [...section.querySelectorAll("g[data-from]")].map((wire) => ({
    wire,
    labels: [...wire.querySelectorAll("text.sig")].map((text) => {
      const label = text.textContent;
      // "led[18]" is led, "push.a" carries a: the names the frame gives them.
      const name = label.split(" ")[0].replace(/\[.*/, "").replace(/^push\./, "");
      const { from, to } = wire.dataset;
      return { text, label, name,
               paths: [`${from}.${name}`, `${to}.${name}`, name] };
    }),
  }));
}

function showWires(wires, view) {
  for (const { wire, labels } of wires) {
    let lit = false;
    for (const { text, label, name, paths } of labels) {
      const path = paths.find((p) => p in view.values);
      const value = path ? view.values[path] : view.pins[name];
      if (value === undefined) continue;
      const changed = path !== undefined && view.changed.includes(path);
      text.textContent = `${label} ${shown(path ? path.split(".")[0] : "pins", name, value)}`;
      text.classList.toggle("changed", changed);
      lit ||= changed;
    }
    wire.classList.toggle("changed", lit);
  }
}

function button(text, onClick, label) {
  const b = element("button", { type: "button", class: "action", text,
                                "aria-label": label });
  b.addEventListener("click", onClick);
  return b;
}

function diagram() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 460 290");
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
  for (const [from, to] of ARROWS) {
    const [x1, y1] = AT[from], [x2, y2] = AT[to];
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
  for (const state of STATES) {
    const [x, y] = AT[state];
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
function drawTree(svg, tree, jump) {
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
  svg.setAttribute("viewBox", `0 0 ${width} ${depth * row}`);
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
      title.textContent = `${PLACES[n[at.place]]} by the ${n[at.player] ? "user" : "chip"}` +
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
function drawStrip(svg, strip, current) {
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
  svg.setAttribute("viewBox", `0 0 ${label + cell * count} ${height}`);
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
        const shownValue = short === "state" ? STATES[v] : short === "choose" ? CHOOSE[v]
          : strip.widths[name] > 4 ? v.toString(16) : String(v);
        parts.push(make("text", { x: x + 3, y: y + row - 4, class: "value" },
                        shownValue.slice(0, Math.max(1, Math.floor((end - c) * cell / 6.5)))));
      });
    }
  });
  const at = label + (current - strip.first) * cell;
  parts.push(make("rect", { x: at, y: 0, width: cell, height, class: "now" }));
  svg.replaceChildren(...parts);
}

function mount(root, connection) {
  const send = (fields) => connection.send({ kind: "chip", ...fields });
  let last = null, running = null;

  const outputs = {};
  const blocks = Object.entries(BLOCKS).map(([block, names]) => {
    const list = element("dl", { class: "registers" });
    for (const name of names) {
      const out = element("output", { "aria-live": "off", "aria-label": `${block} ${name}` });
      outputs[`${block}.${name}`] = out;
      list.append(element("dt", { text: name }), element("dd", {}, out));
    }
    const section = element("section", { class: `block ${block}`, "aria-label": block },
                            element("h3", { text: block }));
    if (block === "board") {
      const grid = element("div", { class: "trial", role: "group",
                                    "aria-label": "the board register" });
      outputs.places = PLACES.map((place) => {
        const cell = element("output", { "aria-live": "off", "aria-label": `board ${place}`,
                                         class: "cell" });
        grid.append(cell);
        return cell;
      });
      section.append(grid);
    }
    if (block === "stack") {
      const table = element("ol", { class: "stackregs", start: "0",
                                    "aria-label": "the stack's registers (i, a, bestr)" });
      outputs.stack = [...Array(8)].map((_, k) => {
        const out = element("output", { "aria-live": "off", "aria-label": `stack ${k}` });
        table.append(element("li", {}, out));
        return out;
      });
      section.append(table);
    }
    section.append(list);
    return section;
  });
  const architecture = element("section", { class: "block architecture",
                                            "aria-label": "the chip's blocks and wires" },
                               element("h3", { text: "Blocks and wires (the paper's figure 2)" }));
  let wires = [];
  figure(architecture).then((found) => {
    wires = found;
    if (last) showWires(wires, last);
  }, (error) => architecture.append(element("p", { class: "differences",
    text: `The figure could not be loaded: ${error.message}` })));
  const { svg, arrows, nodes } = diagram();
  const transition = element("p", { class: "transition", "aria-live": "off" });
  const read = element("p", { class: "read" });
  const cycle = element("output", { "aria-live": "off", "aria-label": "cycle" });
  const differences = element("ul", { class: "differences", role: "alert" });
  const stripSvg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  stripSvg.setAttribute("class", "strip");
  stripSvg.setAttribute("role", "img");
  const treeSvg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  treeSvg.setAttribute("class", "tree");
  treeSvg.setAttribute("role", "img");
  const treeCount = element("output", { "aria-live": "off", "aria-label": "tree nodes" });
  let tree = { begun: null, count: -1, boxes: [], lit: [], asked: 0 };
  // The paper's E.2 beside the HDL's replay, two rows an edge as the paper prints
  // them; the row of the edge shown is marked.
  const e2 = element("section", { class: "block e2", "aria-label": "the paper's E.2",
                                  hidden: true });
  let e2Rows = [];
  function drawE2(table) {
    const head = element("tr", {}, ...table.columns.map((c) => element("th", { text: c })),
                         element("th", { text: "the HDL chip" }));
    e2Rows = table.rows.map((row) => {
      // A row half a period before edge n shows the chip as it stands after edge n - 1.
      const cycle = row.after ? row.cycle : row.cycle - 1;
      const verdict = row.differ.length
        ? row.differ.map((c) => `${c} ${row.hdl[table.columns.indexOf(c)]}`).join(", ")
        : "the same";
      const tr = element("tr", { class: row.differ.length ? "differs" : "",
                                 "aria-label": row.after ? `E.2 row ${row.cycle}`
                                   : `E.2 row ${row.cycle}, before its edge` },
        ...row.paper.map((f, k) => element("td", {
          text: f, class: row.differ.includes(table.columns[k]) ? "differs" : "" })),
        element("td", { text: verdict }));
      tr.addEventListener("click", () => send({ do: "jump", cycle }));
      tr.dataset.cycle = String(row.after ? row.cycle : -1);
      return tr;
    });
    const differing = table.rows.filter((r) => r.differ.length).length;
    e2.replaceChildren(
      element("h3", { text: "The paper's E.2, half a period before each rising edge " +
                            "and at it" }),
      element("p", { text: differing ? `${differing} rows differ from the paper`
                                     : `all ${table.rows.length} rows as in the paper` }),
      element("div", { class: "e2rows" },
              element("table", {}, element("thead", {}, head),
                      element("tbody", {}, ...e2Rows))));
    e2.hidden = false;
  }
  const stopped = element("p", { class: "differences" });
  // The session's waves as downloads: the VCD and its GTKWave save file.
  const downloads = element("p", { class: "downloads", hidden: true });
  let urls = [];
  function offerWaves(waves) {
    urls.forEach((url) => URL.revokeObjectURL(url));
    urls = [waves.vcd, waves.gtkw].map((text) =>
      URL.createObjectURL(new Blob([text], { type: "text/plain" })));
    downloads.replaceChildren(`The first ${waves.cycles} cycles: `,
      ...waves.names.flatMap((name, k) => [
        element("a", { href: urls[k], download: name, text: name }), " "]),
      `(also in ${waves.folder}, where the save file finds its filters)`);
    downloads.hidden = false;
  }

  const jumpTo = element("input", { type: "number", min: "0", value: "0",
                                    id: "chip-jump", "aria-label": "cycle to jump to" });
  const rate = element("select", { id: "chip-rate", "aria-label": "rate" },
    ...RATES.map(([v, t]) => element("option", { value: v, text: t })));
  rate.value = "2";
  const runButton = button("Run", () => (running ? stop() : run()));
  function stop() {
    clearInterval(running);
    running = null;
    runButton.textContent = "Run";
  }
  function run() {
    if (rate.value === "full") { send({ do: "until" }); return; }
    const hz = Number(rate.value);
    // Above 20 Hz several edges go in one message, twenty messages a second.
    const edges = Math.max(1, Math.round(hz / 20));
    running = setInterval(() => send({ do: "step", edges }), 1000 / Math.min(hz, 20));
    runButton.textContent = "Stop";
  }
  const keys = element("div", { class: "chipkeys", role: "group",
                                "aria-label": "the chip's keyboard pins" },
    ...PLACES.map((place, k) => button(place, () => send({ do: "key", place: k }),
                                       `hold key ${place}`)),
    button("let go", () => send({ do: "key", place: null }), "let every key go"));
  const pin = (name) => {
    const box = element("input", { type: "checkbox", id: `chip-${name}` });
    box.addEventListener("change", () => send({ do: "pin", pin: name,
                                                value: box.checked ? 1 : 0 }));
    return [box, element("label", { for: `chip-${name}`, text: name })];
  };
  const pins = { resetN: pin("resetN"), userbegins: pin("userbegins"), piN: pin("piN") };
  const clock = element("div", { class: "clock", role: "group", "aria-label": "the clock" },
    button("Back", () => send({ do: "back" }), "back one edge"),
    button("Step", () => send({ do: "step" }), "step one edge"),
    runButton, rate,
    button("Until it waits", () => send({ do: "until" }), "run until the chip waits"),
    jumpTo, button("Jump", () => send({ do: "jump", cycle: Number(jumpTo.value) })),
    button("New chip", () => send({ do: "new" }), "a new chip from power-up"),
    button("Replay E.2", () => send({ do: "e2" }), "replay the paper's E.2"),
    button("Waves", () => send({ do: "waves" }), "the session's waves"),
    element("span", {}, "cycle ", cycle));

  root.replaceChildren(element("h2", { text: "The chip's insides" }), clock,
    element("div", { class: "chippins" }, ...Object.values(pins).flat()), keys,
    downloads, stopped, differences, architecture,
    element("div", { class: "blocks" }, ...blocks,
            element("section", { class: "block controller-diagram",
                                 "aria-label": "the controller's states" },
                    svg, transition, read)),
    element("section", { class: "block waves", "aria-label": "the waves" },
            element("h3", { text: "Waves of the last cycles" }), stripSvg),
    element("section", { class: "block search", "aria-label": "the search tree" },
            element("h3", { text: "The search tree of the chip's move" }),
            element("p", {}, "nodes ", treeCount,
                    " (a click on a node jumps to the cycle that set its stone)"),
            treeSvg),
    e2);

  return {
    render(view) {
      last = view;
      cycle.value = `${view.cycle} of ${view.head}`;
      for (const [key, out] of Object.entries(outputs)) {
        if (Array.isArray(out)) continue;
        const [block, name] = key.split(".");
        const path = block === "pins" ? name : ALIASES[key] || key;
        out.value = shown(block, name, view.values[path]);
        out.closest("dd").classList.toggle("changed", view.changed.includes(path));
        out.closest("dd").classList.toggle("differs", path in view.differences);
      }
      showWires(wires, view);
      const board = view.values["board.board"];
      outputs.places.forEach((cell, k) => {
        const stone = (board >> (2 * k)) & 3;
        cell.value = ["empty", "chip", "user", "both"][stone];
        cell.className = `cell ${cell.value}`;
      });
      outputs.stack.forEach((out, k) => {
        const entry = view.values["stack.stackregs"][k];
        out.value = `i ${entry & 15}, a ${(entry >> 4) & 1}, bestr ${entry >> 5 ? -1 : 0}`;
        out.parentElement.classList.toggle("above", k >= view.values["stack.sp"]);
      });
      for (const [state, node] of Object.entries(nodes)) {
        node.classList.toggle("current", state === view.state);
      }
      for (const [key, arrow] of Object.entries(arrows)) {
        arrow.classList.toggle("taken", view.transition !== null &&
                               key === view.transition.join(">"));
      }
      svg.setAttribute("aria-label", `the controller is in state ${view.state}`);
      transition.textContent = view.transition
        ? `last edge: ${view.transition[0]} to ${view.transition[1]}` : "power-up";
      read.textContent = view.read ? "it read " + Object.entries(view.read)
        .map(([k, v]) => `${k.split(".")[1]}=${v}`).join(" ") : "";
      differences.replaceChildren(...Object.entries(view.differences).map(([k, d]) =>
        element("li", { text: `${k}: the HDL chip shows ${d.hdl}, ` +
                              `the golden model ${d.golden}` })));
      stopped.textContent = view.stopped || "";
      for (const [name, [box]] of Object.entries(pins)) box.checked = !!view.pins[name];
      jumpTo.max = String(view.head);
      if (view.do_new) { e2.hidden = true; e2Rows = []; }
      if (view.e2) drawE2(view.e2);
      if (view.waves) offerWaves(view.waves);
      drawStrip(stripSvg, view.strip, view.cycle);
      e2Rows.forEach((tr) => {
        const current = Number(tr.dataset.cycle) === view.cycle;
        tr.toggleAttribute("aria-current", current);
        if (current) tr.scrollIntoView({ block: "nearest" });
      });
      this.renderTree(view);
    },
    renderTree(view) {
      if (view.tree !== undefined) {
        tree.asked = 0;
        if (view.tree === null) {
          treeSvg.replaceChildren();
          tree = { ...tree, begun: null, count: 0, boxes: [], lit: [] };
        } else {
          tree.boxes = drawTree(treeSvg, view.tree, (cycle) => send({ do: "jump", cycle }));
          tree.begun = view.tree.begun;
          tree.count = view.tree.nodes.length;
          tree.lit = [];
        }
        treeSvg.setAttribute("aria-label", `the search tree, ${tree.count} nodes`);
      }
      const search = view.search;
      treeCount.value = search ? String(search.count) : "0";
      // The tree is asked for when its search or its size changed, at most twice a
      // second while the clock runs.
      const stale = search ? search.begun !== tree.begun || search.count !== tree.count
                           : tree.begun !== null;
      if (stale && view.tree === undefined && performance.now() - tree.asked > 500) {
        tree.asked = performance.now();
        send({ do: "tree" });
      }
      for (const k of tree.lit) tree.boxes[k]?.classList.remove("open");
      tree.lit = search && search.begun === tree.begun ? search.path : [];
      for (const k of tree.lit) tree.boxes[k]?.classList.add("open");
    },
    get last() { return last; },
  };
}
