// The console with no server (the static site, docs/site.md): this Worker runs the
// project's own Python in Pyodide (boards/site/page.py), the same console `make serve`
// runs, and its boards are desks compiled to WebAssembly, clocked here. The page talks
// to it with the same JSON messages as to the server's WebSocket (socket.js).

import { loadPyodide } from "../pyodide/pyodide.mjs";

const SITE = new URL("../", import.meta.url);
const compiling = new Map();      // a WebAssembly file's name -> its module, promised
const modules = new Map();        // the same, once compiled: Python's calls cannot wait
let site, transport, sizes = {}, fetched = {}, lastSaid = -Infinity;
const SAY_EVERY_MS = 100;

const post = (text) => self.postMessage(text);
const say = (doing) => post(JSON.stringify({ kind: "progress", doing }));
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// Every file fetched while the Worker loads is counted, and said as it comes.
const plainFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const response = await plainFetch(input, init);
  const path = new URL(response.url).pathname, name = path.split("/").pop();
  const loading = path.includes("/pyodide/") || name === "python.zip";
  if (!response.ok || !response.body || !loading) return response;
  const reader = response.body.getReader();
  const counted = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) { controller.close(); return; }
      fetched[name] = (fetched[name] ?? 0) + value.length;
      const now = performance.now();
      if (now - lastSaid > SAY_EVERY_MS) {      // not a message a chunk: the page redraws
        lastSaid = now;
        const got = Object.values(fetched).reduce((a, b) => a + b, 0);
        const all = Object.values(sizes).reduce((a, b) => a + b, 0);   // once site.json is in
        say(`Fetching ${name} (${megabytes(got)}${all ? ` of ${megabytes(all)}` : ""} MB)`);
      }
      controller.enqueue(value);
    },
  });
  return new Response(counted, { headers: response.headers, status: response.status });
};

// WASI as the desks need it: they never write, and each call answers ENOSYS (52).
const wasi = { fd_write: () => 52, fd_seek: () => 52, fd_close: () => 52 };

function instance(module) {
  const made = new WebAssembly.Instance(module, { wasi_snapshot_preview1: wasi });
  made.exports._initialize();
  return made.exports;
}

// A desk (boards/box/box.cc), as boards/site/wasm.py calls it.
class Desk {
  constructor(module, bit) {
    this.x = instance(module);
    this.handle = this.x.box_create(bit);
    this.room = 4096;
    this.out = this.x.malloc(this.room);
  }
  bytes(at, length) { return new Uint8Array(this.x.memory.buffer, at, length); }
  send(data) {
    const at = this.x.malloc(data.length);
    this.bytes(at, data.length).set(data);
    this.x.box_send(this.handle, at, data.length);
    this.x.free(at);
  }
  run(cycles) {
    const got = this.x.box_run(this.handle, BigInt(cycles), this.out, this.room);
    return this.bytes(this.out, got).slice();
  }
  busy() { return this.x.box_busy(this.handle); }
  broken() { return Number(this.x.box_broken(this.handle)); }
  close() { this.x.box_destroy(this.handle); }
}

