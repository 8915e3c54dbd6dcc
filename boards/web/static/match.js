// Two machines play each other (the server's relay, docs/web.md): pick two machines of
// the cartridge, then one game shown move by move from an opening, or every opening
// with its table of results. Each machine's stones have its own colour.

import { element, toggle } from "./dom.js";
import { words } from "./words.js";

let panel = null;

export function openMatch(root, opener, connection, games) {
  toggle(root, opener, panel !== null);
  if (panel) return;
  panel = mount(root, connection, games.filter((game) => game.match));
  connection.on("match", (message) => panel.render(message));
}

function choice(id, text, options, value) {
  const select = element("select", { id },
    ...options.map(([v, t]) => element("option", { value: v, text: t })));
  select.value = value;
  return [element("label", { for: id, text }), select];
}

function mount(root, connection, machines) {
  const places = words.places;
  const list = machines.map((game) => [game.number, game.title]);
  const [firstLabel, first] = choice("match-first", "First machine", list, list[0][0]);
  const [secondLabel, second] = choice("match-second", "Second machine", list,
                                       list[Math.min(1, list.length - 1)][0]);
  const [opensLabel, opens] = choice("match-opens", "Opens", [[0, "the first"],
                                                             [1, "the second"]], 0);
  const [placeLabel, place] = choice("match-place", "on", places.map((p, k) => [k, p]), 4);
  const one = element("button", { type: "button", class: "action",
                                  text: "One game, move by move" });
  const every = element("button", { type: "button", class: "action",
                                    text: "Every opening" });
  const stop = element("button", { type: "button", class: "action", text: "Stop" });
  const board = element("div", { class: "match-board", role: "group",
                                 "aria-label": "The match's board" });
  const cells = places.map((p) => {
    const cell = element("span", { class: "stone", role: "img", "aria-label": `${p}: empty` });
    board.append(cell);
    return cell;
  });
  const moves = element("ol", { class: "match-moves", "aria-label": "The moves" });
  const verdict = element("p", { class: "state", role: "status" });
  const table = element("table", { class: "match-table", hidden: true });
  const machinesOf = () => [Number(first.value), Number(second.value)];
  one.addEventListener("click", () => connection.send({
    kind: "match", do: "game", machines: machinesOf(), opens: Number(opens.value),
    place: Number(place.value) }));
  every.addEventListener("click", () => connection.send({
    kind: "match", do: "openings", machines: machinesOf() }));
  stop.addEventListener("click", () => connection.send({ kind: "match", do: "stop" }));

  root.append(element("div", { class: "console match" },
    element("h2", { text: "Two machines play each other" }),
    element("div", { class: "match-choices" }, firstLabel, first, secondLabel, second,
            opensLabel, opens, placeLabel, place),
    element("div", { class: "buttons" }, one, every, stop),
    element("div", { class: "front" }, board, moves), verdict, table));

  function drawGame(game, names) {
    game.board.forEach((by, k) => {
      cells[k].className = `stone${by === null ? "" : ` m${by}`}`;
      cells[k].textContent = by === null ? "" : String(by + 1);
      cells[k].setAttribute("aria-label", `${places[k]}: ${by === null ? "empty" : names[by]}`);
    });
    moves.replaceChildren(...game.moves.map((move) => element("li", {
      text: `${names[move.by]}: ${move.place}` +
            (move.cycles === null ? " (the opening)" : `, ${move.cycles} clock cycles`) })));
  }

  function drawTable(message) {
    const names = message.names;
    const head = element("tr", {}, element("th", { scope: "col", text: "opening" }),
      element("th", { scope: "col", text: `${names[0]} opens` }),
      element("th", { scope: "col", text: `${names[1]} opens` }));
    const rows = places.map((p, k) => element("tr", {}, element("th", { scope: "row", text: p }),
      ...[0, 1].map((opener) => {
        const game = message.games.find((g) => g.opener === opener &&
                                               g.moves[0].place === p);
        return element("td", { text: game ? `${game.result} ` +
          game.moves.map((m) => m.place).join(" ") : "…" });
      })));
    const s = message.score;
    table.replaceChildren(element("caption", { text:
      `Over ${s.games} of 18 openings: ${names[0]} won ${s.wins[0]}, ${names[1]} won ` +
      `${s.wins[1]}, ${s.draws} draws.` }), head, ...rows);
    table.hidden = false;
  }

  return {
    render(message) {
      const names = message.names;
      if (message.mode === "game") {
        drawGame(message.game, names);
        verdict.textContent = message.game.over ? message.game.result
          : `${message.titles[0]} (1) against ${message.titles[1]} (2): playing…`;
      } else {
        drawGame(message.games[message.games.length - 1], names);
        drawTable(message);
        verdict.textContent = message.done ? "Every opening played."
                                           : "Playing every opening…";
      }
    },
  };
}
