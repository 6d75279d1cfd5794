// The board: an SVG picture drawn by the engine, whose elements carry `data-target` names.
// showBoard puts the picture into `box`, outlines the element the last move named, and makes
// the places that legal moves name clickable: one move is played at once (onAct(id)), several
// are handed to onChoose(ids) to pick from.
//
// A place takes the click anywhere inside its outline, whatever is drawn over it (a road, a
// river, a piece, a neighbour's label): the places of the legal moves are highlighted where
// they are drawn (class `target`), and a transparent copy of each one's shapes is laid on top
// of the whole picture (the hit layer: one group per place, class `clickable`, with its
// `data-target` and, when a single move names it, `data-action`), which takes the clicks.

import { movesByTarget } from "./moves.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SHAPES = "polygon, rect, circle, ellipse, path, line, polyline";
// Lines are hard to hit at their drawn width: their copies are at least this wide.
const MIN_STROKE = 12;

// The smallest size, in CSS pixels, of a text of the picture as `readable` shows it.
export const MIN_TEXT_PX = 11;

// `readable`: the picture is shown as large as fits in its box (the whole of it in view), and
// larger where that would draw a text under MIN_TEXT_PX (the box then scrolls: drag the picture or use the scroll bars
// to pan), times `zoom`. Without it the page's CSS sizes the picture.
// `panel`: an element beside the board that takes the picture's side lists (the legend, the
// seats' notes, a game's own lists drawn in a group of class `side-list`), each as a picture
// of its own; the board then shows the map alone (the page has its own status and last-move
// lines, so the picture's header and footer are left out).
export function showBoard(box, svgText, { legal = [], lastTarget = null, onAct = () => {}, onChoose = () => {},
                                          readable = false, zoom = 1, panel = null } = {}) {
  const scroll = [box.scrollLeft, box.scrollTop];
  box.innerHTML = svgText || "";
  const svg = box.querySelector("svg");
  if (!svg) return;
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  if (panel) splitSideLists(svg, panel);
  if (readable) {
    sizeReadable(box, svg, zoom);
    [box.scrollLeft, box.scrollTop] = scroll;
  }
  const byTarget = movesByTarget(legal);
  const places = new Map();
  const named = new Map();
  for (const el of svg.querySelectorAll("[data-target]")) {
    const t = el.getAttribute("data-target");
    if (lastTarget && lastTarget === t) el.classList.add("last-move");
    if (el.dataset.label && (byTarget.has(t) || lastTarget === t)) named.set(t, el);
    if (!byTarget.has(t)) continue;
    el.classList.add("target");
    if (!places.has(t)) places.set(t, []);
    places.get(t).push(el);
  }
  labelPlaces(svg, named);
  if (!places.size) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "hit-layer");
  svg.appendChild(layer);
  // Places drawn as lines (roads) go first, areas after: where a road's wide copy meets a
  // town's, the town takes the click.
  const groups = [];
  for (const [t, els] of places) {
    const ids = byTarget.get(t);
    const g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("class", "clickable");
    g.setAttribute("data-target", t);
    if (ids.length === 1) g.dataset.action = String(ids[0]);
    let area = false;
    // A picture not on screen yet has no matrices: its places then take the clicks themselves.
    if (!svg.getScreenCTM()) {
      for (const el of els) el.addEventListener("click", () => (ids.length === 1 ? onAct(ids[0]) : onChoose(ids)));
      continue;
    }
    for (const el of els) {
      const copies = [];
      for (const shape of [el, ...el.querySelectorAll(SHAPES)]) {
        if (!shape.matches(SHAPES)) continue;
        const copy = copyShape(svg, shape);
        if (copy) copies.push(copy);
      }
      // A place drawn as several small shapes (a town's circle and its markers) takes the
      // click in the box around them too, at least MIN_HIT wide and high.
      const areas = copies.filter((c) => c.dataset.area);
      if (areas.length > 1 || (areas.length === 1 && small(el))) {
        const box = boxAround(svg, el);
        if (box) g.appendChild(box);
      }
      for (const c of copies) {
        if (c.dataset.area) area = true;
        g.appendChild(c);
      }
    }
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (ids.length === 1) onAct(ids[0]);
      else onChoose(ids);
    });
    groups.push([area, g]);
  }
  groups.sort((a, b) => Number(a[0]) - Number(b[0]));
  for (const [, g] of groups) layer.appendChild(g);
}

// The font size of a place's name written on it (in the picture's units: at least 11 px on
// screen wherever `readable` sized the picture).
const LABEL_SIZE = 12;

