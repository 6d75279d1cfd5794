// The legal moves as buttons. A move is {id, sentence, text, target}: `sentence` is shown,
// `text` is the tooltip; clicking calls onAct(id).

export function showMoves(box, legal, onAct) {
  box.textContent = "";
  for (const a of legal) {
    const b = document.createElement("button");
    b.className = "action";
    b.dataset.action = String(a.id);
    b.textContent = a.sentence;
    b.title = a.text;
    b.onclick = () => onAct(a.id);
    box.appendChild(b);
  }
}

// Marks the buttons of the moves `ids` (those a board click leaves to choose from).
// The first of them is scrolled into the list's view, so a long list shows what to pick.
export function markCandidates(box, ids) {
  for (const b of box.children) b.classList.toggle("candidate", ids.includes(Number(b.dataset.action)));
  const first = box.querySelector("button.candidate");
  if (first) first.scrollIntoView({ block: "nearest" });
}

// The moves grouped by the board element they name: Map target -> [ids].
export function movesByTarget(legal) {
  const byTarget = new Map();
  for (const a of legal) {
    if (!a.target) continue;
    if (!byTarget.has(a.target)) byTarget.set(a.target, []);
    byTarget.get(a.target).push(a.id);
  }
  return byTarget;
}
