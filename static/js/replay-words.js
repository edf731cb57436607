// What a solve's replay says (replay.js puts it on screen): a step in words, where the scrubber
// is, and the status line as the replay loads, plays, pauses and ends. Pure (no page), so every
// sentence is tested with node (tests/js/replay-words.test.mjs). A module apart from wording.js,
// so that the puzzle page, which needs that one, does not download these.

import { cellWords, formatDuration } from "./wording.js";

const LAYER_WORDS = { c: "corner notes", n: "centre notes", k: "colours" };

/** A step in words, for the status line: "5 in row 3, column 4", "corner notes in 3 cells". */
export function stepWords(step) {
  if (step.fromServer) return "the digits as the server recorded them";
  return step.moves
    .map(([layer, cells]) => {
      const where = cells.length === 1 ? cellWords(cells[0][0]) : `${cells.length} cells`;
      if (layer !== "d") return `${LAYER_WORDS[layer]} in ${where}`;
      if (cells.length > 1) return `digits in ${where}`;
      return cells[0][1] ? `${cells[0][1]} in ${where}` : `erased ${where}`;
    })
    .join("; ");
}

/** The scrubber's value in words (its aria-valuetext): the clock, and where in the replay. */
export function positionWords(ms, k, count) {
  if (k === 0) return `${formatDuration(ms / 1000)}, the givens`;
  return `${formatDuration(ms / 1000)}, move ${k} of ${count}`;
}

/** The replay's status line once it has loaded: "12 moves over 4:05. Press Play." */
export function loadedWords(count, endMs) {
  return `${count} move${count === 1 ? "" : "s"} over ${formatDuration(endMs / 1000)}. Press Play.`;
}

/** The status line while the replay plays: "Playing at 2×." */
export function playingWords(speed) {
  return `Playing at ${speed}×.`;
}

/** The status line when the player pauses: "Paused at 1:23, move 7 of 12." */
export function pausedWords(ms, k, count) {
  return `Paused at ${formatDuration(ms / 1000)}, move ${k} of ${count}.`;
}

/** The status line at the end: "The end: solved at 4:05." */
export function endWords(endMs) {
  return `The end: solved at ${formatDuration(endMs / 1000)}.`;
}

/** The status line after a step or the scrubber: where, and what that step did. */
export function steppedWords(ms, k, steps) {
  const where = positionWords(ms, k, steps.length);
  return k ? `${where}: ${stepWords(steps[k - 1])}.` : `${where}.`;
}
