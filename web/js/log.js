// The log of a seat's events as sentences. Events are objects with `step`, `kind` and, from
// the engine, `text` (the sentence); one without a text is shown by its kind and fields.

export function eventText(e) {
  if (e.text) return e.text;
  const rest = Object.assign({}, e);
  delete rest.step; delete rest.audience; delete rest.kind; delete rest.text;
  return String(e.kind || "event").replace(/_/g, " ") + " " + JSON.stringify(rest);
}

// Whether two events are one happening told twice: the same step and seat, one of them told
// to some seats only (a secret, like the token a seat drew) and the other its public side.
function sameHappening(a, b) {
  return a && b && a.step === b.step && a.seat !== undefined && a.seat === b.seat &&
    (Array.isArray(a.audience) !== Array.isArray(b.audience));
}

// Appends `events` to the log element `box`; they are marked new unless the log was empty
// (the first events of a seat), and the marks of earlier ones are cleared. With `merge`, the
// secret and public sides of one happening share a line (the online page keeps one per event).
export function appendEvents(box, events, { merge = false } = {}) {
  const fresh = box.childElementCount > 0;
  for (const old of box.querySelectorAll("div.new")) old.classList.remove("new");
  for (const e of events) {
    const last = box.lastElementChild;
    if (merge && last && sameHappening(last._event, e) && !last._merged) {
      last.append("; " + eventText(e));
      last._merged = true;
      if (fresh) last.className = "new";
      continue;
    }
    const div = document.createElement("div");
    div._event = e;
    if (fresh) div.className = "new";
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = String(e.step);
    div.append(n, eventText(e));
    box.appendChild(div);
  }
  box.scrollTop = box.scrollHeight;
}

// A seat's event sentences by step (the step of the move that caused them): the last move is
// told by its sentences, as both play pages show it.
export class MoveSentences {
  constructor() { this.bySteps = new Map(); }

  add(events) {
    for (const e of events) {
      if (!this.bySteps.has(e.step)) this.bySteps.set(e.step, []);
      this.bySteps.get(e.step).push(eventText(e));
    }
  }

  // "Last move (Ishida): Ishida moves 3 blocks from Gifu to Ogaki; ..." for `lastMove`
  // ({seat, step}), nothing when the seat saw no event of that move; `name(seat)` names a seat.
  lastMove(lastMove, name) {
    if (!lastMove || lastMove.step === null || lastMove.step === undefined) return "";
    const said = this.bySteps.get(lastMove.step);
    return said && said.length ? "Last move (" + name(lastMove.seat) + "): " + said.join("; ") : "";
  }
}

export function clearLog(box) {
  box.textContent = "";
}
