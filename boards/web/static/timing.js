// From a click to the frame that shows its answer: the time a person waits. An action
// is stamped when it is sent; when the state that answers it has been drawn, the next
// animation frame is the first the screen can show it in. A wait over half a second is
// said on the page while it lasts (Waits).

const SAID_AFTER_MS = 500;

export class Timings {
  constructor(line) {
    this.line = line;
    this.pending = new Map();
    this.done = [];           // { id, what, ms, board_ms }
  }

  sent(id, what) {
    this.pending.set(id, { what, at: performance.now() });
  }

  shown(id, boardMs) {
    const sent = this.pending.get(id);
    if (!sent) return;
    this.pending.delete(id);
    const finish = () => {
      const ms = performance.now() - sent.at;
      this.done.push({ id, what: sent.what, ms, board_ms: boardMs });
      this.line.textContent = `Last answer: ${ms.toFixed(0)} ms from the click to the ` +
        `lights, ${boardMs.toFixed(0)} ms of it at the board.`;
    };
    // A tab in the background draws no frames (and runs no frame callbacks): there is
    // nothing to wait for there.
    if (document.hidden) finish();
    else requestAnimationFrame(finish);
  }
}

// The waits for the server's answers: once one has lasted half a second, `line` (a
// polite status) says what the page waits for and for how long, and what the server
// says it is doing meanwhile (its progress messages), until every answer has come.
// The seconds are not read out: a screen reader hears the line when it changes in words.
export class Waits {
  constructor(line) {
    this.line = line;
    this.said = document.createElement("span");
    this.seconds = document.createElement("span");
    this.seconds.setAttribute("aria-hidden", "true");
    line.replaceChildren(this.said, this.seconds);
    this.waiting = new Map();     // the kind of message awaited: { said, since }
    this.doing = null;            // the server's last progress message
    this.timer = null;
  }

  asked(kind, said) {
    if (!this.waiting.has(kind)) this.waiting.set(kind, { said, since: performance.now() });
    this.tick();
  }

  // Progress with nothing asked is a job of the server's own: said at once.
  progress(message) {
    this.doing = message;
    if (!this.waiting.size) {
      this.waiting.set(null, { said: "The console is busy",
                               since: performance.now() - SAID_AFTER_MS });
    }
    this.tick();
  }

  answered(kind) {
    this.waiting.delete(kind);
    this.waiting.delete(null);
    this.tick();
  }

  failed() {
    this.waiting.clear();
    this.tick();
  }

  tick() {
    clearTimeout(this.timer);
    const waits = [...this.waiting.values()];
    if (!waits.length) this.doing = null;
    const since = Math.min(...waits.map((wait) => wait.since));
    const waited = performance.now() - since;
    this.line.hidden = !waits.length || waited < SAID_AFTER_MS;
    if (!waits.length) return;
    if (!this.line.hidden) {
      const oldest = waits.find((wait) => wait.since === since), doing = this.doing;
      const step = doing?.step === undefined ? ""
        : `, step ${doing.step}${doing.steps === undefined ? "" : ` of ${doing.steps}`}`;
      const text = `${oldest.said}${doing ? `: ${doing.doing}${step}` : ""}…`;
      if (this.said.textContent !== text) this.said.textContent = text;
      this.seconds.textContent = ` ${(waited / 1000).toFixed(1)} s`;
    }
    this.timer = setTimeout(() => this.tick(),
                            this.line.hidden ? SAID_AFTER_MS - waited : 100);
  }
}
