// Practice: draw a position's candidates, let the player mark removals (or one placement),
// send the answer to the server, and show its verdict. The page holds no answer: only the
// server's reply to a check says what the instance was.

const WAIT_MS = 15000; // how often a waiting page asks whether its pool has a position yet

/** A cell the way a person reads it. */
export function spoken(cell) {
  return `row ${Math.floor(cell / 9) + 1}, column ${(cell % 9) + 1}`;
}

/** The cell an arrow key moves to from `cell`, wrapping at the edges. */
export function moved(cell, key) {
  const row = Math.floor(cell / 9);
  const col = cell % 9;
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[key];
  if (!step) return cell;
  return ((row + step[0] + 9) % 9) * 9 + ((col + step[1] + 9) % 9);
}

/** The answer to post: the marked removals, or the one placement. */
export function answerOf(places, marks) {
  const pairs = [...marks].map((key) => key.split(":").map(Number));
  if (places) return { placement: pairs[0] ?? null };
  return { eliminations: pairs };
}

function csrfToken() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  return document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
}

function waitForPool(box) {
  const ask = async () => {
    try {
      const response = await fetch(box.dataset.readyUrl, { headers: { Accept: "application/json" } });
      if (response.ok && (await response.json()).ready) {
        window.location.reload();
        return;
      }
    } catch {
      // The network is away: ask again later.
    }
    window.setTimeout(ask, WAIT_MS);
  };
  window.setTimeout(ask, WAIT_MS);
}

