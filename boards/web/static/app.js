// The page: the connection, the list of cartridges, and the view of the game playing,
// loaded by its name (nine.js, bomb.js, ...) when the server's state names it: only a
// view its welcome listed for one of its games is ever loaded. The page's address is
// a link to the moment it shows (permalink.js).

import { element } from "./dom.js";
import { Links } from "./permalink.js";
import { Connection } from "./socket.js";
import { Timings, Waits } from "./timing.js";
import { learn } from "./words.js";

const $ = (id) => document.getElementById(id);
const connection = new Connection((text) => status(text), new Waits($("progress")));
const timings = new Timings($("timing"));
let games = [];
let views = new Set();    // the views the server listed, the only modules loaded
let view = null;          // { name, api } of the view drawn now
let drawing = Promise.resolve();      // each state drawn in turn, after the last
let nextId = 1;

function status(text) {
  $("connection").textContent = text;
}

function say(lines) {
  const list = $("said");
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  }
  while (list.children.length > 50) list.firstElementChild.remove();
  list.lastElementChild?.scrollIntoView({ block: "nearest" });
}

function showError(text) {
  const error = $("error");
  error.textContent = text;
  error.hidden = !text;
}

// What a view calls to act on the game: every action carries an id, and the state
// that answers it is timed from the click to the frame that shows it.
export function act(what, fields = {}) {
  const id = nextId++;
  timings.sent(id, what);
  showError("");
  connection.send({ kind: "act", do: what, id, ...fields });
}

// The chip's insides shown or hidden, opened the first time; the die among them.
let insides = null;
async function showInsides(shown) {
  if ($("chip").hidden === !shown) return;
  insides ??= await import("./chip.js");
  insides.openChip($("chip"), $("chip-open"), connection);
  links.write();
}

connection.on("welcome", (message) => {
  learn(message.words);
  games = message.games;
  views = new Set(games.map((game) => game.view));
  const select = $("games");
  select.replaceChildren(...games.map((game) => {
    const option = document.createElement("option");
    option.value = game.number;
    option.textContent = `${game.number}  ${game.title}`;
    return option;
  }));
  select.disabled = games.length < 2;
  const machines = games.filter((game) => game.match);
  $("match-open").hidden = machines.length < 1 || message.port !== null;
  status(message.resumed ? "Connected: the same board as before."
                         : "Connected: a board of your own.");
});

// A state that cannot be drawn is said, on the page and in the browser's console, and
// the next is drawn as if it had not happened.
connection.on("state", (state) => {
  drawing = drawing.then(() => draw(state)).catch((error) => {
    console.error("The page could not draw the game's state:", error);
    showError(`The page could not draw the game: ${error.message}. ` +
              "The next answer draws it again.");
  });
});

// A final error (every board taken, the game went on in another tab) is the
// connection's status; any other is said once, until the next action.
connection.on("error", (message) => { if (!message.final) showError(message.text); });

async function draw(state) {
  if (!view || view.name !== state.view) {
    if (!views.has(state.view)) {
      throw new Error(`the server named a view (${String(state.view).slice(0, 40)}) ` +
                      "that none of its games has");
    }
    const module = await import(`./${state.view}.js`);
    const root = $("view");
    root.replaceChildren();
    view = { name: state.view, api: module.mount(root, { act, games }) };
  }
  $("games").value = state.game;
  view.api.render(state);
  $("view").setAttribute("aria-busy", "false");
  if (state.said.length) say(state.said);
  if (state.answers != null) timings.shown(state.answers, state.board_ms);
}

// Another cartridge: the view it replaces goes at once, its name said while it loads.
$("games").addEventListener("change", (event) => {
  const game = games.find((g) => g.number === Number(event.target.value));
  const root = $("view");
  root.setAttribute("aria-busy", "true");
  root.replaceChildren(element("p", { class: "loading", text: `Loading ${game.title}…` }));
  view = null;
  connection.send({ kind: "game", number: game.number }, `Loading ${game.title}`);
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (view?.api.key?.(event)) event.preventDefault();
});

$("match-open").addEventListener("click", async () => {
  const { openMatch } = await import("./match.js");
  openMatch($("match"), $("match-open"), connection, games);
});

$("chip-open").addEventListener("click", () => showInsides($("chip").hidden));

// The address copied: it opens this moment.
$("link-copy").addEventListener("click", async () => {
  links.write(true);
  const said = $("link-said");
  try {
    await navigator.clipboard.writeText(location.href);
    said.textContent = "Copied: the link opens this moment.";
  } catch {
    // Over plain http from another machine a browser copies nothing for a page.
    said.textContent = "The browser would not copy it: the link is the page's address.";
  }
  clearTimeout(said.timer);
  said.timer = setTimeout(() => { said.textContent = ""; }, 4000);
});

// After the page's own listeners: a link's line is said after the server's.
const links = new Links(connection, { say: showError, status, id: () => nextId++,
                                      insides: () => !$("chip").hidden, showInsides,
                                      dieShown: () => insides?.dieShown() ?? false,
                                      showDie: (shown) => insides?.showDie(shown) });
connection.open();
window.ttt = { timings, connection, links };   // read by the browser tests and make benchmark
