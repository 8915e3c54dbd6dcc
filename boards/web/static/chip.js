// The chip's insides (docs/web.md, the chip message): the blocks of the paper's figure 2
// and the keyboard with their registers and controls by the paper's names, the
// controller's state diagram, and a clock in the person's hand. Every value comes from
// the server's chip session: the HDL chip, its golden model beside it, and a
// difference between them shown here, never hidden. Its words (the states and codes,
// appendix C's transitions, the blocks and what each shows) come with the first frame.

import { diagram, drawStrip, drawTree } from "./chipdraw.js";
import { DiePanel } from "./die.js";
import { element, toggle } from "./dom.js";
import { words as shared } from "./words.js";

let panel = null;
let opened = false;

export function openChip(root, opener, connection) {
  toggle(root, opener, opened);
  if (opened) return;
  opened = true;
  root.replaceChildren(element("p", { text: "Opening the chip…" }));
  connection.on("chip", (message) => {
    panel ??= new Panel(root, connection, message.words);
    panel.render(message);
  });
  connection.send({ kind: "chip", do: "open" });
}

// Whether the die is shown (the page's link says so), and showing it or hiding it.
export const dieShown = () => panel?.die.shown ?? false;
export function showDie(shown) {
  if (panel && panel.die.shown !== shown) panel.toggleDie();
}

// The frame's names of what the panel draws as pictures of their own: the board
// register's stones, the stack's entries (and its pointer, above which they are unused).
const BOARD = "board.board", ENTRIES = "stack.stackregs", POINTER = "stack.sp";
const RATES = [["1", "1 Hz"], ["2", "2 Hz"], ["10", "10 Hz"], ["100", "100 Hz"],
               ["full", "full speed"]];

// A value by its frame's name (or a pin's): a code by its name, a register read bit
// by bit as its bits.
function shown(words, path, value) {
  const codes = words.codes[path], bits = words.bits[path];
  if (codes) return codes[value];
  if (bits) return value.toString(2).padStart(bits, "0");
  return String(value);
}

// A stack entry's fields, each at its offset, as "i 3, a 1, bestr -1".
function entryText(words, entry) {
  return words.entry.map(([name, offset, width, signed]) => {
    let value = Math.floor(entry / 2 ** offset) % 2 ** width;
    if (signed && value >= 2 ** (width - 1)) value -= 2 ** width;
    return `${name} ${value}`;
  }).join(", ");
}

