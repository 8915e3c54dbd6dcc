// The bomb module of Keep Talking and Nobody Explodes on the console (docs/ktane.md):
// the edgework, the keypad with its labels, Up Next, the strikes, PASS and the solved
// lamp. A key is named by its place and described by its label or the piece on it.

import { element, keypad, placeOfKey, showKey } from "./dom.js";

export function mount(root, { act }) {
  let state = null;
  const title = element("h2", { class: "cartridge" });
  const edge = element("p", { class: "edgework" });
  const { keys, buttons } = keypad("The keypad", (k) => press(k));
  const up = element("p", { class: "up", role: "img" });
  const strikes = element("p", { class: "strikes", role: "img" });
  const solved = element("p", { class: "lamp", role: "img" },
                         element("span", { class: "bulb", "aria-hidden": "true" }),
                         element("span", { text: "solved", "aria-hidden": "true" }));
  const pass = element("button", { type: "button", class: "action pass", text: "PASS" });
  pass.addEventListener("click", () => act("pass"));

  const digit = element("input", { type: "number", min: 0, max: 9, value: 7, id: "edge-digit" });
  const port = element("input", { type: "checkbox", id: "edge-port" });
  const lit = element("input", { type: "number", min: 0, max: 9, value: 1, id: "edge-lit" });
  const unlit = element("input", { type: "number", min: 0, max: 9, value: 2, id: "edge-unlit" });
  const given = element("input", { type: "checkbox", id: "edge-given" });
  const reading = element("input", { type: "checkbox", id: "edge-reading" });
  const fresh = element("button", { type: "button", class: "action", text: "New module" });
  fresh.addEventListener("click", () => {
    const fields = { shuffled: !reading.checked };
    if (given.checked) {
      fields.edgework = { digit: Number(digit.value), port: port.checked ? 1 : 0,
                          lit: Number(lit.value), unlit: Number(unlit.value) };
    }
    act("new", fields);
  });
  const labelled = (input, text) => element("label", { for: input.id }, input, ` ${text}`);
  const form = element("fieldset", { class: "new-module" },
    element("legend", { text: "The next module" }),
    labelled(given, "this edgework, not drawn:"),
    labelled(digit, "serial number's last digit"), labelled(port, "parallel port"),
    labelled(lit, "lit indicators"), labelled(unlit, "unlit indicators"),
    labelled(reading, "keys labelled in reading order, as on the front panel"), fresh);

  root.append(element("div", { class: "console bomb" }, title, edge,
    element("div", { class: "front" }, keys,
            element("div", { class: "controls" }, up, strikes, solved, pass)),
    form));

  function press(k) {
    act("press", { label: state.labels[k] });
  }

  return {
    render(next) {
      state = next;
      title.textContent = "The bomb module Tic-Tac-Toe";
      const e = state.edgework;
      edge.textContent = `Serial number …${e.digit} · parallel port: ` +
        `${e.port ? "yes" : "no"} · indicators: ${e.lit} lit, ${e.unlit} unlit`;
      buttons.forEach((button, k) => {
        const piece = state.keypad[k];
        showKey(button, { led: piece === "X" ? "red" : piece === "O" ? "green" : "off",
                          face: piece || String(state.labels[k]),
                          described: piece ? `${piece}, label ${state.labels[k]}`
                                           : `label ${state.labels[k]}` });
      });
      up.textContent = state.solved ? "Up Next: —" : `Up Next: ${state.up}`;
      up.setAttribute("aria-label", state.solved ? "Up Next: none, solved"
                                                 : `Up Next: ${state.up}`);
      strikes.textContent = `Strikes: ${"✗".repeat(state.strikes)}${state.struck ? " (strike!)" : ""}`;
      strikes.setAttribute("aria-label", `Strikes: ${state.strikes}`);
      solved.classList.toggle("on", state.solved);
      solved.setAttribute("aria-label", `solved: ${state.solved ? "lit" : "dark"}`);
      pass.disabled = state.solved;
      buttons.forEach((button) => { button.disabled = state.solved; });
    },
    key(event) {
      if (event.key.toLowerCase() === "p") {
        act("pass");
        return true;
      }
      const k = placeOfKey(event);
      if (k === undefined || state.solved) return false;
      press(k);
      buttons[k].focus();
      return true;
    },
  };
}
