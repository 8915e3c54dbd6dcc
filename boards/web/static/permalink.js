// Links to a moment (docs/web.md, "Links to a moment"): the page's address holds the
// cartridge, every act played since it was chosen and, with the chip's insides open,
// what was done to the chip and the cycle shown; opened, the page plays it all again
// through the messages a person's clicks send, each after the last one's answer. Only
// the messages are read and sent here, never a transport: a WebSocket or a worker
// carries them alike.

import { words } from "./words.js";

// The address is written a moment after the answers stop (the clock running at 100 Hz
// answers twenty times a second, more than a browser lets a page rewrite its address).
const WRITE_MS = 250;
const WORD = /^[A-Za-z_]\w*$/;
const LITERALS = { true: true, false: false, null: null };
// The kinds of message the page sends that are answered, and the kind of their answer.
const ANSWERED = { act: "state", game: "state", chip: "chip" };

// -- the address's text ----------------------------------------------------------------

class Bad extends Error {}

// A field's value: a whole number, true, false, null, a word as it is, any other text
// quoted (with what an address cannot hold written %XX); what no act holds, as its JSON
// quoted, which the server refuses as it would from any page.
function valueText(value) {
  if (value === null || typeof value === "boolean" || Number.isInteger(value)) {
    return String(value);
  }
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return WORD.test(text) && !(text in LITERALS) ? text : `'${encodeURIComponent(text)}'`;
}

function parseValue(text) {
  if (text in LITERALS) return LITERALS[text];
  if (/^-?\d+$/.test(text)) return Number(text);
  if (WORD.test(text)) return text;
  if (/^'.*'$/.test(text)) {
    try {
      return decodeURIComponent(text.slice(1, -1));
    } catch {
      throw new Bad(`${text} is not a text`);
    }
  }
  throw new Bad(`${text} is not a value`);
}

