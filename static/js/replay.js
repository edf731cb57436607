// A solve's replay on the board's grid (templates/puzzles/replay.html), read-only: play and pause,
// four speeds, a step back or forward, a scrubber, and the clock of active time.
//
// The timeline comes from the replay API (puzzles/fairplay/replays.py has its rules): the givens, every move
// on the player's clock ([ms, layer, [[cell, value], ...]]), and the digits the server recorded
// after each write ([moves made before it, ms, digits]). The pure part turns it into steps and the
// board after each, and is tested in node (tests/js/replay.test.mjs), as are its words
// (replay-words.js); the page part below runs only on a page with a replay.

import { SIZE, applyMoves, rowOf } from "./sudoku.js";
import { newGame } from "./state.js";
import { cellParts, render } from "./view.js";
import { endWords, loadedWords, pausedWords, playingWords, positionWords, steppedWords } from "./replay-words.js";
import { formatDuration } from "./wording.js";

// ---- The timeline as steps and boards. Pure. ----

/** The board with nothing but the givens (sudoku.js's shape). */
function emptyBoard(givens) {
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
 * cells], ...], fromServer, made}: `made` counts the timeline's moves made by its end); the moves of one action (a digit and the notes it cleared) share their
 * moment, so a step is what the player did at once. After each write, a step `fromServer` puts the
 * board's digits right where they differ from the server's record of them (a move the board never
 * sent); a solve without moves is its givens, then its solved grid. boards[k] is the board after k
 * steps (boards[0] the givens); `end` is the clock at the solve, in ms.
 */
export function replayOf(timeline) {
  const moves = timeline.moves ?? [];
  const writes = timeline.writes ?? [];
  const steps = [];
  const boards = [emptyBoard(timeline.givens ?? "")];
  const add = (ms, move, fromServer, made) => {
    const board = applyMoves(boards.at(-1), [move]);
    const last = steps.at(-1);
    if (last && !fromServer && !last.fromServer && last.ms === ms) {
      last.moves.push(move);
      last.made = made;
      boards[boards.length - 1] = board;
    } else {
      steps.push({ ms, moves: [move], fromServer, made });
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
      if (wrong.length) add(ms, ["d", wrong], true, m);
    }
    if (m < moves.length) add(moves[m][0], [moves[m][1], moves[m][2]], false, m + 1);
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

/**
 * The step that shows the position after the timeline's first `n` moves (the review's "move", and
 * the page's ?move=n): the first step by whose end that many were made; 0 for none.
 */
export function stepOfMove(steps, n) {
  if (!(n > 0)) return 0;
  const found = steps.findIndex((step) => step.made >= n);
  return found < 0 ? steps.length : found + 1;
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

// ---- The page: a player of the replay, in parts that each do one thing. ----

const ARROWS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -9, ArrowDown: 9 };

/** The replay page's elements, looked up once; the grid's are named as view.js names the board's. */
function replayElements(root) {
  const $ = (id) => root.ownerDocument.getElementById(id);
  const cells = [...root.querySelectorAll("[data-cell]")];
  return {
    grid: $("sudoku-grid"),
    cells,
    parts: cellParts(cells),
    timer: $("replay-clock"), // the clock's text, as the board's #sudoku-timer
    controls: $("replay-controls"),
    back: $("replay-back"),
    play: $("replay-play"),
    forward: $("replay-forward"),
    scrub: $("replay-scrub"),
    move: $("replay-move"),
    count: $("replay-moves"),
    status: $("replay-status"),
    speeds: [...root.querySelectorAll("input[name=replay-speed]")],
    // The player's own review beside the replay, if shown: its steps, each with its move.
    review: $("review-timeline"),
    reviewSteps: [...root.querySelectorAll("#review-timeline li[data-move]")],
  };
}

/**
 * How the viewer has notes drawn on their own board: corner notes in their places or not. The copy
 * of their settings the board keeps on this device (tools.js), as theme.js reads the theme.
 */
function viewerSettings() {
  try {
    const stored = JSON.parse(localStorage.getItem("sudoku:settings") || "null");
    return { positional_notes: stored?.positional_notes === true };
  } catch {
    return {};
  }
}

/**
 * The player: a game for view.js's render (a board nobody can play: no selection, hints or
 * checks; the cursor is the grid's one Tab stop, moved by the arrow keys), the replay once
 * loaded, and where in it the player is.
 */
function newPlayer(els) {
  return {
    els,
    game: { ...newGame({ els, settings: viewerSettings() }), solved: true, selection: new Set() },
    replay: null, // replayOf(timeline)
    k: 0, // steps shown
    ms: 0, // the replay's clock
    speed: 1,
    playing: false,
    lastFrame: 0, // performance.now() of the last frame drawn while playing
  };
}

/** The status line, written only when it changes. */
function say(player, text) {
  const { status } = player.els;
  if (status.textContent !== text) status.textContent = text;
}

/** The cells the k-th step changed (none before the first): outlined as the last move. */
function cellsOfStep(replay, k) {
  return new Set(k ? replay.steps[k - 1].moves.flatMap(([, moved]) => moved.map(([i]) => i)) : []);
}

/** Draw the board after `next` steps, the buttons and the scrubber; then the clock. */
function show(player, next) {
  const { els, game, replay } = player;
  const count = replay.steps.length;
  const changed = next !== player.k || game.board === null;
  player.k = next;
  if (changed) {
    game.board = replay.boards[next];
    render(game);
    const last = cellsOfStep(replay, next);
    els.cells.forEach((cell, i) => cell.classList.toggle("is-last", last.has(i)));
    els.move.textContent = String(next);
    els.scrub.value = String(next);
    els.back.setAttribute("aria-disabled", String(next === 0));
    els.forward.setAttribute("aria-disabled", String(next === count));
    markReview(player);
  }
  showClock(player);
}

/** The review's step the replay has reached (the last whose move is made) is the current one. */
function markReview(player) {
  const { els, replay, k } = player;
  if (!els.reviewSteps.length) return;
  const made = k ? replay.steps[k - 1].made : 0;
  let current = null;
  for (const li of els.reviewSteps) {
    if (Number(li.dataset.move) <= made) current = li;
    li.removeAttribute("aria-current");
  }
  current?.setAttribute("aria-current", "step");
}

/** The review's links seek the replay here rather than load the page again, and the address says where. */
function wireReview(player) {
  const { review } = player.els;
  review?.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest("a[data-move]") : null;
    if (!link || !player.replay) return;
    e.preventDefault();
    const move = Number(link.dataset.move);
    goTo(player, stepOfMove(player.replay.steps, move));
    history.replaceState(null, "", `?move=${move}`);
  });
}

