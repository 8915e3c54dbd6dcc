// David Dickerson's Tactic-Toe on the console (docs/tactic.md): each player plans three
// places, numbered 1-9 row by row, revealed together step by step; against the
// machine, or two people at one screen, each plan hidden once entered.

import { element, keypad, placeOfKey, showKey } from "./dom.js";

const STEP = { placed: "placed", taken: "fails (taken)", bounced: "bounces" };

export function mount(root, { act }) {
  let state = null;
  let plan = [];              // the places clicked for the plan being entered
  let first = null;           // two people: A's plan, hidden, while B plans

  const title = element("h2", { class: "cartridge", text: "Tactic-Toe" });
  const { keys, buttons } = keypad("The board", (k) => choose(k + 1));
  const who = element("p", { class: "state", role: "status" });
  const planned = element("p", { class: "plan" });
  const typed = element("input", { id: "plan-typed", inputmode: "numeric", maxlength: 3,
                                   size: 4, autocomplete: "off" });
  const reveal = element("button", { type: "button", class: "action", text: "Reveal" });
  const clear = element("button", { type: "button", class: "action", text: "Clear" });
  const machine = element("button", { type: "button", class: "action",
                                      text: "New game against the machine" });
  const people = element("button", { type: "button", class: "action",
                                     text: "New game for two people" });
  const rounds = element("ol", { class: "rounds" });
  reveal.addEventListener("click", () => submit());
  clear.addEventListener("click", () => { plan = []; draw(); });
  typed.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      plan = [...typed.value.trim()].map(Number);
      submit();
    }
  });
  machine.addEventListener("click", () => { reset(); act("new", { machine: true }); });
  people.addEventListener("click", () => { reset(); act("new", { machine: false }); });

  root.append(element("div", { class: "console tactic" }, title,
    element("div", { class: "front" }, keys,
      element("div", { class: "controls" }, who, planned,
        element("label", { for: "plan-typed" }, "Or type the plan: "), typed,
        element("div", { class: "buttons" }, reveal, clear), machine, people)),
    element("h3", { text: "Rounds" }), rounds));

  function reset() {
    plan = [];
    first = null;
  }

  function choose(place) {
    if (state.over || plan.length === 3) return;
    plan.push(place);
    draw();
  }

  function submit() {
    const text = plan.join("");
    if (!state.machine && first === null) {
      // A's plan is kept here, unseen, until B has planned too.
      first = text;
      plan = [];
      draw();
      return;
    }
    const fields = state.machine ? { a: text } : { a: first, b: text };
    reset();
    typed.value = "";
    act("plan", fields);
  }

  function draw() {
    const player = state.machine ? "Your (X)" : first === null ? "A's (X)" : "B's (O)";
    who.textContent = state.over ? `Game over: ${state.result}`
                                 : `Round ${state.round}: ${player} plan.`;
    planned.textContent = state.over ? "" : `Plan: ${plan.join(" ") || "(click three places)"}`;
    reveal.disabled = state.over || plan.length !== 3;
    buttons.forEach((button, k) => {
      const mark = state.board[k];
      const chosen = plan.indexOf(k + 1);
      showKey(button, {
        led: mark === "X" ? "green" : mark === "O" ? "red" : "off",
        face: chosen >= 0 ? `${chosen + 1}.` : mark || String(k + 1),
        described: `${mark || "empty"}, place ${k + 1}` +
                   (chosen >= 0 ? `, move ${chosen + 1} of the plan` : ""),
      });
      button.disabled = state.over;
    });
  }

  return {
    render(next) {
      state = next;
      rounds.replaceChildren(...state.rounds.map((played) => element("li", {},
        `Round ${played.round}: X planned ${played.a.join(" ")}, O planned ` +
        `${played.b.join(" ")}. `,
        ...played.steps.map((step, n) => element("span", { class: "step",
          text: `Move ${n + 1}: X ${step.x} ${STEP[step.x_was]}, O ${step.o} ` +
                `${STEP[step.o_was]}. ` })))));
      draw();
    },
    key(event) {
      const k = placeOfKey(event);
      if (k === undefined) {
        if (event.key === "Enter" && plan.length === 3) { submit(); return true; }
        if (event.key === "Backspace") { plan.pop(); draw(); return true; }
        return false;
      }
      choose(k + 1);
      buttons[k].focus();
      return true;
    },
  };
}
