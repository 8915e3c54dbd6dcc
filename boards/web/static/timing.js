// From a click to the frame that shows its answer: the time a person waits. An action
// is stamped when it is sent; when the state that answers it has been drawn, the next
// animation frame is the first the screen can show it in.

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
