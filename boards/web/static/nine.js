// The console's front panel for a game of nine places (the 1990 chip, first free, the
// museum's machines), drawn as the board's (docs/boards.md): the 3x3 keys with their
// two-colour LEDs, the lamps, the switches and reset. A key is a button named by its
// place, A1 to C3, and described by what its LED shows, so that a screen reader can
// play, and so can a test.

import { element, keypad, placeOfKey, showKey } from "./dom.js";
import { words } from "./words.js";

// An LED's colour for who holds its place: red the machine, green the person.
const LEDS = { empty: "off", machine: "red", person: "green", both: "both" };

// Microseconds as a person reads them: a move of a few clocks is not "0.00 ms".
function duration(us) {
  if (us < 1000) return `${us.toFixed(us < 10 ? 2 : 0)} µs`;
  return `${(us / 1000).toFixed(2)} ms`;
}

export function mount(root, { act }) {
  // Who holds a place, by its code, and each code's mark, as the server words them.
  const { empty, machine, person } = words.holders;
  const holder = Object.fromEntries(Object.entries(words.holders)
    .map(([who, code]) => [code, who]));
  let state = null;
  let entering = null;      // the position being entered while reset is held, or null

  const title = element("h2", { class: "cartridge" });
  const { keys, buttons } = keypad("The keys", (k) => press(k));

  const lamps = element("div", { class: "lamps", role: "group", "aria-label": "Lamps" });
  const switches = element("div", { class: "switches", role: "group",
                                     "aria-label": "Switches" });
  const reset = element("button", { type: "button", class: "reset", text: "New game" });
  reset.addEventListener("click", () => act("new"));
  const hold = element("button", { type: "button", class: "hold", "aria-pressed": "false",
                                   text: "Hold reset: enter a position" });
  hold.addEventListener("click", () => holdReset());
  const stateLine = element("p", { class: "state", role: "status" });
  const statusLine = element("p", { class: "line" }, element("span", { text: "Status line " }),
                             element("code"));
  const think = element("table", { class: "think" },
                        element("caption", { text: "Its moves and think times" }),
                        element("thead", {}, element("tr", {},
                          element("th", { scope: "col", text: "move" }),
                          element("th", { scope: "col", text: "clock cycles" }),
                          element("th", { scope: "col", text: "time" }))),
                        element("tbody"));

  root.append(element("div", { class: "console" }, title,
    element("div", { class: "front" }, keys,
            element("div", { class: "controls" }, lamps, switches, reset, hold)),
    stateLine, statusLine, think));

  function machineWord() {
    return state.machine.replace(/^the /, "");
  }

  function press(k) {
    if (entering) {
      // Reset held: each press steps the place empty, yours, the machine's, as the
      // front panel's keys step the position register.
      entering[k] = { [empty]: person, [person]: machine, [machine]: empty }[entering[k]]
        ?? empty;
      draw();
      return;
    }
    act("key", { place: k });
  }

  function holdReset() {
    if (entering) {
      const position = entering.map((v) => words.marks[v]).join("");
      entering = null;
      act("new", { position });
    } else {
      entering = words.places.map(() => empty);
    }
    draw();
  }

  function draw() {
    const board = entering || state.board;
    const described = { empty: "empty", machine: machineWord(), person: "you",
                        both: "both" };
    buttons.forEach((button, k) => showKey(button, {
      led: LEDS[holder[board[k]]], described: described[holder[board[k]]] }));
    hold.setAttribute("aria-pressed", String(Boolean(entering)));
    hold.textContent = entering ? "Release reset: begin from this position"
                                : "Hold reset: enter a position";
    reset.disabled = Boolean(entering);
    keys.classList.toggle("entering", Boolean(entering));
  }

  function drawLamps() {
    const names = [...state.lamp_names];
    while (names.length < state.lamps.length) names.push(`lamp ${names.length} (unused)`);
    lamps.replaceChildren(...state.lamps.map((on, n) => element("p",
      { class: `lamp${on ? " on" : ""}${n === 2 || names[n] === "blunder" ? " red" : ""}`,
        "aria-label": `${names[n]}: ${on ? "lit" : "dark"}`, role: "img" },
      element("span", { class: "bulb", "aria-hidden": "true" }),
      element("span", { text: names[n], "aria-hidden": "true" }))));
  }

  function drawSwitches() {
    switches.replaceChildren(...state.switch_names.map((name, n) => {
      const on = state.switches[n];
      const button = element("button", { type: "button", role: "switch", class: "switch",
                                         "aria-checked": String(on) },
                             element("span", { class: "lever", "aria-hidden": "true" }),
                             element("span", { text: name }));
      button.addEventListener("click", () => act("switch", { number: n, on: !on }));
      return button;
    }));
  }

  function drawThink() {
    const megahertz = state.clock_hz / 1e6;
    think.tBodies[0].replaceChildren(...state.moves.map(({ move, cycles }) =>
      element("tr", {}, element("td", { text: move }),
              element("td", { text: cycles === null ? "opening" : String(cycles) }),
              element("td", { text: cycles === null ? "" :
                `${duration(cycles / megahertz)} at ${megahertz} MHz` }))));
    think.hidden = state.moves.length === 0;
  }

  return {
    render(next) {
      state = next;
      title.textContent = state.title;
      const begins = state.you_begin ? "you begin" : `${state.machine} begins`;
      stateLine.textContent = state.over
        ? `Game over: ${state.result}  Next game: ${begins}.`
        : `${state.state[0].toUpperCase()}${state.state.slice(1)}; next game: ${begins}.`;
      statusLine.querySelector("code").textContent = state.line;
      drawLamps();
      drawSwitches();
      drawThink();
      draw();
    },
    key(event) {
      const k = placeOfKey(event);
      if (k === undefined) return false;
      press(k);
      buttons[k].focus();
      return true;
    },
  };
}