// Writes the name of each place in `named` (target -> element with a `data-label`: a place the
// map has no room to name, like a hex's printed number) above it, where the moves and the last
// move name it. The names take no clicks.
function labelPlaces(svg, named) {
  if (!named.size || !svg.getScreenCTM()) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "place-labels");
  layer.setAttribute("pointer-events", "none");
  const root = svg.getScreenCTM().inverse();
  for (const [t, el] of named) {
    const m = el.getScreenCTM();
    if (!m) continue;
    const b = el.getBBox();
    const l = root.multiply(m);
    const x = l.a * (b.x + b.width / 2) + l.c * b.y + l.e;
    const y = l.b * (b.x + b.width / 2) + l.d * b.y + l.f;
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("x", String(x));
    text.setAttribute("y", String(y + LABEL_SIZE * 0.35));
    text.setAttribute("font-size", String(LABEL_SIZE));
    text.setAttribute("font-weight", "bold");
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("fill", "#000");
    text.setAttribute("stroke", "#fff");
    text.setAttribute("stroke-width", "3");
    text.setAttribute("paint-order", "stroke");
    text.setAttribute("data-label-of", t);
    text.textContent = el.dataset.label;
    layer.appendChild(text);
  }
  svg.appendChild(layer);
}

// Places smaller than this (in the picture's units) get a hit box this large.
const MIN_HIT = 22;

function small(el) {
  const b = el.getBBox();
  return b.width < MIN_HIT || b.height < MIN_HIT;
}

// A transparent rectangle around `el` in the picture's coordinates, at least MIN_HIT a side.
function boxAround(svg, el) {
  const m = el.getScreenCTM(), root = svg.getScreenCTM();
  if (!m || !root) return null;
  const b = el.getBBox();
  const w = Math.max(b.width, MIN_HIT), h = Math.max(b.height, MIN_HIT);
  const r = document.createElementNS(SVG_NS, "rect");
  r.setAttribute("x", String(b.x + b.width / 2 - w / 2));
  r.setAttribute("y", String(b.y + b.height / 2 - h / 2));
  r.setAttribute("width", String(w));
  r.setAttribute("height", String(h));
  const l = root.inverse().multiply(m);
  r.setAttribute("transform", `matrix(${l.a} ${l.b} ${l.c} ${l.d} ${l.e} ${l.f})`);
  r.setAttribute("fill", "transparent");
  r.setAttribute("stroke", "none");
  r.setAttribute("pointer-events", "all");
  r.dataset.area = "1";
  return r;
}

// A transparent copy of `shape` in the picture's coordinates (its transforms applied), taking
// clicks on its inside and its outline; null for a shape that is not drawn.
function copyShape(svg, shape) {
  // Screen matrices: a shape inside a nested <svg> (a side panel) is placed right too.
  const m = shape.getScreenCTM && shape.getScreenCTM();
  const root = svg.getScreenCTM && svg.getScreenCTM();
  if (!m || !root) return null;
  const copy = shape.cloneNode(false);
  // A dashed road takes the click in its gaps too.
  for (const a of ["id", "class", "style", "data-target", "data-action", "stroke-dasharray", "opacity", "visibility"]) {
    copy.removeAttribute(a);
  }
  const local = root.inverse().multiply(m);
  copy.setAttribute("transform", `matrix(${local.a} ${local.b} ${local.c} ${local.d} ${local.e} ${local.f})`);
  const cs = getComputedStyle(shape);
  // A closed shape takes the click anywhere inside, painted or not; a line (a road) and an
  // open path along its stroke.
  const closed = ["polygon", "rect", "circle", "ellipse"].includes(shape.localName);
  const filled = closed || (shape.localName === "path" && cs.fill !== "none");
  if (filled) copy.dataset.area = "1";
  const width = parseFloat(cs.strokeWidth) || 0;
  copy.setAttribute("stroke-width", String(Math.max(width, filled ? width : MIN_STROKE)));
  copy.setAttribute("fill", filled ? "transparent" : "none");
  copy.setAttribute("stroke", "transparent");
  copy.setAttribute("pointer-events", filled ? "all" : "stroke");
  return copy;
}

