// The page's connection to the console: JSON messages with a `kind` (docs/web.md), over
// one WebSocket to `make serve`'s server, or, on the static site (whose page says so in
// a meta tag), to the console in a Web Worker of this page (worker.js). Each panel
// listens to the kinds it draws; the session the server gives is kept for as long as
// the tab lives, so a reload finds the same board.

const KEY = "ttt-console-session";
// The kind of message that answers each kind the page sends, and what the page says
// while it waits for it (a match's stop is answered by none).
const ANSWERS = { act: ["state", "Waiting for the board's answer"],
                  game: ["state", "Loading the cartridge"],
                  chip: ["chip", "Waiting for the chip's insides"],
                  match: ["match", "Waiting for the match"] };

export class Connection {
  // `waits` (timing.js) is told each request and each message, and says a long wait.
  constructor(onStatus, waits) {
    this.listeners = new Map();
    this.onStatus = onStatus;
    this.waits = waits;
    this.queue = [];
    this.final = false;
    this.tries = 0;
  }

  on(kind, listener) {
    if (!this.listeners.has(kind)) this.listeners.set(kind, []);
    this.listeners.get(kind).push(listener);
  }

  open() {
    if (document.querySelector('meta[name="console-transport"]')?.content === "worker") {
      this.openWorker();
      return;
    }
    const url = new URL("/ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    this.socket = new WebSocket(url);
    this.socket.addEventListener("open", () => {
      this.tries = 0;
      const hello = { kind: "hello" };
      const session = sessionStorage.getItem(KEY);
      if (session) hello.session = session;
      this.socket.send(JSON.stringify(hello));
      this.waits.asked("state", "Waiting for the board");     // its game, once it is open
      for (const message of this.queue.splice(0)) this.socket.send(message);
    });
    this.socket.addEventListener("message", (event) => this.received(event.data));
    this.socket.addEventListener("close", (event) => {
      if (this.final) return;
      if (event.code === 1001 && event.reason) {
        this.onStatus(`The console stopped (${event.reason}): reload the page once it ` +
                      "runs again.");
        return;
      }
      // The server restarted, or the network dropped: try again, more slowly each time.
      this.onStatus("The connection to the console was lost; trying again…");
      const wait = Math.min(5000, 250 * 2 ** this.tries++);
      setTimeout(() => this.open(), wait);
    });
  }

  // The console in this page: loaded once, what it fetches said as progress.
  openWorker() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker.addEventListener("message", (event) => this.received(event.data));
    this.worker.addEventListener("error", (event) => {
      this.final = true;
      this.onStatus(`The console could not start in this page: ${event.message}`);
    });
    this.worker.postMessage(JSON.stringify({ kind: "hello" }));
    this.waits.asked("state", "Loading the console into this page");
    for (const message of this.queue.splice(0)) this.worker.postMessage(message);
  }

  received(text) {
    const message = JSON.parse(text);
    if (message.kind === "welcome") sessionStorage.setItem(KEY, message.session);
    if (message.final) {
      this.final = true;
      this.onStatus(message.text);
    }
    if (message.kind === "progress") this.waits.progress(message);
    else if (message.kind === "error") this.waits.failed();
    else this.waits.answered(message.kind);
    for (const listener of this.listeners.get(message.kind) || []) listener(message);
  }

  // `waiting`: what the page says if the answer takes long (a default for each kind).
  send(message, waiting) {
    const [answer, said] = ANSWERS[message.kind] ?? [];
    if (answer && message.do !== "stop") this.waits.asked(answer, waiting ?? said);
    this.sendText(JSON.stringify(message));
  }

  // A message's text as it is, over whichever transport the page has.
  sendText(text) {
    if (this.worker) this.worker.postMessage(text);
    else if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.queue.push(text);
  }
}
