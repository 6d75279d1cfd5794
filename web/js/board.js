// The board: an SVG picture drawn by the engine, whose elements carry `data-target` names.
// showBoard puts the picture into `box`, outlines the element the last move named, and makes
// the elements that legal moves name clickable: one move is played at once (onAct(id)), several
// are handed to onChoose(ids) to pick from.

import { movesByTarget } from "./moves.js";

export function showBoard(box, svgText, { legal = [], lastTarget = null, onAct = () => {}, onChoose = () => {} } = {}) {
  box.innerHTML = svgText || "";
  const svg = box.querySelector("svg");
  if (svg) svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  const byTarget = movesByTarget(legal);
  for (const el of box.querySelectorAll("[data-target]")) {
    const t = el.getAttribute("data-target");
    if (lastTarget && lastTarget === t) el.classList.add("last-move");
    const ids = byTarget.get(t);
    if (!ids) continue;
    el.classList.add("clickable");
    if (ids.length === 1) el.dataset.action = String(ids[0]);
    el.addEventListener("click", () => {
      if (ids.length === 1) onAct(ids[0]);
      else onChoose(ids);
    });
  }
}

export function clearBoard(box) {
  box.textContent = "";
}
