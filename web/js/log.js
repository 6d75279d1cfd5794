// The log of a seat's events as sentences. Events are objects with `step`, `kind` and, from
// the engine, `text` (the sentence); one without a text is shown by its kind and fields.

export function eventText(e) {
  if (e.text) return e.text;
  const rest = Object.assign({}, e);
  delete rest.step; delete rest.audience; delete rest.kind; delete rest.text;
  return String(e.kind || "event").replace(/_/g, " ") + " " + JSON.stringify(rest);
}

// Appends `events` to the log element `box`; they are marked new unless the log was empty
// (the first events of a seat), and the marks of earlier ones are cleared.
export function appendEvents(box, events) {
  const fresh = box.childElementCount > 0;
  for (const old of box.querySelectorAll("div.new")) old.classList.remove("new");
  for (const e of events) {
    const div = document.createElement("div");
    if (fresh) div.className = "new";
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = String(e.step);
    div.append(n, eventText(e));
    box.appendChild(div);
  }
  box.scrollTop = box.scrollHeight;
}

export function clearLog(box) {
  box.textContent = "";
}