/** The clock's text and the scrubber's words. */
function showClock(player) {
  const { els, ms, k, replay } = player;
  const time = formatDuration(ms / 1000);
  if (els.timer.textContent !== time) els.timer.textContent = time;
  els.scrub.setAttribute("aria-valuetext", positionWords(ms, k, replay.steps.length));
}

/** Stop playing, saying where (or `words`). */
function pause(player, words) {
  player.playing = false;
  player.els.play.textContent = "Play";
  say(player, words ?? pausedWords(player.ms, player.k, player.replay.steps.length));
}

/** One animation frame while playing: the clock moves on by the time since the last, at the speed. */
function frame(player, now) {
  if (!player.playing) return;
  const { replay } = player;
  player.ms = Math.min(replay.end, player.ms + (now - player.lastFrame) * player.speed);
  player.lastFrame = now;
  show(player, stepAt(replay.steps, player.ms));
  if (player.ms >= replay.end) pause(player, endWords(replay.end));
  else requestAnimationFrame((t) => frame(player, t));
}

/** Play, or pause while playing; at the end, play from the start again. */
function play(player) {
  if (player.playing) return pause(player);
  if (player.ms >= player.replay.end) {
    player.ms = 0;
    show(player, 0);
  }
  player.playing = true;
  player.els.play.textContent = "Pause";
  say(player, playingWords(player.speed));
  player.lastFrame = performance.now();
  requestAnimationFrame((t) => frame(player, t));
}

/** Go to step `next` (a step or the scrubber), paused, saying what that step did. */
function goTo(player, next) {
  const { steps } = player.replay;
  const target = Math.max(0, Math.min(next, steps.length));
  player.ms = clockAt(steps, target);
  player.playing = false;
  player.els.play.textContent = "Play";
  show(player, target);
  say(player, steppedWords(player.ms, target, steps));
}

/** The buttons, the scrubber and the speeds. */
function wireControls(player) {
  const { els } = player;
  els.play.addEventListener("click", () => play(player));
  els.back.addEventListener("click", () => goTo(player, player.k - 1));
  els.forward.addEventListener("click", () => goTo(player, player.k + 1));
  els.scrub.addEventListener("input", () => goTo(player, Number(els.scrub.value)));
  for (const radio of els.speeds) {
    radio.addEventListener("change", () => {
      player.speed = Number(radio.value) || 1;
      if (player.playing) say(player, playingWords(player.speed));
    });
  }
}

/** Inside the grid the arrows read it, cell by cell, as on the board; the edges hold. */
function moveInGrid(player, key) {
  const { game, els } = player;
  const next = game.cursor + ARROWS[key];
  const sideways = Math.abs(ARROWS[key]) === 1;
  if (next >= 0 && next < SIZE && (!sideways || rowOf(next) === rowOf(game.cursor))) {
    game.cursor = next;
    render(game);
    els.cells[next].focus();
  }
}

/**
 * The keyboard: the arrows in the grid; elsewhere Space plays or pauses and Left and Right step.
 * A control keeps its own keys: Space presses a button or picks a speed, the arrows move the
 * scrubber (one move a press, as stepping does) or change the speed.
 */
function onKey(player, e) {
  if (!player.replay || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target instanceof Element ? e.target : null;
  if (target && player.els.grid.contains(target) && e.key in ARROWS) {
    moveInGrid(player, e.key);
    e.preventDefault();
    return;
  }
  const control = target?.closest("button, a, summary, input, select, textarea");
  if (e.key === " " && !(control && control !== player.els.scrub)) {
    e.preventDefault();
    play(player);
  } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && !control?.matches("input, select, textarea")) {
    e.preventDefault();
    goTo(player, player.k + (e.key === "ArrowLeft" ? -1 : 1));
  }
}

/** Fetch the timeline, then show its givens and the controls; or say it could not be had. */
async function load(player, url) {
  const { els } = player;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    player.replay = replayOf(await response.json());
  } catch {
    say(player, "The replay could not be loaded: reload the page to try again.");
    return;
  }
  const count = player.replay.steps.length;
  els.scrub.max = String(count);
  els.count.textContent = String(count);
  els.controls.hidden = false;
  show(player, 0);
  say(player, loadedWords(count, player.replay.end));
  // Opened at a move (?move=N, from the review): straight there.
  const move = Number(new URLSearchParams(location.search).get("move"));
  if (move > 0) goTo(player, stepOfMove(player.replay.steps, move));
}

function start(root) {
  const player = newPlayer(replayElements(root));
  wireControls(player);
  wireReview(player);
  root.ownerDocument.addEventListener("keydown", (e) => onKey(player, e));
  load(player, root.dataset.timelineUrl);
}

const root = globalThis.document?.getElementById("replay");
if (root) start(root);
