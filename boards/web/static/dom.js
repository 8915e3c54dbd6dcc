// What every view builds its page with: an element with attributes and children, and
// the console's nine keys, named as the server names the places (words.js), with their
// keyboard layout.

import { words } from "./words.js";

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}

// A section opened by a button: shown the first time (`opened` false), then shown and
// hidden in turn, the button saying which for a screen reader.
export function toggle(root, opener, opened) {
  root.hidden = opened ? !root.hidden : false;
  opener.setAttribute("aria-expanded", String(!root.hidden));
}

// The number pad's layout (7 8 9 on top) and the letters under the fingers.
const KEYS = { "7": 0, "8": 1, "9": 2, "4": 3, "5": 4, "6": 5, "1": 6, "2": 7, "3": 8,
               q: 0, w: 1, e: 2, a: 3, s: 4, d: 5, z: 6, x: 7, c: 8 };

export function placeOfKey(event) {
  return KEYS[event.key.toLowerCase()];
}

// The nine keys as buttons named A1 to C3 (after the text on their face, where they
// show one: a name holds what it shows) and described by what they show, with the
// columns and rows labelled; `press(k)` is called with the place of a click.
export function keypad(label, press) {
  const keys = element("div", { class: "keys", role: "group", "aria-label": label });
  const buttons = words.places.map((place, k) => {
    const button = element("button", { type: "button", class: "key", "aria-label": place,
                                       "data-place": place,
                                       "aria-describedby": `place-${k}` },
                           element("span", { class: "led", "aria-hidden": "true" }),
                           // Its text read as a person reads the key: "4 C1".
                           element("span", { class: "face", "aria-hidden": "true" }), " ",
                           element("span", { class: "place", "aria-hidden": "true",
                                             text: place }),
                           element("span", { id: `place-${k}`, class: "hidden" }));
    button.addEventListener("click", () => press(k));
    return button;
  });
  // The board is square, and a place's name is its column's letter, then its row.
  const side = Math.sqrt(buttons.length);
  const names = words.places;
  keys.append(element("span", { class: "corner" }),
              ...names.slice(0, side).map((name) => element("span", {
                class: "column", text: name[0], "aria-hidden": "true" })));
  for (let row = 0; row < side; row++) {
    keys.append(element("span", { class: "row", text: names[side * row].slice(1),
                                  "aria-hidden": "true" }),
                ...buttons.slice(side * row, side * (row + 1)));
  }
  return { keys, buttons };
}

// Show on key `button` an LED colour (off, red, green, both), the text on its face, and
// its description.
export function showKey(button, { led = "off", face = "", described }) {
  button.querySelector(".led").className = `led ${led}`;
  button.querySelector(".face").textContent = face;
  button.setAttribute("aria-label", face ? `${face} ${button.dataset.place}`
                                         : button.dataset.place);
  button.querySelector(".hidden").textContent = described;
}
