// The page's connection to the console: one WebSocket, JSON messages with a `kind`
// (docs/web.md). Each panel listens to the kinds it draws; the session the server
// gives is kept for as long as the tab lives, so a reload finds the same board.

const KEY = "ttt-console-session";

export class Connection {
  constructor(onStatus) {
    this.listeners = new Map();
    this.onStatus = onStatus;
    this.queue = [];
    this.final = false;
    this.tries = 0;
  }

  on(kind, listener) {
    if (!this.listeners.has(kind)) this.listeners.set(kind, []);
    this.listeners.get(kind).push(listener);
  }

  open() {
    const url = new URL("/ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    this.socket = new WebSocket(url);
    this.socket.addEventListener("open", () => {
      this.tries = 0;
      const hello = { kind: "hello" };
      const session = sessionStorage.getItem(KEY);
      if (session) hello.session = session;
      this.socket.send(JSON.stringify(hello));
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

  received(text) {
    const message = JSON.parse(text);
    if (message.kind === "welcome") sessionStorage.setItem(KEY, message.session);
    if (message.final) {
      this.final = true;
      this.onStatus(message.text);
    }
    for (const listener of this.listeners.get(message.kind) || []) listener(message);
  }

  send(message) {
    const text = JSON.stringify(message);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.queue.push(text);
  }
}
