"""The benchmark harness: an agent plays N games per game, config, seat and bot against the
built-in bots, with transcripts, results and a summary on disk (docs/agents.md).

An agent is any callable taking the chat messages (``[{"role": "system", "content": primer},
{"role": "user", "content": observation}, ...]``) and returning the answer's text or a
:class:`~kassen.agents.endpoint.Reply` (text plus token counts); :class:`ChatEndpoint` is one
for OpenAI-compatible endpoints. Each decision sends the game's rules primer as the system
message and the seat's text observation as the user message; an answer that names no legal
move gets the error text as a follow-up user message and ``retries`` more tries, after which the
seat forfeits the game (``on_invalid="forfeit"``, TextArena's rule) or a random legal move is
played for it (``"random"``). Files in ``out``:

- ``results.jsonl``: one line per finished game (the key, seed, outcome, returns, decisions,
  answers, invalid answers, tokens, seconds). A run that finds a line for a game skips it, so an
  interrupted run resumes where it stopped.
- ``transcripts.jsonl``: per game a ``"game"`` line (the system prompt) then one ``"decision"``
  line per decision (the observation, every answer with its tokens, seconds and error, the
  move played), written when the game ends.
- ``summary.json``: per game, config, seat and bot: games, wins, draws, losses, the win rate
  and the score (a draw counts a half) with 95% Wilson intervals, the mean return with its 95%
  interval, the invalid-answer rate, forfeits and tokens in and out per decision.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Union

from kassen.agents.endpoint import Reply
from kassen.agents.match import Match
from kassen.agents.stats import mean_interval, wilson
from kassen.exceptions import UnreadableMoveError

__all__ = ["Agent", "GameSpec", "play_game", "run", "summarize", "estimate_tokens"]

Agent = Callable[[list[dict[str, str]]], Union[str, Reply]]

RETRY_PROMPT = "Your answer could not be read: {error}\n\nAnswer again with exactly one legal move: its text or its number."


def estimate_tokens(text: str) -> int:
    """Characters / 4, rounded up: the count used when an endpoint reports no usage."""
    return (len(text) + 3) // 4


@dataclass(frozen=True)
class GameSpec:
    """One game of the benchmark: the agent plays ``seat`` of ``game`` against ``bot``."""

    game: str
    seat: int
    bot: str
    episode: int
    seed: int
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        cfg = json.dumps(self.config, sort_keys=True, separators=(",", ":"))
        return f"{self.game}|{cfg}|seat={self.seat}|bot={self.bot}|episode={self.episode}|seed={self.seed}"


def _ask(agent: Agent, messages: list[dict[str, str]]) -> tuple[str, int, int, bool, float]:
    t0 = time.perf_counter()
    reply = agent(messages)
    seconds = time.perf_counter() - t0
    if isinstance(reply, Reply):
        text, tin, tout = reply.text, reply.prompt_tokens, reply.completion_tokens
    else:
        text, tin, tout = str(reply), None, None
    estimated = tin is None or tout is None
    if tin is None:
        tin = sum(estimate_tokens(m["content"]) for m in messages)
    if tout is None:
        tout = estimate_tokens(text)
    return text, tin, tout, estimated, seconds


def play_game(
    agent: Agent, spec: GameSpec, retries: int = 1, on_invalid: str = "forfeit"
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Plays one game; returns its result record and its transcript lines."""
    started = time.perf_counter()
    m = Match(spec.game, spec.config, spec.seat, spec.bot, spec.seed)
    primer = m.game.rules_primer()
    fallback = random.Random(spec.seed)
    lines: list[dict[str, Any]] = [{"type": "game", "key": spec.key, "system": primer}]
    decisions = answers = invalid = fallbacks = tin_sum = tout_sum = 0
    agent_seconds = 0.0
    estimated_any = False
    forfeit = False
    while not m.over:
        observation = m.observe()
        messages = [{"role": "system", "content": primer}, {"role": "user", "content": observation}]
        record: dict[str, Any] = {
            "type": "decision", "key": spec.key, "decision": decisions, "observation": observation
        }
        tries = []
        move = None
        for _ in range(retries + 1):
            text, tin, tout, estimated, seconds = _ask(agent, messages)
            answers += 1
            tin_sum += tin
            tout_sum += tout
            agent_seconds += seconds
            estimated_any |= estimated
            entry: dict[str, Any] = {
                "answer": text, "tokens_in": tin, "tokens_out": tout, "estimated": estimated, "seconds": round(seconds, 6)
            }
            tries.append(entry)
            try:
                _, move = m.play(text)
                break
            except UnreadableMoveError as e:
                invalid += 1
                entry["error"] = str(e)
                messages = messages + [
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": RETRY_PROMPT.format(error=e)},
                ]
        decisions += 1
        record["answers"] = tries
        if move is None:
            if on_invalid == "random":
                _, move = m.play(str(fallback.randrange(len(m.legal_moves())) + 1))
                fallbacks += 1
                record["fallback"] = True
            else:
                m.resign()
                forfeit = True
        record["move"] = move
        lines.append(record)
    result = {
        "key": spec.key,
        "game": spec.game,
        "config": spec.config,
        "seat": spec.seat,
        "bot": spec.bot,
        "episode": spec.episode,
        "seed": spec.seed,
        "outcome": m.outcome(),
        "returns": m.returns(),
        "return": m.returns()[spec.seat],
        "decisions": decisions,
        "answers": answers,
        "invalid_answers": invalid,
        "forfeit": forfeit,
        "fallback_moves": fallbacks,
        "tokens_in": tin_sum,
        "tokens_out": tout_sum,
        "tokens_estimated": estimated_any,
        "agent_seconds": round(agent_seconds, 6),
        "seconds": round(time.perf_counter() - started, 6),
    }
    return result, lines


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut short by an interruption: its game is played again
    return out


