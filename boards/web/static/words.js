// The words the page shares with the server, as it sends them (boards/web/words.py):
// the places' names and the board's marks with its welcome, the chip's with the chip
// panel's first frame. The page retypes none of them.

export const words = {};

export function learn(received) {
  Object.assign(words, received);
}
