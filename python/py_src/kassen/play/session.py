"""One game at one screen between people (hot seat) and bots, kept on the server.

Each seat is played by a person (``"human"``) or by a bot named by a spec of
:func:`kassen.bots.bot_specs`. What leaves a session is only what the seat on screen may know:
its view, its board picture, its own events (with their sentences) and, when it is to act, its
own legal actions. When a move passes the turn to another person, the session first shows a
hand-off screen that holds nothing of any seat's secrets; the next person confirms before their
seat is shown. The state itself (its log, seed and the other seats' secrets) never leaves the
server: saved games are written to files on the server's side.

Bots play in the background (:mod:`kassen.play.bots`), one move at a time: while one thinks,
the snapshot says so (``thinking``: the seat, the moves it has made so far this turn and its
search's progress) and every request is answered at once; a new game or a loaded one cancels
the bot's turn. The seats' players are ``"human"`` or one of the bots the page offers
(:func:`kassen.bots.bot_specs`, plus those the session was started with); anything else is
refused with an ``InvalidConfigError`` (code 101)."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from typing import Any, Optional, Sequence

from kassen._kassen import CHANCE, SPECTATOR, State, covered_configs, games, load_game
from kassen.bots import bot_specs
from kassen.exceptions import InvalidConfigError
from kassen.play.bots import SeatBot
from kassen.play.hint import Hint
from kassen.replay import PLAY_SAVE_FORMAT

HUMAN = "human"
SAVE_FORMAT = PLAY_SAVE_FORMAT
SAVE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random legal moves"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> int:
        return self._rng.choice(state.legal_actions())


def _words(v: Any) -> str:
    if isinstance(v, str):
        return v.replace("_", " ")
    if isinstance(v, list):
        return " – ".join(_words(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{_words(k)} {_words(x)}" for k, x in v.items())
    return str(v)


def action_sentence(action: dict[str, Any]) -> str:
    """A legal move as a short sentence from its JSON: the game's own ``text`` when it gives
    one, else its verb and arguments (``{"verb": "step", "road": ["ueda", "arato"]}`` ->
    ``"Step: road ueda – arato"``)."""
    text = action.get("text")
    if isinstance(text, str) and text:
        text = text.replace("_", " ")
        return text[:1].upper() + text[1:]
    verb = _words(action.get("verb", "move"))
    rest = [f"{_words(k)} {_words(v)}" for k, v in action.items() if k not in ("id", "verb")]
    sentence = verb[:1].upper() + verb[1:]
    return f"{sentence}: {'; '.join(rest)}" if rest else sentence


_GAMES: dict[str, dict[str, Any]] = {}


def _game_list() -> dict[str, dict[str, Any]]:
    """Every registered game: its name, seat names under its default config, the default
    config and the example configs that show its choices (players, rule switches, limits)."""
    if not _GAMES:
        for gid, name in games().items():
            game = load_game(gid, {})
            seats = game.new_initial_state(0).view(SPECTATOR)["seats"]
            _GAMES[gid] = {"name": name, "seats": [s["name"] for s in seats], "default_config": game.info()["config"],
                           "configs": covered_configs(gid)}
    return _GAMES


class Session:
    """A game of ``game_id`` (``config``: a dict). ``players`` names who plays each seat
    (``"human"`` or a bot spec); without it, ``seat`` is the person and the other seats are
    random bots."""

    def __init__(self, game_id: str, config: Optional[dict[str, Any]] = None, seat: int = 0, seed: int = 0,
                 players: Optional[Sequence[str]] = None, save_dir: Optional[Path] = None) -> None:
        self._lock = threading.Lock()
        # Signalled whenever the bots move or stop (see ``wait``).
        self._changed = threading.Condition(self._lock)
        self.save_dir = Path(save_dir) if save_dir is not None else Path.cwd()
        self._cancel = threading.Event()
        self._worker: Optional[threading.Thread] = None
        self._thinking: Optional[dict[str, Any]] = None
        self._hint = Hint()
        # The pause after each bot move while only bots play (the spectator's speed control).
        self.delay_ms = 500
        self.bot_error: Optional[str] = None
        # The bots the page offers: the built-in levels, and those the session starts with.
        self._choices = bot_specs()
        for spec in players or ():
            if spec != HUMAN and spec not in {b["spec"] for b in self._choices}:
                SeatBot(spec, 0)  # a spec the engine does not know is refused here
                self._choices.append({"spec": spec, "name": spec, "description": f"the bot {spec!r}"})
        with self._lock:
            self._start(game_id, config or {}, seat, seed, players)

    # === a new game ===

    def _start(self, game_id: str, config: dict[str, Any], seat: int, seed: int, players: Optional[Sequence[str]],
               state: Optional[State] = None) -> None:
        game = load_game(game_id, config)
        n = game.num_players()
        if players is None:
            if not 0 <= seat < n:
                raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
            players = [HUMAN if p == seat else "random" for p in range(n)]
        players = list(players)
        if len(players) != n:
            raise ValueError(f"{game_id} has {n} seats; got {len(players)} players")
        offered = {HUMAN} | {b["spec"] for b in self._choices}
        for spec in players:
            if not isinstance(spec, str) or spec not in offered:
                shown = repr(spec)[:80]
                raise InvalidConfigError(f"unknown player {shown} (offered: {', '.join(sorted(offered))})")
        bots = {p: SeatBot(spec, seed * 7919 + p) for p, spec in enumerate(players) if spec != HUMAN}
        self._stop_bots()
        self._hint.stop()
        self.game, self.config, self.players, self.bots, self.seed = game, config, players, bots, seed
        self.humans = [p for p, spec in enumerate(players) if spec == HUMAN]
        # Nobody plays: the page watches the bots as the spectator, at `delay_ms` per move.
        self.seat = self.humans[0] if self.humans else SPECTATOR
        self.handoff: Optional[int] = None
        self._chance = random.Random(seed)
        self.state = state if state is not None else game.new_initial_state(seed)
        # The history index of the last move a seat made here (its events carry it as their
        # `step`): the page shows their sentences as the last move.
        self._last_step: Optional[int] = None
        self.bot_error = None
        self._play_chance()
        if not self.state.is_terminal() and self.state.current_player() in self.humans:
            self.seat = self.state.current_player()  # nobody has seen a seat yet: no hand-off
        self._start_bots()

    # === the bots, in the background ===

    def _bot_to_act(self) -> bool:
        if self.state.is_terminal():
            return False
        p = self.state.current_player()
        return p == CHANCE or self.players[p] != HUMAN

    def _play_chance(self) -> None:
        while not self.state.is_terminal() and self.state.current_player() == CHANCE:
            ids, weights = zip(*self.state.chance_outcomes())
            self.state.apply_action(self._chance.choices(ids, weights)[0])

    def _stop_bots(self) -> None:
        """Cancels the bots' turn (under the lock): a move they are thinking about is dropped."""
        self._cancel.set()
        self._thinking = None
        self._changed.notify_all()

    def _start_bots(self) -> None:
        """Starts the bots' turn in the background if a bot is to act (under the lock)."""
        if not self._bot_to_act() or self.bot_error is not None:
            return
        self._cancel = threading.Event()
        p = self.state.current_player()
        self._thinking = self._thinking_of(p, 0)
        worker = threading.Thread(target=self._play_bots, args=(self._cancel,), name="kassen-play-bots", daemon=True)
        self._worker = worker
        worker.start()

    def _thinking_of(self, p: int, moves: int) -> dict[str, Any]:
        name = self.state.view(SPECTATOR)["seats"][p]["name"] if p >= 0 else "chance"
        return {"seat": p, "name": name, "player": self.players[p], "moves": moves, "iterations": None,
                "elapsed_ms": None}

    def _play_bots(self, cancelled: threading.Event) -> None:
        """The bots' turn: one move at a time, each thought about outside the lock on a copy."""
        moves = 0
        while True:
            with self._lock:
                if cancelled.is_set():
                    return
                self._play_chance()
                if not self._bot_to_act():
                    self._thinking = None
                    self._hand_to_next()
                    self._changed.notify_all()
                    return
                p = self.state.current_player()
                if self._thinking is None or self._thinking["seat"] != p:
                    moves = 0
                self._thinking = self._thinking_of(p, moves)
                bot, position, step = self.bots[p], self.state.clone(), len(self.state.history())

            def progress(info: dict[str, Any], seat: int = p) -> None:
                with self._lock:
                    if not cancelled.is_set() and self._thinking is not None and self._thinking["seat"] == seat:
                        self._thinking.update(info)

            try:
                action = bot.decide(position, cancelled, progress)
            except Exception as e:  # noqa: BLE001 - a bot that fails stops the bots, the page says why
                with self._lock:
                    if not cancelled.is_set():
                        self.bot_error = f"{bot.spec} could not move: {e}"[:300]
                        self._thinking = None
                        self._changed.notify_all()
                return
            with self._lock:
                if action is None or cancelled.is_set() or len(self.state.history()) != step:
                    return
                self._last_step = step
                self.state.apply_action(action)
                moves += 1
                if self._thinking is not None:
                    self._thinking.update(moves=moves, iterations=None, elapsed_ms=None)
                self._changed.notify_all()
            if not self.humans and self.delay_ms:
                cancelled.wait(self.delay_ms / 1000)

    def set_delay(self, delay_ms: int) -> dict[str, Any]:
        """The pause after each bot move while only bots play, in milliseconds (0 to 10,000)."""
        if not isinstance(delay_ms, int) or isinstance(delay_ms, bool) or not 0 <= delay_ms <= 10_000:
            raise ValueError("delay_ms must be an integer from 0 to 10000")
        with self._lock:
            self.delay_ms = delay_ms
            return self._snapshot(0)

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Waits until no bot is thinking (a person is to act, or the game is over); False if
        ``timeout`` seconds passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._thinking is None, timeout)

    def close(self) -> None:
        """Cancels the bots' turn and waits for their thread to end."""
        with self._lock:
            self._stop_bots()
            worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join()

    def _hand_to_next(self) -> None:
        """Shows the next person's seat, after a hand-off screen if another person was on it."""
        if self.state.is_terminal():
            return
        p = self.state.current_player()
        if p != self.seat and p >= 0 and self.players[p] == HUMAN:
            self.handoff = p

    # === what the page may know ===

    def _legal(self) -> list[dict[str, Any]]:
        if self.handoff is not None or self.state.is_terminal() or self.state.current_player() != self.seat:
            return []
        out = []
        for a in self.state.legal_actions():
            j = self.state.action_to_json(a)
            out.append({"id": a, "text": self.state.action_to_string(a), "sentence": action_sentence(j), "json": j,
                        "target": self.game.action_target(a)})
        return out

    def _common(self) -> dict[str, Any]:
        view = self.state.view(SPECTATOR)
        return {
            "game": self.game.id,
            "game_name": games().get(self.game.id, self.game.id),
            "config": self.config,
            "spectating": not self.humans,
            "delay_ms": self.delay_ms,
            "seat_names": [s["name"] for s in view["seats"]],
            "players": self.players,
            "bots": self._choices,
            "games": _game_list(),
        }

    def snapshot(self, since: int = 0) -> dict[str, Any]:
        """What the page may know now; ``events`` are the seat's events from its ``since``-th."""
        with self._lock:
            return self._snapshot(since)

    def _snapshot(self, since: int) -> dict[str, Any]:
        out = self._common()
        if self.handoff is not None:
            out.update({"handoff": {"to": self.handoff, "name": out["seat_names"][self.handoff]}, "seat": None,
                        "terminal": False})
            return out
        seat = self.seat
        view = self.state.view(seat)
        events = self.state.events_with_text(seat, max(0, since))
        last = view.get("last_action")
        last_move = None
        if last is not None:
            # The seat's event sentences of that move (``step``) are what the page shows; a
            # move the seat may not see has no id, text or target here.
            last_move = {"seat": last.get("seat"), "step": self._last_step, "text": last.get("text"),
                         "target": self.game.action_target(last["id"]) if last.get("id") is not None else None}
        terminal = self.state.is_terminal()
        out.update({
            "seat": seat,
            "svg": self.state.render_svg(seat),
            "view": view,
            "prompt": ((view.get("to_act") or {}).get("decision") or {}).get("prompt"),
            "to_act": (view.get("to_act") or {}).get("seat"),
            "events": events,
            "events_total": max(0, since) + len(events),
            "legal": self._legal(),
            "last_move": last_move,
            "terminal": terminal,
            "returns": self.state.returns() if terminal else None,
            "winners": view.get("winners") if terminal else None,
            "end_text": self._end_text(seat) if terminal else None,
            # The position a move answers: a move names it, so a repeated request is not
            # played twice (see ``act``).
            "step": len(self.state.history()),
            # A bot to act: who, how many moves it has made this turn, its search's progress.
            "thinking": dict(self._thinking) if self._thinking is not None else None,
            "bot_error": self.bot_error,
        })
        return out

    def _end_text(self, seat: int) -> Optional[str]:
        """Why the game ended, with the score: the sentence of the seat's last event (every
        game's last event, its ``game_over``, says it)."""
        events = self.state.events_with_text(seat, 0)
        return events[-1].get("text") if events else None

    # === what the page may do ===

    def act(self, action: int, since: int = 0, step: Optional[int] = None) -> dict[str, Any]:
        """Plays ``action`` for the seat on screen; the bots then play in the background until
        a person is to act (``wait`` waits for them).

        ``step``: the snapshot ``step`` the move answers. If the game has moved on (the same
        request sent twice, or a move chosen on an old page), nothing is played and the answer
        is the current snapshot with ``"applied": False``."""
        with self._lock:
            if self.handoff is not None:
                raise ValueError("the next player has not taken the screen yet")
            if step is not None and step != len(self.state.history()):
                return dict(self._snapshot(since), applied=False)
            step = len(self.state.history())
            if self.seat == SPECTATOR:
                raise ValueError("a spectator cannot move")
            self.state.apply_action_as(self.seat, action)
            self._hint.stop()
            self._last_step = step
            self._play_chance()
            if self._bot_to_act():
                self._start_bots()
            else:
                self._hand_to_next()
            return dict(self._snapshot(since), applied=True)

    def hint(self, start: bool) -> dict[str, Any]:
        """The hint for the seat on screen at the current position (:class:`kassen.play.hint.Hint`):
        ``start`` begins its search in the background (only on the seat's own move; the same
        position again keeps the search it has), otherwise only how far it is. Never waits
        for the search."""
        with self._lock:
            key = (len(self.state.history()), self.seat)
            if start:
                if self.handoff is not None or self.state.is_terminal() or self.seat == SPECTATOR \
                        or self.state.current_player() != self.seat:
                    raise ValueError("a hint is for the seat on screen, at its own move")
                self._hint.start(self.state, key, self.seed * 1_000_003 + key[0])
            return self._hint.report(self.state, key, self.game.info()["utility"])

    def take_over(self) -> dict[str, Any]:
        """The next person confirms the hand-off: their seat is shown, its events from the first."""
        with self._lock:
            if self.handoff is not None:
                self.seat, self.handoff = self.handoff, None
            return self._snapshot(0)

    def new_game(self, game_id: Optional[str], players: Sequence[str], seed: int,
                 config: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """Starts a new game (``game_id`` None: the same game and config)."""
        with self._lock:
            gid = game_id or self.game.id
            cfg = config if config is not None else (self.config if gid == self.game.id else {})
            self._start(gid, cfg, 0, seed, players)
            self.handoff = None
            return self._snapshot(0)

    def saves(self) -> list[str]:
        """The names of the games saved in the save directory."""
        return sorted(p.name[: -len(".kassen.json")] for p in self.save_dir.glob("*.kassen.json"))

    def save_list(self) -> list[dict[str, Any]]:
        """The saved games, newest first, as the load list shows them: ``name``, ``game`` (its
        name), ``saved`` (the file's time, seconds since the epoch), ``step`` (moves and chance
        draws so far), ``turn`` (the game's own turn or round count, when its view has one),
        ``to_act`` (the name of the seat to move; None when over) and ``over``. A file that does
        not load is listed with ``error`` instead. Nothing of any seat's secrets is in it."""
        out = []
        for name in self.saves():
            path = self._path(name)
            entry: dict[str, Any] = {"name": name, "saved": int(path.stat().st_mtime)}
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
                state = State.from_json(json.dumps(doc["state"]))
                view = state.view(SPECTATOR)
                body = view.get("body") or {}
                turn = next((body[k] for k in ("turn", "round") if isinstance(body.get(k), int)), None)
                p = (view.get("to_act") or {}).get("seat")
                entry.update({"game": games().get(state.game().id, state.game().id), "step": len(state.history()),
                              "turn": turn, "over": state.is_terminal(),
                              "to_act": view["seats"][p]["name"] if isinstance(p, int) and p >= 0 else None})
            except Exception as e:  # noqa: BLE001 - a damaged file is listed as such, not fatal
                entry["error"] = str(e)[:200]
            out.append(entry)
        out.sort(key=lambda e: e["saved"], reverse=True)
        return out

    def replay(self, name: Optional[str] = None) -> str:
        """The replay page (:mod:`kassen.replay`) of the game on screen, or of the saved game
        ``name``, as the seat on screen (the saved seat) saw it: none of the other seats'
        secrets are in it."""
        with self._lock:
            if name is None:
                if self.handoff is not None:
                    raise ValueError("the next player has not taken the screen yet")
                state, seat = self.state.clone(), self.seat
            else:
                doc = self._read_save(name)
                state = State.from_json(json.dumps(doc["state"]))
                seat = doc.get("seat")
                players = doc.get("players")
                if not (isinstance(seat, int) and isinstance(players, list) and 0 <= seat < len(players)
                        and players[seat] == HUMAN):
                    raise ValueError(f"{name!r} names no person's seat")
        return state.replay_html(seat)

    def _path(self, name: str) -> Path:
        if not isinstance(name, str) or not SAVE_NAME.fullmatch(name):
            raise ValueError("a save name is 1 to 64 letters, digits, '-' or '_'")
        return self.save_dir / f"{name}.kassen.json"

    def _read_save(self, name: str) -> dict[str, Any]:
        """The document of the save `name`, checked to be a kassen.play save."""
        path = self._path(name)
        if not path.is_file():
            raise ValueError(f"no saved game {name!r}")
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("format") != SAVE_FORMAT:
            raise ValueError(f"{name!r} is not a kassen.play save")
        return doc

    def save(self, name: str) -> dict[str, Any]:
        """Writes the game (the whole state and who plays each seat) to a file on the server;
        nothing of it is sent to the page."""
        with self._lock:
            doc = {"format": SAVE_FORMAT, "players": self.players, "seat": self.seat, "seed": self.seed,
                   "state": json.loads(self.state.to_json())}
            self._path(name).write_text(json.dumps(doc), encoding="utf-8")
            return {"saved": name, "saves": self.saves()}

    def load(self, name: str) -> dict[str, Any]:
        """Continues a saved game."""
        with self._lock:
            doc = self._read_save(name)
            state = State.from_json(json.dumps(doc["state"]))
            game = state.game()
            self._start(game.id, game.info()["config"], 0, int(doc.get("seed", 0)), doc["players"], state=state)
            seat = doc.get("seat")
            if isinstance(seat, int) and seat in self.humans:
                self.seat = seat
                self.handoff = None
                if not self._bot_to_act():
                    self._hand_to_next()
            return self._snapshot(0)


__all__ = ["Session", "RandomBot", "action_sentence"]