def _append(path: Path, records: Iterable[dict[str, Any]]) -> None:
    with path.open("a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _rewrite(path: Path, records: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    tmp.replace(path)


def run(
    agent: Agent,
    specs: Iterable[GameSpec],
    out: Union[str, Path],
    retries: int = 1,
    on_invalid: str = "forfeit",
    progress: Optional[Callable[[dict[str, Any]], None]] = None,
) -> dict[str, Any]:
    """Plays every spec whose key is not yet in ``out/results.jsonl``, appending transcripts and
    results as each game ends, then writes and returns the summary."""
    if on_invalid not in ("forfeit", "random"):
        raise ValueError(f"on_invalid must be 'forfeit' or 'random', not {on_invalid!r}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    results_path, transcripts_path = out / "results.jsonl", out / "transcripts.jsonl"
    finished = [r for r in _read_jsonl(results_path) if "key" in r]
    done = {r["key"] for r in finished}
    if results_path.exists() and not results_path.read_bytes().endswith(b"\n") and results_path.stat().st_size:
        # A line cut short by an interruption: dropped, so the next line starts on its own.
        _rewrite(results_path, finished)
    # Transcript lines of a game that has no result (the run stopped between the two writes)
    # are dropped: the game is played again.
    kept = [t for t in _read_jsonl(transcripts_path) if t.get("key") in done]
    if transcripts_path.exists():
        _rewrite(transcripts_path, kept)
    for spec in specs:
        if spec.key in done:
            continue
        result, lines = play_game(agent, spec, retries, on_invalid)
        _append(transcripts_path, lines)
        _append(results_path, [result])
        done.add(spec.key)
        if progress is not None:
            progress(result)
    summary = summarize(_read_jsonl(results_path))
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Groups results by game, config, seat and bot (see the module docs for the fields)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    seen = set()
    for r in results:
        if r["key"] in seen:
            continue
        seen.add(r["key"])
        cfg = json.dumps(r["config"], sort_keys=True, separators=(",", ":"))
        groups.setdefault(f"{r['game']}|{cfg}|seat={r['seat']}|bot={r['bot']}", []).append(r)
    rows = []
    for name, rs in sorted(groups.items()):
        n = len(rs)
        wins = sum(r["outcome"] == "win" for r in rs)
        draws = sum(r["outcome"] == "draw" for r in rs)
        decisions = sum(r["decisions"] for r in rs)
        answers = sum(r["answers"] for r in rs)
        mean, lo, hi = mean_interval([float(r["return"]) for r in rs])
        rows.append(
            {
                "group": name,
                "game": rs[0]["game"],
                "config": rs[0]["config"],
                "seat": rs[0]["seat"],
                "bot": rs[0]["bot"],
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": n - wins - draws,
                "win_rate": wins / n,
                "win_rate_95": wilson(wins, n),
                "score": (wins + 0.5 * draws) / n,
                "score_95": wilson(wins + 0.5 * draws, n),
                "mean_return": mean,
                "mean_return_95": (lo, hi),
                "decisions": decisions,
                "invalid_rate": (sum(r["invalid_answers"] for r in rs) / answers) if answers else 0.0,
                "forfeits": sum(bool(r["forfeit"]) for r in rs),
                "tokens_in_per_decision": (sum(r["tokens_in"] for r in rs) / decisions) if decisions else 0.0,
                "tokens_out_per_decision": (sum(r["tokens_out"] for r in rs) / decisions) if decisions else 0.0,
                "tokens_estimated": any(r["tokens_estimated"] for r in rs),
                "agent_seconds_per_decision": (sum(r["agent_seconds"] for r in rs) / decisions) if decisions else 0.0,
                "seconds_per_decision": (sum(r["seconds"] for r in rs) / decisions) if decisions else 0.0,
            }
        )
    return {"groups": rows}
