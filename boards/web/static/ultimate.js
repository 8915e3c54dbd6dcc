// Ultimate Tic-Tac-Toe on the console (docs/ultimate.md): nine small boards in a big
// one, the cells the player to move may take marked, the big board's owners, and the
// engine's move with its value and the nodes it searched. A cell is a button named
// by its number 0-80 and described by what it holds.

import { element } from "./dom.js";

export function mount(root, { act }) {
  let state = null;
  const title = element("h2", { class: "cartridge", text: "Ultimate Tic-Tac-Toe" });
  const grid = element("div", { class: "ultimate-grid", role: "group",
                                "aria-label": "The 81 cells" });
  const boards = [];
  const cells = [];
  for (let b = 0; b < 9; b++) {
    const small = element("div", { class: "small", role: "group",
                                   "aria-label": `small board ${b + 1}` });
    for (let k = 0; k < 9; k++) {
      const cell = 9 * b + k;
      const button = element("button", { type: "button", class: "cell",
                                         "aria-label": `cell ${cell}`,
                                         "aria-describedby": `cell-${cell}` },
                             element("span", { class: "face", "aria-hidden": "true" }),
                             element("span", { id: `cell-${cell}`, class: "hidden" }));
      button.addEventListener("click", () => act("move", { cell }));
      small.append(button);
      cells.push(button);
    }
    boards.push(small);
    grid.append(small);
  }
  const big = element("table", { class: "big" }, element("caption", { text: "The big board" }));
  const bigCells = [];
  for (let r = 0; r < 3; r++) {
    const row = element("tr");
    for (let c = 0; c < 3; c++) {
      const td = element("td");
      bigCells.push(td);
      row.append(td);
    }
    big.append(row);
  }
  const turn = element("p", { class: "state", role: "status" });
  const engine = element("p", { class: "engine" });
  const youBegin = element("button", { type: "button", class: "action",
                                       text: "New game: you begin (X)" });
  const itBegins = element("button", { type: "button", class: "action",
                                       text: "New game: the engine begins" });
  const people = element("button", { type: "button", class: "action",
                                     text: "New game for two people" });
  youBegin.addEventListener("click", () => act("new", { machine: true, person_begins: true }));
  itBegins.addEventListener("click", () => act("new", { machine: true, person_begins: false }));
  people.addEventListener("click", () => act("new", { machine: false }));

  root.append(element("div", { class: "console ultimate" }, title,
    element("div", { class: "front" }, grid,
      element("div", { class: "controls" }, turn, engine, big, youBegin, itBegins, people))));

  return {
    render(next) {
      state = next;
      const legal = new Set(state.legal);
      cells.forEach((button, cell) => {
        const mark = state.cells[cell];
        button.querySelector(".face").textContent = mark;
        button.className = `cell${mark ? ` ${mark}` : ""}${legal.has(cell) ? " legal" : ""}` +
                           `${state.last === cell ? " last" : ""}`;
        button.disabled = !legal.has(cell);
        button.querySelector(".hidden").textContent =
          mark ? `${mark}${state.last === cell ? ", the last move" : ""}`
               : legal.has(cell) ? "empty, you may move here" : "empty";
      });
      boards.forEach((small, b) => {
        const owner = state.boards[b];
        small.className = `small${owner ? ` won ${owner === "-" ? "full" : owner}` : ""}` +
                          `${state.open.includes(b) ? " open" : ""}`;
        small.dataset.owner = owner === "-" ? "–" : owner;
        small.setAttribute("aria-label", `small board ${b + 1}` +
          (owner === "-" ? ", full" : owner ? `, won by ${owner}` : ""));
      });
      bigCells.forEach((td, b) => {
        const owner = state.boards[b];
        td.textContent = owner === "-" ? "–" : owner || (state.open.includes(b) ? `[${b + 1}]` : `${b + 1}`);
      });
      const names = state.names;
      turn.textContent = state.winner !== "open" ? `Game over: ${state.result}`
        : `${names[state.to_move]} to move` + (state.machine ? "" : "");
      engine.textContent = state.reply === null ? "" :
        `The engine played ${state.reply.cell} (board ${Math.floor(state.reply.cell / 9) + 1}, ` +
        `cell ${state.reply.cell % 9 + 1}); its value ${state.reply.value}, ` +
        `${state.reply.nodes} nodes searched.`;
    },
  };
}