// The chip (sim/backends/compiled_chip.cc), one lane.
class Chip {
  constructor(module) {
    this.x = instance(module);
    this.handle = this.x.ttt_create(1);
  }
  words(at, length) { return new Uint32Array(this.x.memory.buffer, at, length); }
  signal(name) {
    const text = new TextEncoder().encode(name + "\0");
    const at = this.x.malloc(text.length);
    new Uint8Array(this.x.memory.buffer, at, text.length).set(text);
    const found = this.x.ttt_signal(this.handle, at);
    this.x.free(at);
    return found;
  }
  width(index) { return this.x.ttt_width(this.handle, index); }
  set(index, value) { this.x.ttt_set(this.handle, 0, index, value >>> 0); }
  get(index) { return this.x.ttt_get(this.handle, 0, index) >>> 0; }
  step(cycles) { this.x.ttt_step(this.handle, BigInt(cycles)); }
  // The batch for lane 0: `inputs` bytes of cycles rows of the pins `inIndex` (uint32
  // each), the bytes of cycles rows of `outIndex` back.
  clocked(inputs, inIndex, outIndex) {
    const x = this.x, cycles = inputs.length / 4 / inIndex.length;
    const lengths = x.malloc(8), ins = x.malloc(4 * inIndex.length);
    const outs = x.malloc(4 * outIndex.length), data = x.malloc(inputs.length);
    const result = x.malloc(4 * cycles * outIndex.length);
    new BigInt64Array(x.memory.buffer, lengths, 1)[0] = BigInt(cycles);
    this.words(ins, inIndex.length).set(inIndex);
    this.words(outs, outIndex.length).set(outIndex);
    new Uint8Array(x.memory.buffer, data, inputs.length).set(inputs);
    x.ttt_run(this.handle, lengths, BigInt(cycles), inIndex.length, ins, data,
              outIndex.length, outs, result, 0);    // 0: no reads before the edges
    const got = new Uint8Array(x.memory.buffer, result, 4 * cycles * outIndex.length).slice();
    for (const at of [lengths, ins, outs, data, result]) x.free(at);
    return got;
  }
  close() { this.x.ttt_destroy(this.handle); }
}

// What boards/site/wasm.py finds as `js.ttt`.
self.ttt = {
  desk: (game, bit) => new Desk(modules.get(`desks/${game}.wasm`), bit),
  chip: () => new Chip(modules.get("chip.wasm")),
};

// A module is compiled before Python asks for it, once.
async function ready(file) {
  if (!compiling.has(file)) {
    compiling.set(file, WebAssembly.compileStreaming(fetch(new URL(file, SITE))));
  }
  modules.set(file, await compiling.get(file));
}

// The desks and the chip a message will need, by what it asks.
function needs(message) {
  const games = site.games;
  if (message.kind === "hello") return [`desks/${games[0]}.wasm`];
  if (message.kind === "game") return [`desks/${games[message.number]}.wasm`];
  if (message.kind === "match") {
    return (Array.isArray(message.machines) ? message.machines : [])
      .filter((n) => games[n] !== undefined).map((n) => `desks/${games[n]}.wasm`);
  }
  if (message.kind === "chip") return ["chip.wasm"];
  return [];
}

// The session's waves, written in Python's files, offered to the page as blobs.
function offered(text, pyodide) {
  const message = JSON.parse(text);
  if (message.kind !== "chip" || !message.waves) return text;
  const waves = message.waves;
  waves.urls = waves.names.map((name) => URL.createObjectURL(
    new Blob([pyodide.FS.readFile(`${waves.folder}/${name}`)])));
  return JSON.stringify(message);
}

async function load() {
  // Pyodide starts at once; what the site holds, its Python and the first game's desk
  // come meanwhile.
  const starting = loadPyodide({ indexURL: new URL("pyodide/", SITE).href, packages: [] });
  site = await (await plainFetch(new URL("site.json", SITE))).json();
  sizes = Object.fromEntries(Object.entries(site.bytes)
    .filter(([name]) => name.startsWith("pyodide/") || name === "python.zip")
    .map(([name, bytes]) => [name.split("/").pop(), bytes]));
  const python = fetch(new URL("python.zip", SITE)).then((answer) => answer.arrayBuffer());
  const desk = ready(`desks/${site.games[0]}.wasm`);
  const pyodide = await starting;
  say("Unpacking the console's Python");
  const zip = await python;
  await desk;
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/console" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/console')");
  say("Starting the console");
  const page = pyodide.pyimport("boards.site.page");
  transport = page.Transport(site.games, (text) => post(offered(text, pyodide)));
  return pyodide;
}

const loaded = load();
let turn = Promise.resolve();     // one message at a time, in the order sent

self.onmessage = (event) => {
  const text = event.data;
  turn = turn.then(async () => {
    try {
      await loaded;
      let message = {};
      try { message = JSON.parse(text); } catch { /* Python says what is wrong */ }
      for (const file of needs(message)) await ready(file);
      await transport.handle(text);
    } catch (error) {
      post(JSON.stringify({ kind: "error", text: `The console in this page failed: ${error.message.split("\n").filter(Boolean).pop()}` }));
    }
  });
};
