// A game's config choices, shared by the lobby and the play page's new-game dialog: from the
// game's example configs (and its default config when given), a key with numbers or strings
// becomes a list of its values, a key with booleans a switch.

function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
// Config keys the engine adds to every game (core/src/engine), in words; a game's own keys are
// shown by their names.
const ENGINE_KEYS = { explicit_chance: "Record each chance draw as its own step" };
export function words(key) { return ENGINE_KEYS[key] || cap(String(key).replace(/_/g, " ")); }

// The config choices of a game, from its example configs (and its default config when the
// catalog gives one): a key with numbers or strings becomes a list of its values, a key with
// booleans a switch. Anything else goes into the "other config keys" field.
export function configChoices(g) {
  const seen = new Map();
  const samples = (g.configs || []).concat(g.default_config ? [g.default_config] : []);
  for (const c of samples) {
    for (const [k, v] of Object.entries(c || {})) {
      if (!["number", "string", "boolean"].includes(typeof v)) continue;
      if (!seen.has(k)) seen.set(k, new Set());
      seen.get(k).add(v);
    }
  }
  const choices = [];
  for (const [key, values] of seen) {
    const list = Array.from(values);
    const def = g.default_config && key in g.default_config ? g.default_config[key] : undefined;
    if (list.every((v) => typeof v === "boolean")) choices.push({ key, kind: "switch", def: def === undefined ? false : def });
    else if (list.length > 1) choices.push({ key, kind: "list", values: list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), def });
    else if (typeof list[0] === "number") choices.push({ key, kind: "number", def: list[0] });
    else choices.push({ key, kind: "list", values: list, def });
  }
  return choices;
}

// The seat names under `config`: the game's own (under its default config) when the number of
// players is the default's, else "Player 1", "Player 2", ...
export function seatNames(g, config) {
  const n = typeof config.players === "number" ? config.players : g.seats.length;
  return n === g.seats.length ? g.seats : Array.from({ length: n }, (_, i) => `Player ${i + 1}`);
}