function start(data) {
  const board = document.getElementById("practice-board");
  const result = document.getElementById("practice-result");
  const wrongList = document.getElementById("practice-wrong");
  const checkButton = document.getElementById("practice-check");
  const checkUrl = document.getElementById("practice-check-url").value;
  const places = data.places;
  const marks = new Set(); // "cell:digit"
  const cells = [];
  const buttons = new Map(); // "cell:digit" -> button
  let current = data.digits.findIndex((d) => d === 0);
  let solved = false;
  const coarse = window.matchMedia("(pointer: coarse)").matches;
  board.classList.toggle("coarse", coarse);

  for (let cell = 0; cell < 81; cell++) {
    const el = document.createElement("div");
    el.className = "practice-cell";
    el.dataset.cell = String(cell);
    el.tabIndex = cell === current ? 0 : -1;
    el.setAttribute("role", "group");
    const digit = data.digits[cell];
    if (digit) {
      el.classList.add("filled");
      el.setAttribute("aria-label", `${spoken(cell)}: ${digit}`);
      el.textContent = String(digit);
    } else {
      const options = data.candidates[cell];
      el.setAttribute("aria-label", `${spoken(cell)}: candidates ${options.join(", ")}`);
      for (let d = 1; d <= 9; d++) {
        if (!options.includes(d)) {
          const gap = document.createElement("span");
          gap.className = "practice-gap";
          el.append(gap);
          continue;
        }
        // Where a fingertip covers several candidates, a tap chooses the cell and the pad
        // marks; elsewhere each candidate is a button of its own.
        const button = document.createElement(coarse ? "span" : "button");
        button.className = "practice-cand";
        button.textContent = String(d);
        button.dataset.key = `${cell}:${d}`;
        if (!coarse) {
          button.type = "button";
          button.tabIndex = -1;
          button.setAttribute("aria-pressed", "false");
          button.setAttribute("aria-label", places ? `Place ${d} in ${spoken(cell)}` : `Remove ${d} from ${spoken(cell)}`);
          button.addEventListener("click", () => {
            focusCell(cell);
            toggle(cell, d);
          });
        }
        buttons.set(button.dataset.key, button);
        el.append(button);
      }
    }
    const r = Math.floor(cell / 9);
    const c = cell % 9;
    if (c % 3 === 2 && c < 8) el.classList.add("box-right");
    if (r % 3 === 2 && r < 8) el.classList.add("box-bottom");
    cells.push(el);
    board.append(el);
  }

  // The pad: a digit for the selected cell, where a fingertip is wider than a candidate.
  const pad = document.getElementById("practice-pad");
  pad.classList.toggle("places", places);
  const padButtons = [];
  for (let d = 1; d <= 9; d++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "practice-pad-digit";
    button.textContent = String(d);
    button.addEventListener("click", () => toggle(current, d));
    padButtons.push(button);
    pad.append(button);
  }

  function focusCell(cell, focus = true) {
    cells[current].tabIndex = -1;
    cells[current].classList.remove("selected");
    current = cell;
    cells[cell].tabIndex = 0;
    cells[cell].classList.add("selected");
    if (focus) cells[cell].focus();
    drawPad();
  }

  function drawPad() {
    const options = data.candidates[current] ?? [];
    padButtons.forEach((button, i) => {
      const d = i + 1;
      const here = options.includes(d);
      button.disabled = !here || solved;
      button.setAttribute("aria-pressed", String(marks.has(`${current}:${d}`)));
      button.setAttribute("aria-label", `${places ? "Place" : "Remove"} ${d} ${places ? "in" : "from"} the selected cell, ${spoken(current)}`);
    });
  }

  function draw() {
    for (const [key, button] of buttons) {
      const on = marks.has(key);
      if (!coarse) button.setAttribute("aria-pressed", String(on));
      button.classList.toggle("marked", on);
    }
    for (const el of cells) {
      const cell = Number(el.dataset.cell);
      if (data.digits[cell]) continue;
      const marked = data.candidates[cell].filter((d) => marks.has(`${cell}:${d}`));
      const said = marked.length ? `; ${places ? "chosen" : "marked for removal"}: ${marked.join(", ")}` : "";
      el.setAttribute("aria-label", `${spoken(cell)}: candidates ${data.candidates[cell].join(", ")}${said}`);
    }
    drawPad();
  }

  for (const el of cells) {
    el.addEventListener("click", (event) => {
      if (coarse || !event.target.closest("button")) focusCell(Number(el.dataset.cell));
    });
  }

  function clearVerdict() {
    for (const el of board.querySelectorAll(".wrong, .pattern, .removal, .placed")) {
      el.classList.remove("wrong", "pattern", "removal", "placed");
    }
    wrongList.hidden = true;
    wrongList.replaceChildren();
  }

  function toggle(cell, digit) {
    if (solved) return;
    const key = `${cell}:${digit}`;
    if (!buttons.has(key)) return;
    if (places) {
      const had = marks.has(key);
      marks.clear();
      if (!had) marks.add(key);
    } else if (marks.has(key)) {
      marks.delete(key);
    } else {
      marks.add(key);
    }
    clearVerdict();
    // A verdict is on the marks it was given: changed marks need a new check.
    result.className = "practice-result";
    result.textContent = "";
    draw();
  }

  focusCell(current, false);

  board.addEventListener("keydown", (event) => {
    const cell = Number(event.target.closest(".practice-cell")?.dataset.cell ?? current);
    if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      focusCell(moved(cell, event.key));
    } else if (/^[1-9]$/.test(event.key)) {
      event.preventDefault();
      toggle(cell, Number(event.key));
    }
  });

  document.getElementById("practice-clear").addEventListener("click", () => {
    if (solved) return;
    marks.clear();
    clearVerdict();
    draw();
    result.textContent = "";
  });

  function show(verdict) {
    clearVerdict();
    result.className = `practice-result ${verdict.outcome}`;
    result.textContent = verdict.message;
    for (const wrong of verdict.wrong ?? []) {
      buttons.get(`${wrong.cell}:${wrong.digit}`)?.classList.add("wrong");
      const item = document.createElement("li");
      item.textContent = wrong.why;
      wrongList.append(item);
    }
    wrongList.hidden = !wrongList.children.length;
    if (verdict.outcome === "right" && verdict.instance) {
      solved = true;
      drawPad();
      for (const c of verdict.instance.cells) cells[c.index].classList.add("pattern");
      for (const p of verdict.instance.eliminations) buttons.get(`${p.cell}:${p.digit}`)?.classList.add("removal");
      for (const p of verdict.instance.placements) buttons.get(`${p.cell}:${p.digit}`)?.classList.add("placed");
      const why = document.createElement("p");
      why.className = "practice-explanation";
      why.textContent = verdict.instance.explanation;
      result.append(why);
      checkButton.disabled = true;
      document.getElementById("practice-next").classList.add("button-primary");
      document.getElementById("practice-next").focus();
    }
  }

  checkButton.addEventListener("click", async () => {
    if (!marks.size) {
      result.className = "practice-result wrong";
      result.textContent = places ? "Choose a candidate to place first." : "Mark at least one candidate first.";
      return;
    }
    checkButton.disabled = true;
    try {
      const response = await fetch(checkUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
        body: JSON.stringify(answerOf(places, marks)),
        credentials: "same-origin",
      });
      const body = await response.json();
      if (response.ok) {
        show(body);
      } else {
        result.className = "practice-result wrong";
        result.textContent = body.error ?? "That check did not go through: try again.";
      }
    } catch {
      result.className = "practice-result wrong";
      result.textContent = "The check did not reach the server: try again.";
    } finally {
      if (!solved) checkButton.disabled = false;
    }
  });
}

if (typeof document !== "undefined") {
  const dataEl = document.getElementById("practice-data");
  const waiting = document.getElementById("practice-waiting");
  if (dataEl) start(JSON.parse(dataEl.textContent));
  else if (waiting) waitForPool(waiting);
}