// The chip's blocks and wires as docs/chip.svg draws them (the paper's figure 2): each
// signal a wire carries is given its value, and a wire whose signal changed on the last
// edge is lit.
async function figure(section) {
  const answer = await fetch(new URL("chip.svg", import.meta.url));
  if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
  const svg = new DOMParser().parseFromString(await answer.text(), "image/svg+xml")
    .documentElement;
  ["width", "height"].forEach((size) => svg.removeAttribute(size));
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

function showWires(words, wires, view) {
  for (const { wire, labels } of wires) {
    let lit = false;
    for (const { text, label, name, paths } of labels) {
      const path = paths.find((p) => p in view.values);
      const value = path ? view.values[path] : view.pins[name];
      if (value === undefined) continue;
      const changed = path !== undefined && view.changed.includes(path);
      text.textContent = `${label} ${shown(words, path ?? name, value)}`;
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

// The block a frame's name is below ("board.board": board).
const blockOf = (path) => path.split(".")[0];

// The blocks, each with the values the server's words say it shows (a name below
// another block, the multiplexer's select shown where it steers too, or a pin, is named
// by the block showing it), the board register's stones and the stack's entries.
function blockSections(words) {
  const outputs = [];
  let places = [], entries = [];
  const output = (label, attributes = {}) =>
    element("output", { "aria-live": "off", "aria-label": label, ...attributes });
  const sections = words.blocks.map(([block, paths]) => {
    const list = element("dl", { class: "registers" });
    for (const path of paths) {
      const name = path.split(".").pop();
      const out = output(`${block} ${name}`);
      outputs.push({ path, out });
      list.append(element("dt", { text: name }), element("dd", {}, out));
    }
    const section = element("section", { class: `block ${block}`, "aria-label": block },
                            element("h3", { text: block }));
    if (block === blockOf(BOARD)) {
      places = shared.places.map((place) => output(`${block} ${place}`, { class: "cell" }));
      section.append(element("div", { class: "trial", role: "group",
                                      "aria-label": "the board register" }, ...places));
    }
    if (block === blockOf(ENTRIES)) {
      const fields = words.entry.map(([name]) => name).join(", ");
      entries = [...Array(words.depth)].map((_, k) => output(`${block} ${k}`));
      section.append(element("ol", { class: "stackregs", start: "0",
                                     "aria-label": `the stack's registers (${fields})` },
                             ...entries.map((out) => element("li", {}, out))));
    }
    section.append(list);
    return section;
  });
  return { sections, outputs, places, entries };
}

// The paper's E.2 beside the HDL's replay, two rows an edge as the paper prints them;
// the row of the edge shown is marked, and a click on a row jumps to it.
function e2Table(send) {
  const section = element("section", { class: "block e2", "aria-label": "the paper's E.2",
                                       hidden: true });
  let rows = [];
  return {
    section,
    draw(table) {
      const head = element("tr", {}, ...table.columns.map((c) => element("th", { text: c })),
                           element("th", { text: "the HDL chip" }));
      rows = table.rows.map((row) => {
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
      section.replaceChildren(
        element("h3", { text: "The paper's E.2, half a period before each rising edge " +
                              "and at it" }),
        element("p", { text: differing ? `${differing} rows differ from the paper`
                                       : `all ${table.rows.length} rows as in the paper` }),
        // A region of its own, scrolled by the keyboard too.
        element("div", { class: "e2rows", tabindex: "0", role: "region",
                         "aria-label": "E.2's rows" },
                element("table", {}, element("thead", {}, head),
                        element("tbody", {}, ...rows))));
      section.hidden = false;
    },
    forget() {
      section.hidden = true;
      rows = [];
    },
    mark(cycle) {
      rows.forEach((tr) => {
        const current = Number(tr.dataset.cycle) === cycle;
        tr.toggleAttribute("aria-current", current);
        if (current) tr.scrollIntoView({ block: "nearest" });
      });
    },
  };
}

// The session's waves as downloads: the VCD and its GTKWave save file, which the
// server streams from the session's folder.
function wavesOffer() {
  const downloads = element("p", { class: "downloads", hidden: true });
  return {
    downloads,
    offer(waves) {
      downloads.replaceChildren(`The first ${waves.cycles} cycles: `,
        ...waves.names.flatMap((name, k) => [
          element("a", { href: waves.urls[k], download: name, text: name }), " "]),
        `(also on the server in ${waves.folder}, where the save file finds its filters)`);
      downloads.hidden = false;
    },
  };
}

// The clock in the person's hand, and the chip's input pins: its keys, held until let
// go, and the pins the server's words name, each a checkbox.
function controls(words, send, cycle, toggleDie) {
  let running = null;
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
    ...shared.places.map((place, k) => button(place, () => send({ do: "key", place: k }),
                                              `hold key ${place}`)),
    button("let go", () => send({ do: "key", place: null }), "let go of every key"));
  const pins = Object.fromEntries(words.pins.map((name) => {
    const box = element("input", { type: "checkbox", id: `chip-${name}` });
    box.addEventListener("change", () => send({ do: "pin", pin: name,
                                                value: box.checked ? 1 : 0 }));
    return [name, [box, element("label", { for: `chip-${name}`, text: name })]];
  }));
  const dieButton = button("The die", toggleDie, "show the die, lit as the chip steps");
  dieButton.setAttribute("aria-expanded", "false");
  const clock = element("div", { class: "clock", role: "group", "aria-label": "the clock" },
    button("Back", () => send({ do: "back" }), "back one edge"),
    button("Step", () => send({ do: "step" }), "step one edge"),
    runButton, rate,
    button("Until it waits", () => send({ do: "until" }), "run until it waits"),
    jumpTo, button("Jump", () => send({ do: "jump", cycle: Number(jumpTo.value) })),
    button("New chip", () => send({ do: "new" }), "a new chip from power-up"),
    button("Replay E.2", () => send({ do: "e2" }), "replay E.2, the paper's session"),
    button("Waves", () => send({ do: "waves" }), "the session's waves"), dieButton,
    element("span", {}, "cycle ", cycle));
  return { clock, keys, pins, jumpTo, dieButton };
}

const svgOf = (name) => {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", name);
  svg.setAttribute("role", "img");
  return svg;
};

// The panel, drawn with the chip's `words`; `render(view)` shows a frame.
class Panel {
  constructor(root, connection, words) {
    this.words = words;
    // With the die shown, every message asks for its values at the frame shown too.
    this.send = (fields) => connection.send({ kind: "chip", ...fields,
                                              ...(this.die.shown ? { die: true } : {}) });
    this.die = new DiePanel(this.send);
    this.last = null;
    this.blocks = blockSections(words);
    this.wires = [];
    const architecture = element("section", { class: "block architecture",
                                              "aria-label": "the chip's blocks and wires" },
      element("h3", { text: "Blocks and wires (the paper's figure 2)" }));
    figure(architecture).then((found) => {
      this.wires = found;
      if (this.last) showWires(words, this.wires, this.last);
    }, (error) => architecture.append(element("p", { class: "differences",
      text: `The figure could not be loaded: ${error.message}` })));
    this.states = diagram(words);
    this.transition = element("p", { class: "transition", "aria-live": "off" });
    this.read = element("p", { class: "read" });
    this.cycle = element("output", { "aria-live": "off", "aria-label": "cycle" });
    this.differences = element("ul", { class: "differences" });
    this.stopped = element("p", { class: "differences" });
    this.strip = svgOf("strip");
    this.treeSvg = svgOf("tree");
    this.treeSvg.setAttribute("aria-label", "the search tree, none yet");
    this.treeSvg.setAttribute("height", "0");
    this.treeCount = element("output", { "aria-live": "off", "aria-label": "tree nodes" });
    this.tree = { begun: null, count: -1, boxes: [], lit: [], asked: 0 };
    this.e2 = e2Table(this.send);
    this.waves = wavesOffer();
    this.controls = controls(words, this.send, this.cycle, () => this.toggleDie());
    const { clock, keys, pins } = this.controls;
    root.replaceChildren(element("h2", { text: "The chip's insides" }), clock,
      element("div", { class: "chippins" }, ...Object.values(pins).flat()), keys,
      this.waves.downloads, this.stopped,
      element("div", { role: "alert" }, this.differences), this.die.section, architecture,
      element("div", { class: "blocks" }, ...this.blocks.sections,
              element("section", { class: "block controller-diagram",
                                   "aria-label": "the controller's states" },
                      this.states.svg, this.transition, this.read)),
      element("section", { class: "block waves", "aria-label": "the waves" },
              element("h3", { text: "Waves of the last cycles" }),
              element("div", { class: "scroll", tabindex: "0", role: "region",
                               "aria-label": "the strip of waves" }, this.strip)),
      element("section", { class: "block search", "aria-label": "the search tree" },
              element("h3", { text: "The search tree of the chip's move" }),
              element("p", {}, "nodes ", this.treeCount,
                      " (a click on a node jumps to the cycle that set its stone)"),
              this.treeSvg),
      this.e2.section);
  }

  toggleDie() {
    this.die.show(!this.die.shown);
    this.controls.dieButton.setAttribute("aria-expanded", String(this.die.shown));
  }

  render(view) {
    const { words, blocks } = this;
    if (view.die) this.die.render(view.die);
    this.last = view;
    this.cycle.value = `${view.cycle} of ${view.head}`;
    for (const { path, out } of blocks.outputs) {
      out.value = shown(words, path, view.values[path]);
      out.closest("dd").classList.toggle("changed", view.changed.includes(path));
      out.closest("dd").classList.toggle("differs", path in view.differences);
    }
    showWires(words, this.wires, view);
    // Each place of the board register is as many bits as tell its stones apart.
    const board = view.values[BOARD], stones = words.stones.length;
    blocks.places.forEach((cell, k) => {
      cell.value = words.stones[Math.floor(board / stones ** k) % stones];
      cell.className = `cell ${cell.value}`;
    });
    blocks.entries.forEach((out, k) => {
      out.value = entryText(words, view.values[ENTRIES][k]);
      out.parentElement.classList.toggle("above", k >= view.values[POINTER]);
    });
    this.renderStates(view);
    this.differences.replaceChildren(...Object.entries(view.differences).map(([k, d]) =>
      element("li", { text: `${k}: the HDL chip shows ${d.hdl}, ` +
                            `the golden model ${d.golden}` })));
    this.stopped.textContent = view.stopped || "";
    const { pins, jumpTo } = this.controls;
    for (const [name, [box]] of Object.entries(pins)) box.checked = !!view.pins[name];
    jumpTo.max = String(view.head);
    if (view.do_new) this.e2.forget();
    if (view.e2) this.e2.draw(view.e2);
    if (view.waves) this.waves.offer(view.waves);
    drawStrip(words, this.strip, view.strip, view.cycle);
    // The cycle shown is the strip's last: where its box, if narrower, is scrolled to.
    this.strip.parentElement.scrollLeft = this.strip.parentElement.scrollWidth;
    this.e2.mark(view.cycle);
    this.renderTree(view);
  }

  // The controller's state lit, the transition of the last edge, what it read there.
  renderStates(view) {
    const { svg, arrows, nodes } = this.states;
    for (const [state, node] of Object.entries(nodes)) {
      node.classList.toggle("current", state === view.state);
    }
    for (const [key, arrow] of Object.entries(arrows)) {
      arrow.classList.toggle("taken", view.transition !== null &&
                             key === view.transition.join(">"));
    }
    svg.setAttribute("aria-label", `the controller is in state ${view.state}`);
    this.transition.textContent = view.transition
      ? `last edge: ${view.transition[0]} to ${view.transition[1]}` : "power-up";
    this.read.textContent = view.read ? "it read " + Object.entries(view.read)
      .map(([k, v]) => `${k.split(".")[1]}=${v}`).join(" ") : "";
  }

  renderTree(view) {
    const tree = this.tree, svg = this.treeSvg;
    if (view.tree !== undefined) {
      tree.asked = 0;
      if (view.tree === null) {
        svg.replaceChildren();
        svg.setAttribute("height", "0");
        Object.assign(tree, { begun: null, count: 0, boxes: [], lit: [] });
      } else {
        tree.boxes = drawTree(this.words, svg, view.tree,
                              (cycle) => this.send({ do: "jump", cycle }));
        Object.assign(tree, { begun: view.tree.begun, count: view.tree.nodes.length,
                              lit: [] });
      }
      svg.setAttribute("aria-label", `the search tree, ${tree.count} nodes`);
    }
    const search = view.search;
    this.treeCount.value = search ? String(search.count) : "0";
    // The tree is asked for when its search or its size changed, at most twice a
    // second while the clock runs.
    const stale = search ? search.begun !== tree.begun || search.count !== tree.count
                         : tree.begun !== null;
    if (stale && view.tree === undefined && performance.now() - tree.asked > 500) {
      tree.asked = performance.now();
      this.send({ do: "tree" });
    }
    for (const k of tree.lit) tree.boxes[k]?.classList.remove("open");
    tree.lit = search && search.begun === tree.begun ? search.path : [];
    for (const k of tree.lit) tree.boxes[k]?.classList.add("open");
  }
}