// Moves the picture's side lists (a game's `g.side-list`, the frame's `g.panel`) into `panel`,
// one picture each, and crops the picture to its map.
function splitSideLists(svg, panel) {
  const map = svg.querySelector(":scope > g.board");
  panel.textContent = "";
  if (!map) return;
  const lists = [...map.querySelectorAll("g.side-list"), ...svg.querySelectorAll(":scope > g.panel")];
  for (const list of lists) {
    const b = list.getBBox();
    if (!b.width || !b.height) { list.remove(); continue; }
    // The list keeps the transforms of the groups it was drawn in (the board's placement).
    const m = svg.getScreenCTM() && list.parentNode.getScreenCTM
      ? svg.getScreenCTM().inverse().multiply(list.parentNode.getScreenCTM()) : null;
    const pad = 4;
    const x0 = m ? b.x * m.a + m.e : b.x, y0 = m ? b.y * m.d + m.f : b.y;
    const w = b.width * (m ? m.a : 1), h = b.height * (m ? m.d : 1);
    const own = document.createElementNS(SVG_NS, "svg");
    own.setAttribute("viewBox", `${x0 - pad} ${y0 - pad} ${w + 2 * pad} ${h + 2 * pad}`);
    own.setAttribute("font-family", svg.getAttribute("font-family") || "");
    own.setAttribute("class", "side-list");
    const g = document.createElementNS(SVG_NS, "g");
    if (m) g.setAttribute("transform", `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
    g.appendChild(list);
    own.appendChild(g);
    panel.appendChild(own);
    own.dataset.w = String(w + 2 * pad);
    own.dataset.h = String(h + 2 * pad);
    fitList(own, panel);
  }
  // The map alone: the header, footer and background go; the picture is cropped to the map.
  for (const el of [...svg.children]) {
    if (el !== map && !["defs", "style"].includes(el.localName)) el.remove();
  }
  // Whole pixels: a fractional size would be laid out a hair smaller than drawn, and its
  // smallest text a hair under MIN_TEXT_PX.
  const b = map.getBBox();
  const pad = 6;
  const x0 = Math.floor(b.x - pad), y0 = Math.floor(b.y - pad);
  const w = Math.ceil(b.x + b.width + pad) - x0, h = Math.ceil(b.y + b.height + pad) - y0;
  svg.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
  svg.setAttribute("width", String(w));
  svg.setAttribute("height", String(h));
}

// Sizes again the side lists `panel` holds (after its box was shown: a hidden box has no
// width to fit them to).
export function fitSideLists(panel) {
  for (const own of panel.querySelectorAll(":scope > svg.side-list")) fitList(own, panel);
}

// A side list as wide as its box, at most its drawn size, never with a text under MIN_TEXT_PX.
// In a box not on screen (no width, no text sizes) it keeps its drawn size.
function fitList(own, box) {
  const W = Number(own.dataset.w), H = Number(own.dataset.h);
  own.style.maxWidth = "none";
  own.style.maxHeight = "none";
  own.style.width = W + "px";
  own.style.height = H + "px";
  const small = smallestText(own);
  if (!box.clientWidth || !small) return;
  const room = Math.max(1, box.clientWidth - 10);
  const scale = Math.max(Math.min(1, room / W), small ? MIN_TEXT_PX / small : 0);
  // Rounded up: a size rounded down would draw the smallest text a hair under MIN_TEXT_PX.
  own.style.width = Math.ceil(W * scale) + "px";
  own.style.height = Math.ceil(H * scale) + "px";
}

// The picture's drawn size (its width and height attributes, else its viewBox).
function drawnSize(svg) {
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const w = parseFloat(svg.getAttribute("width")) || (vb && vb.width) || 0;
  const h = parseFloat(svg.getAttribute("height")) || (vb && vb.height) || 0;
  return [w, h];
}

// The smallest font size of the picture's texts in its own units (their transforms applied).
function smallestText(svg) {
  const root = svg.getScreenCTM();
  if (!root) return null;
  const inv = root.inverse();
  let min = Infinity;
  for (const t of svg.querySelectorAll("text")) {
    if (!t.textContent.trim()) continue;
    const m = t.getScreenCTM();
    if (!m) continue;
    const l = inv.multiply(m);
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(l.a * l.d - l.b * l.c));
    if (px > 0 && px < min) min = px;
  }
  return Number.isFinite(min) ? min : null;
}

function sizeReadable(box, svg, zoom) {
  const [w, h] = drawnSize(svg);
  if (!w || !h) return;
  svg.style.maxWidth = "none";
  svg.style.maxHeight = "none";
  // First at the drawn size, to measure the texts (the measure is in the picture's units).
  svg.style.width = w + "px";
  svg.style.height = h + "px";
  const small = smallestText(svg);
  // The whole map in the box where its texts stay readable at that size.
  const fit = Math.min(Math.max(1, box.clientWidth - 2) / w, Math.max(1, box.clientHeight - 2) / h);
  const scale = Math.max(fit, small ? MIN_TEXT_PX / small : 1) * zoom;
  svg.style.width = Math.ceil(w * scale) + "px";
  svg.style.height = Math.ceil(h * scale) + "px";
  box.dataset.scale = scale.toFixed(3);
}

// Dragging the picture pans the box it scrolls in; a drag is not a click.
export function panByDragging(box) {
  let from = null, moved = false;
  box.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    from = [e.clientX, e.clientY, box.scrollLeft, box.scrollTop];
    moved = false;
  });
  box.addEventListener("pointermove", (e) => {
    if (!from) return;
    const dx = e.clientX - from[0], dy = e.clientY - from[1];
    if (!moved && Math.abs(dx) + Math.abs(dy) < 6) return;
    moved = true;
    box.scrollLeft = from[2] - dx;
    box.scrollTop = from[3] - dy;
  });
  const stop = () => { from = null; };
  box.addEventListener("pointerup", stop);
  box.addEventListener("pointerleave", stop);
  box.addEventListener("click", (e) => {
    if (moved) { e.stopPropagation(); e.preventDefault(); moved = false; }
  }, true);
}

export function clearBoard(box) {
  box.textContent = "";
}