// A message's fields as [name, value] pairs, an object's own as name.field.
function flat(fields, above = "") {
  return Object.entries(fields).flatMap(([name, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? flat(value, `${above}${name}.`)
                                                : [[`${above}${name}`, value]]);
}

// An act or a chip's action as the page sends it, in a few letters: a key by its
// place's name ("B3"), any other by what it does and its fields
// ("switch(number=0;on=false)").
export function token(message) {
  const { kind, id, do: what, ...fields } = message;
  const pairs = flat(fields);
  if (what === "key" && pairs.length === 1 && pairs[0][0] === "place" &&
      words.places[pairs[0][1]] !== undefined) {
    return words.places[pairs[0][1]];
  }
  return pairs.length ? `${what}(${pairs.map(([n, v]) => `${n}=${valueText(v)}`).join(";")})`
                      : what;
}

// The message's fields (its `do` among them) a token stands for.
export function untoken(text) {
  const place = words.places.indexOf(text);
  if (place >= 0) return { do: "key", place };
  const found = /^([a-z_]\w*)(?:\((.+)\))?$/.exec(text);
  if (!found) throw new Bad(`${text} is not an act`);
  const message = { do: found[1] };
  for (const pair of found[2] ? found[2].split(";") : []) {
    const at = pair.indexOf("=");
    const names = pair.slice(0, at).split(".");
    if (at < 0 || !names.every((name) => WORD.test(name))) {
      throw new Bad(`${pair} is not a field`);
    }
    let into = message;
    for (const name of names.slice(0, -1)) into = into[name] ??= {};
    into[names.at(-1)] = parseValue(pair.slice(at + 1));
  }
  return message;
}

// A moment: { game, acts, check, chip: null or { actions, cycle, die } }, the acts and
// actions as messages' fields, `die` whether the die is shown at that cycle.
export function format(moment) {
  const parts = [`game=${moment.game}`];
  if (moment.acts.length) parts.push(`acts=${moment.acts.map(token).join(",")}`);
  if (moment.check) parts.push(`check=${moment.check}`);
  if (moment.chip) {
    const { actions, cycle } = moment.chip;
    if (actions.length) parts.push(`chip=${actions.map(token).join(",")}`);
    parts.push(`cycle=${cycle}`);
    if (moment.chip.die) parts.push("die=1");
  }
  return parts.join("&");
}

// The moment an address's fragment holds, as far as it can be read, and what could
// not be (null when all could).
export function parse(fragment) {
  const moment = { game: null, acts: [], check: null, chip: null };
  let problem = null;
  const tokens = (text, into, what) => {
    for (const [k, part] of (text ? text.split(",") : []).entries()) {
      try {
        into.push(untoken(part));
      } catch (error) {
        if (!(error instanceof Bad)) throw error;
        problem ??= `its ${what} ${k + 1}: ${error.message}`;
        return;
      }
    }
  };
  const sections = new Map(fragment.replace(/^#/, "").replace(/%27/gi, "'").split("&")
    .filter(Boolean).map((section) => {
      const at = section.indexOf("=");
      return at < 0 ? [section, ""] : [section.slice(0, at), section.slice(at + 1)];
    }));
  for (const name of sections.keys()) {
    if (!["game", "acts", "check", "chip", "cycle", "die"].includes(name)) {
      problem ??= `it holds ${name.slice(0, 20)}, which a link does not`;
    }
  }
  moment.game = sections.get("game") || null;
  moment.check = sections.get("check") || null;
  tokens(sections.get("acts"), moment.acts, "act");
  if (sections.has("cycle")) {
    const cycle = sections.get("cycle");
    if (/^\d+$/.test(cycle)) {
      moment.chip = { actions: [], cycle: Number(cycle), die: sections.has("die") };
      tokens(sections.get("chip"), moment.chip.actions, "chip action");
    } else {
      problem ??= `its cycle, ${cycle.slice(0, 20)}, is no cycle`;
    }
  } else if (sections.has("chip") || sections.has("die")) {
    problem ??= "it has the chip's actions or its die but no cycle to show";
  }
  return { moment, problem };
}

// What the page's game shows, in a few letters: two links' moments are the same where
// their checks are (FNV-1a of the state, less what was said and the answer's timing).
function check(state) {
  const { said, answers, board_ms: ms, ...shown } = state;
  let hash = 0x811c9dc5;
  for (const letter of JSON.stringify(shown)) {
    hash = Math.imul(hash ^ letter.codePointAt(0), 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

// -- the page's moment, and a link played ------------------------------------------------

// `page`: say(text) on the page's error line, status(text), id() for an act,
// insides() whether the chip's insides are shown, and showInsides(shown), which shows
// or hides them (a promise); dieShown() and showDie(shown), the same of the die.
export class Links {
  constructor(connection, page) {
    this.connection = connection;
    this.page = page;
    this.asked = [];          // the messages sent whose answers are awaited, in order
    this.game = null;         // the game playing, by its folder
    this.acts = [];           // each act played since it was chosen, as it was sent
    this.check = null;
    this.chip = { actions: [], cycle: 0, head: 0 };
    this.welcomes = 0;
    this.unasked = false;     // the state after a welcome answers nothing asked
    this.replaying = false;
    this.written = null;
    this.settled = Promise.resolve();     // the link being played (read by the tests)
    const send = connection.send.bind(connection);
    // Every message the page sends passes here: an answered one is awaited in order.
    connection.send = (message, waiting) => {
      let asked = null;
      if (message.kind in ANSWERED) {
        asked = { message };
        asked.answered = new Promise((resolve) => { asked.resolve = resolve; });
        this.asked.push(asked);
      }
      send(message, waiting);
      return asked?.answered;
    };
    connection.on("welcome", (message) => this.welcomed(message));
    connection.on("state", (state) => this.stated(state));
    connection.on("chip", (view) => this.clocked(view));
    connection.on("error", (error) => { if (!error.final) this.answer(null, error); });
    window.addEventListener("hashchange", () => {
      if (location.hash !== this.written) this.open(location.hash, false);
    });
    // A reload, or the tab closed, finds the address as the page last showed it.
    window.addEventListener("pagehide", () => this.write(true));
  }

  welcomed(message) {
    this.welcomes += 1;
    this.resumed = message.resumed;
    this.games = message.games;
    this.unasked = true;
    // Connected again: what was asked on the connection that was lost is not answered.
    if (this.welcomes > 1) for (const asked of this.asked.splice(0)) asked.resolve(null);
  }

  // The first message awaited that `kind` answers (any, for an error), answered.
  answer(kind, message) {
    const k = this.asked.findIndex((a) => kind === null ||
                                          ANSWERED[a.message.kind] === kind);
    if (k < 0) return null;
    const [asked] = this.asked.splice(kind === null ? 0 : k, 1);
    asked.resolve(message);
    return asked.message;
  }

  stated(state) {
    const first = this.unasked && this.welcomes === 1;
    const asked = this.unasked ? null : this.answer("state", state);
    this.unasked = false;
    if (typeof state.name !== "string") return;     // a state the page cannot draw
    if (asked?.kind === "game" || state.name !== this.game) this.acts = [];
    if (asked?.kind === "act") {
      const { kind, id, ...act } = asked;
      this.acts.push(act);
    }
    this.game = state.name;
    this.check = check(state);
    if (first) this.open(location.hash, true);
    else this.write();
  }

  clocked(view) {
    const asked = this.answer("chip", view);
    const chip = this.chip;
    if (asked) this.record(asked, view);
    chip.cycle = view.cycle;
    chip.head = view.head;
    this.write();
  }

  // A chip's action answered by `view`, kept as few actions that do the same: steps
  // one after another as one, a move through the history as a jump to where it went
  // (one that clocked nothing, followed by another, is left out), keys and a pin held
  // as the last held; what only shows (the tree, the waves) is not kept.
  record(asked, view) {
    const chip = this.chip, actions = chip.actions, last = actions.at(-1);
    const clocked = view.head > chip.head;
    // Whether the die is shown is the link's own field, not an action's.
    const { kind, do: what, die, ...fields } = asked;
    if (what === "new" || what === "e2") actions.splice(0);
    if (what === "e2" || what === "until") actions.push({ message: { do: what } });
    if (what === "step" && view.cycle > chip.cycle) {
      if (last?.message.do === "step") last.message.edges += view.cycle - chip.cycle;
      else actions.push({ message: { do: "step", edges: view.cycle - chip.cycle } });
    }
    if (["back", "forward", "jump"].includes(what)) {
      if (last?.message.do === "jump" && !last.clocked) actions.pop();
      actions.push({ message: { do: "jump", cycle: view.cycle }, clocked });
    }
    if (what === "key" || what === "pin") {
      if (last?.message.do === what && last.message.pin === fields.pin) actions.pop();
      actions.push({ message: { do: what, ...fields } });
    }
  }

  // The moment the page shows: a jump last, which clocked nothing, is the cycle shown.
  moment() {
    const actions = [...this.chip.actions];
    while (actions.length && actions.at(-1).message.do === "jump" && !actions.at(-1).clocked) {
      actions.pop();
    }
    return { game: this.game, acts: this.acts, check: this.check,
             chip: this.page.insides() ? { actions: actions.map((a) => a.message),
                                           cycle: this.chip.cycle,
                                           die: this.page.dieShown() } : null };
  }

  // The page's address rewritten to the moment it shows, a while after the last
  // answer (`now`: at once); never while a link is being played.
  write(now = false) {
    clearTimeout(this.timer);
    if (this.replaying || this.game === null) return;
    const written = () => {
      this.written = `#${format(this.moment())}`;
      if (location.hash !== this.written) history.replaceState(history.state, "", this.written);
    };
    if (now) written();
    else this.timer = setTimeout(written, WRITE_MS);
  }

  // The link in `fragment` played, after any being played; `first`: as the page opens.
  open(fragment, first) {
    this.replaying = true;
    this.settled = this.settled.then(async () => {
      this.replaying = true;
      this.changed = false;
      let said = null;
      try {
        const { moment, problem } = parse(fragment);
        if (moment.game !== null) {
          said = await this.play(moment, first) ??
                 (problem && `This link will not do: ${problem}; it was played as far as it ` +
                            "could be read.");
        } else if (fragment.replace("#", "")) {
          said = "This page's address is not a link to a moment: " +
                 `${problem ?? "it names no cartridge"}.`;
        }
      } catch (error) {
        said = `This link could not be played: ${error.message}`;
      } finally {
        this.replaying = false;
        this.write(true);
      }
      if (said) this.page.say(said);
      if (this.changed) {
        this.page.status(said ? "Connected: the link, played as far as it would go."
                              : "Connected: the link's moment, played again.");
      }
    });
    return this.settled;
  }

  // Said while a link is played: it may clock the chip a while.
  changing() {
    if (!this.changed) this.page.status("Playing the link…");
    this.changed = true;
  }

  // `moment` played: its game, its acts, then the chip's insides. What went wrong,
  // in one line, or nothing.
  async play(moment, first) {
    const game = this.games.find((g) => g.name === moment.game);
    if (!game) {
      return `This link's cartridge, ${moment.game.slice(0, 40)}, is not on this console ` +
             `(its cartridges: ${this.games.map((g) => g.name).join(", ")}); the link ` +
             "was not played.";
    }
    // A reload finds its board as it left it; a fresh board of the link's game is
    // played from as it is, the same board in a box as the link's, its chance the same.
    const same = moment.game === this.game;
    const board = first && this.resumed && same && moment.check === this.check
      ? this.keep(moment) : await this.replay(moment, game, first && !this.resumed && same);
    if (board?.refused) return board.refused;
    const chip = await this.insides(moment.chip);
    return chip ?? board?.differs ?? null;
  }

  keep(moment) {
    this.acts = [...moment.acts];
    return null;
  }

  async replay(moment, game, fresh) {
    const count = moment.acts.length;
    this.changing();
    if (!fresh) {
      const answer = await this.connection.send({ kind: "game", number: game.number });
      if (answer?.kind !== "state") {
        return { refused: `This link's cartridge could not be played: ${said(answer)}.` };
      }
    }
    for (const [k, act] of moment.acts.entries()) {
      const answer = await this.connection.send({ kind: "act", ...act, id: this.page.id() });
      if (answer?.kind !== "state") {
        return { refused: `This link's act ${k + 1} of ${count}, ${token(act)}, was ` +
                          `refused: ${said(answer)}; the rest of the link was not played.` };
      }
    }
    if (moment.check && moment.check !== this.check) {
      return { differs: "This link's acts were played, but the board differs from the " +
                        "link's: a machine that draws by chance drew otherwise here." };
    }
    return null;
  }

  // The chip's insides shown as `chip` has them (null: hidden): a new chip, the
  // link's actions, and its cycle shown.
  async insides(chip) {
    if (!chip) {
      if (this.page.insides()) await this.page.showInsides(false);
      return null;
    }
    this.changing();
    await this.page.showInsides(true);
    const opening = this.asked.find((a) => a.message.kind === "chip" &&
                                           a.message.do === "open");
    if (opening) await opening.answered;
    const actions = chip.actions[0]?.do === "e2" ? chip.actions
                                                 : [{ do: "new" }, ...chip.actions];
    for (const [k, action] of actions.entries()) {
      const answer = await this.chipAction(action);
      if (answer?.kind !== "chip") {
        const n = k + actions.length - chip.actions.length;
        return `This link's chip action ${n} of ${chip.actions.length}, ${token(action)}, ` +
               `was refused: ${said(answer)}; the rest of the link was not played.`;
      }
    }
    await this.chipAction({ do: "jump", cycle: chip.cycle });
    this.page.showDie(Boolean(chip.die));
    if (this.chip.cycle !== chip.cycle) {
      return `This link shows the chip at cycle ${chip.cycle}, past its last, ` +
             `${this.chip.head}.`;
    }
    return null;
  }

  // One of the chip's actions: a step or a jump asked again while it goes on, as one
  // message clocks a bounded number of edges.
  async chipAction(action) {
    const target = action.do === "step" ? this.chip.cycle + action.edges
      : action.do === "jump" ? action.cycle : null;
    for (;;) {
      const from = this.chip.cycle;
      const message = target === null ? action : action.do === "step"
        ? { do: "step", edges: target - from } : action;
      if (target !== null && from === target) return { kind: "chip" };
      const answer = await this.connection.send({ kind: "chip", ...message });
      if (target === null || answer?.kind !== "chip" || answer.cycle === from) return answer;
    }
  }
}

// The server's answer to a message of the link's, or why there was none.
function said(answer) {
  return answer?.kind === "error" ? answer.text : "the connection was lost";
}
