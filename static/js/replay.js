// A solve's replay on the board's grid (templates/puzzles/replay.html), read-only: play and pause,
// four speeds, a step back or forward, a scrubber, and the clock of active time.
//
// The timeline comes from the replay API (puzzles/replays.py has its rules): the givens, every move
// on the player's clock ([ms, layer, [[cell, value], ...]]), and the digits the server recorded
// after each write ([moves made before it, ms, digits]). The pure part turns it into steps and the
// board after each, and is tested in node (tests/js/replay.test.mjs); the page part below runs
// only on a page with a replay.

import { SIZE, applyMoves } from "./sudoku.js";
import { formatTime, render } from "./view.js";

export const SPEEDS = [1, 2, 5, 10];

// ---- The timeline as steps and boards. Pure. ----

/** The board with nothing but the givens (sudoku.js's shape). */
export function emptyBoard(givens) {
  const blank = () => Array(SIZE).fill("");
  return {
    givens: Array.from({ length: SIZE }, (_, i) => Number(givens[i]) || 0),
    digits: Array(SIZE).fill(0),
    corner: blank(),
    centre: blank(),
    colours: blank(),
  };
}

/**
 * The replay: {steps, boards, end}. A step is the moves made at one moment ({ms, moves: [[layer,
 * cells], ...], sync}); the moves of one action (a digit and the notes it cleared) share their
 * moment, so a step is what the player did at once. After each write, a step with `sync` puts the
 * board's digits right where they differ from the server's record of them (a move the board never
 * sent); a solve without moves is its givens, then its solved grid. boards[k] is the board after k
 * steps (boards[0] the givens); `end` is the clock at the solve, in ms.
 */
export function replayOf(timeline) {
  const moves = timeline.moves ?? [];
  const writes = timeline.writes ?? [];
  const steps = [];
  const boards = [emptyBoard(timeline.givens ?? "")];
  const add = (ms, move, sync) => {
    const board = applyMoves(boards.at(-1), [move]);
    const last = steps.at(-1);
    if (last && !sync && !last.sync && last.ms === ms) {
      last.moves.push(move);
      boards[boards.length - 1] = board;
    } else {
      steps.push({ ms, moves: [move], sync });
      boards.push(board);
    }
  };
  let w = 0;
  for (let m = 0; m <= moves.length; m += 1) {
    for (; w < writes.length && writes[w][0] <= m; w += 1) {
      const [, ms, digits] = writes[w];
      const board = boards.at(-1);
      const wrong = [];
      for (let i = 0; i < SIZE; i += 1) {
        const d = board.givens[i] ? 0 : Number(digits[i]) || 0;
        if (d !== board.digits[i]) wrong.push([i, d]);
      }
      if (wrong.length) add(ms, ["d", wrong], true);
    }
    if (m < moves.length) add(moves[m][0], [moves[m][1], moves[m][2]], false);
  }
  const end = Math.max(Number(timeline.end_ms) || 0, steps.at(-1)?.ms ?? 0);
  return { steps, boards, end };
}

/** The board after the first k steps of the timeline (clamped to the replay's bounds). */
export function boardAt(timeline, k) {
  const { boards } = replayOf(timeline);
  return boards[Math.max(0, Math.min(k, boards.length - 1))];
}

/** The clock at step k: the moment of the k-th step, 0 before the first. */
export function clockAt(steps, k) {
  return k > 0 ? steps[Math.min(k, steps.length) - 1].ms : 0;
}

/** How many steps have been made by `ms` on the clock. */
export function stepAt(steps, ms) {
  let low = 0;
  let high = steps.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (steps[mid].ms <= ms) low = mid + 1;
    else high = mid;
  }
  return low;
}

const LAYER_WORDS = { c: "corner notes", n: "centre notes", k: "colours" };
const cellWords = (i) => `row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1}`;

/** A step in words, for the status line: "5 in row 3, column 4", "corner notes in 3 cells". */
export function stepWords(step) {
  if (step.sync) return "the digits as the server recorded them";
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
  if (k === 0) return `${formatTime(ms / 1000)}, the givens`;
  return `${formatTime(ms / 1000)}, move ${k} of ${count}`;
}

// ---- The page. ----

const ARROWS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -9, ArrowDown: 9 };

function start(root) {
  const doc = root.ownerDocument;
  const $ = (id) => doc.getElementById(id);
  const cells = [...root.querySelectorAll("[data-cell]")];
  const els = {
    grid: $("sudoku-grid"),
    cells,
    parts: cells.map((cell) => ({
      colour: cell.querySelector(".cell-colour"),
      digit: cell.querySelector(".cell-digit"),
      corner: cell.querySelector(".cell-corner"),
      centre: cell.querySelector(".cell-centre"),
    })),
    clock: $("replay-clock"),
    controls: $("replay-controls"),
    back: $("replay-back"),
    play: $("replay-play"),
    forward: $("replay-forward"),
    scrub: $("replay-scrub"),
    move: $("replay-move"),
    count: $("replay-moves"),
    status: $("replay-status"),
    speeds: [...root.querySelectorAll("input[name=replay-speed]")],
  };
  // What view.js's render reads of a game: a board nobody can play, no selection, hints or checks.
  const game = {
    els,
    board: null,
    selected: 0, // the grid's one Tab stop, moved by the arrow keys
    selection: new Set(),
    settings: {},
    canPlay: false,
    solved: true,
    hint: { marks: new Map() },
    wrong: new Set(),
  };
  let replay = null;
  let k = 0;
  let ms = 0;
  let speed = 1;
  let playing = false;
  let lastFrame = 0;

  const say = (text) => {
    if (els.status.textContent !== text) els.status.textContent = text;
  };

  function show(next) {
    const count = replay.steps.length;
    const changed = next !== k || game.board === null;
    k = next;
    if (changed) {
      game.board = replay.boards[k];
      render(game);
      const last = new Set(k ? replay.steps[k - 1].moves.flatMap(([, moved]) => moved.map(([i]) => i)) : []);
      cells.forEach((cell, i) => cell.classList.toggle("is-last", last.has(i)));
      els.move.textContent = String(k);
      els.scrub.value = String(k);
      els.back.setAttribute("aria-disabled", String(k === 0));
      els.forward.setAttribute("aria-disabled", String(k === count));
    }
    const time = formatTime(ms / 1000);
    if (els.clock.textContent !== time) els.clock.textContent = time;
    els.scrub.setAttribute("aria-valuetext", positionWords(ms, k, count));
  }

  function pause(words) {
    playing = false;
    els.play.textContent = "Play";
    say(words ?? `Paused at ${formatTime(ms / 1000)}, move ${k} of ${replay.steps.length}.`);
  }

  function frame(now) {
    if (!playing) return;
    ms = Math.min(replay.end, ms + (now - lastFrame) * speed);
    lastFrame = now;
    show(stepAt(replay.steps, ms));
    if (ms >= replay.end) pause(`The end: solved at ${formatTime(replay.end / 1000)}.`);
    else requestAnimationFrame(frame);
  }

  function play() {
    if (playing) return pause();
    if (ms >= replay.end) {
      ms = 0; // from the start again
      show(0);
    }
    playing = true;
    els.play.textContent = "Pause";
    say(`Playing at ${speed}×.`);
    lastFrame = performance.now();
    requestAnimationFrame(frame);
  }

  /** Go to step `next` (a step or the scrubber), paused, saying what that step did. */
  function goTo(next) {
    const target = Math.max(0, Math.min(next, replay.steps.length));
    ms = clockAt(replay.steps, target);
    if (playing) playing = false;
    els.play.textContent = "Play";
    show(target);
    const where = positionWords(ms, target, replay.steps.length);
    say(target ? `${where}: ${stepWords(replay.steps[target - 1])}.` : `${where}.`);
  }

  els.play.addEventListener("click", play);
  els.back.addEventListener("click", () => goTo(k - 1));
  els.forward.addEventListener("click", () => goTo(k + 1));
  els.scrub.addEventListener("input", () => goTo(Number(els.scrub.value)));
  for (const radio of els.speeds) {
    radio.addEventListener("change", () => {
      speed = Number(radio.value) || 1;
      if (playing) say(`Playing at ${speed}×.`);
    });
  }

  doc.addEventListener("keydown", (e) => {
    if (!replay || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target && els.grid.contains(target) && e.key in ARROWS) {
      // Inside the grid the arrows read it, cell by cell, as on the board.
      const next = game.selected + ARROWS[e.key];
      const sideways = Math.abs(ARROWS[e.key]) === 1;
      if (next >= 0 && next < SIZE && (!sideways || Math.floor(next / 9) === Math.floor(game.selected / 9))) {
        game.selected = next;
        render(game);
        cells[next].focus();
      }
      e.preventDefault();
      return;
    }
    // A control keeps its own keys: Space presses a button or picks a speed, the arrows move the
    // scrubber (one move a press, as stepping does) or change the speed.
    const control = target?.closest("button, a, summary, input, select, textarea");
    if (e.key === " " && !(control && control !== els.scrub)) {
      e.preventDefault();
      play();
    } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && !control?.matches("input, select, textarea")) {
      e.preventDefault();
      goTo(k + (e.key === "ArrowLeft" ? -1 : 1));
    }
  });

  fetch(root.dataset.timelineUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
    .then((timeline) => {
      replay = replayOf(timeline);
      const count = replay.steps.length;
      els.scrub.max = String(count);
      els.count.textContent = String(count);
      els.controls.hidden = false;
      show(0);
      say(`${count} move${count === 1 ? "" : "s"} over ${formatTime(replay.end / 1000)}. Press Play.`);
    })
    .catch(() => say("The replay could not be loaded: reload the page to try again."));
}

const root = globalThis.document?.getElementById("replay");
if (root) start(root);
