"""The benchmark harness (``python -m kassen.agents``, :mod:`kassen.agents`) against a local
chat-completions stub with scripted policies (chat_stub.py): no network, no model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import kassen
from chat_stub import ChatStub
from kassen.agents import ChatEndpoint, EndpointError, GameSpec, Match, estimate_tokens, play_game, run
from kassen.agents.stats import mean_interval, wilson

GAME = "samurai"


def harness(stub: ChatStub, out: Path, model: str, *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "kassen.agents", "--games", GAME, "--bot", "random", "--base-url", stub.base_url,
           "--model", model, "--api-key", "sk-test", "--out", str(out), *extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_cli_plays_every_seat_and_records_results_transcripts_and_summary(tmp_path):
    with ChatStub(seed=1) as stub:
        done = harness(stub, tmp_path, "random", "-n", "3")
        assert done.returncode == 0, done.stderr
        assert set(stub.auth) == {"Bearer sk-test"}
    results = read(tmp_path / "results.jsonl")
    seats = kassen.load_game(GAME).num_players()
    assert sorted((r["seat"], r["episode"]) for r in results) == [(s, i) for s in range(seats) for i in range(3)]
    for r in results:
        assert r["outcome"] in ("win", "draw", "loss") and not r["forfeit"] and r["invalid_answers"] == 0
        assert r["decisions"] > 0 and r["answers"] == r["decisions"] and not r["tokens_estimated"]
    # The endpoint's usage counts are the ones recorded (the stub reports characters, not /4).
    assert sum(r["tokens_in"] for r in results) == sum(t for t, _ in stub.reported)
    assert sum(r["tokens_out"] for r in results) == sum(t for _, t in stub.reported)
    assert sum(r["decisions"] for r in results) == len(stub.requests)
    # Every request: the primer as the system message, the observation as the user message.
    primer = kassen.load_game(GAME).rules_primer()
    assert all(q["messages"][0] == {"role": "system", "content": primer} for q in stub.requests)
    assert all(q["messages"][1]["content"].startswith("# ") for q in stub.requests)
    transcripts = read(tmp_path / "transcripts.jsonl")
    assert [t["key"] for t in transcripts if t["type"] == "game"] == [r["key"] for r in results]
    decisions = [t for t in transcripts if t["type"] == "decision"]
    assert len(decisions) == len(stub.requests)
    assert all(d["move"] and d["answers"][0]["answer"] for d in decisions)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert len(summary["groups"]) == seats
    for g in summary["groups"]:
        assert g["games"] == 3 and g["invalid_rate"] == 0.0
        lo, hi = g["score_95"]
        assert 0.0 <= lo <= g["score"] <= hi <= 1.0 and hi - lo > 0.1
        assert g["tokens_in_per_decision"] > 100


def test_an_invalid_first_answer_gets_the_error_and_one_retry(tmp_path):
    with ChatStub(seed=2) as stub:
        done = harness(stub, tmp_path, "invalid-first", "-n", "1", "--seats", "0")
        assert done.returncode == 0, done.stderr
    [r] = read(tmp_path / "results.jsonl")
    assert r["answers"] == 2 * r["decisions"] and r["invalid_answers"] == r["decisions"] and not r["forfeit"]
    [g] = json.loads((tmp_path / "summary.json").read_text())["groups"]
    assert g["invalid_rate"] == 0.5
    retries = [q for q in stub.requests if len(q["messages"]) == 4]
    assert len(retries) == r["decisions"]
    for q in retries:
        assert q["messages"][2] == {"role": "assistant", "content": "Let me think about the weather instead."}
        assert "could not be read" in q["messages"][3]["content"] and "1." in q["messages"][3]["content"]
    decision = next(t for t in read(tmp_path / "transcripts.jsonl") if t["type"] == "decision")
    assert "error" in decision["answers"][0] and "error" not in decision["answers"][1]


def test_answers_that_never_name_a_move_forfeit_or_fall_back_to_random_moves(tmp_path):
    with ChatStub() as stub:
        done = harness(stub, tmp_path / "forfeit", "always-invalid", "-n", "2", "--seats", "0", "--retries", "2")
        assert done.returncode == 0, done.stderr
        done = harness(stub, tmp_path / "random", "always-invalid", "-n", "1", "--seats", "0", "--on-invalid", "random")
        assert done.returncode == 0, done.stderr
    for r in read(tmp_path / "forfeit" / "results.jsonl"):
        assert r["forfeit"] and r["outcome"] == "loss" and r["return"] == -1.0
        assert r["decisions"] == 1 and r["answers"] == 3 and r["invalid_answers"] == 3
    [g] = json.loads((tmp_path / "forfeit" / "summary.json").read_text())["groups"]
    assert g["forfeits"] == 2 and g["invalid_rate"] == 1.0 and g["score"] == 0.0
    [r] = read(tmp_path / "random" / "results.jsonl")
    assert not r["forfeit"] and r["fallback_moves"] == r["decisions"] > 1


def test_without_usage_tokens_are_characters_over_four(tmp_path):
    with ChatStub() as stub:
        done = harness(stub, tmp_path, "random-no-usage", "-n", "1", "--seats", "1")
        assert done.returncode == 0, done.stderr
    [r] = read(tmp_path / "results.jsonl")
    assert r["tokens_estimated"]
    expected_in = sum(estimate_tokens(m["content"]) for q in stub.requests for m in q["messages"])
    assert r["tokens_in"] == expected_in
    decisions = [t for t in read(tmp_path / "transcripts.jsonl") if t["type"] == "decision"]
    assert r["tokens_out"] == sum(estimate_tokens(d["answers"][0]["answer"]) for d in decisions)


def test_a_slow_endpoint_is_waited_for_and_a_timeout_is_an_endpoint_error(tmp_path):
    with ChatStub() as stub:
        endpoint = ChatEndpoint(stub.base_url, "slow", "k", timeout=30)
        result, _ = play_game(endpoint, GameSpec(GAME, 0, "random", 0, 5))
        assert result["outcome"] in ("win", "draw", "loss") and result["invalid_answers"] == 0
        assert len(stub.requests) == result["decisions"]
        impatient = ChatEndpoint(stub.base_url, "slow", "k", timeout=0.05, retries=0)
        with pytest.raises(EndpointError):
            impatient([{"role": "user", "content": "## Your legal moves (2)"}])
        with pytest.raises(EndpointError, match="HTTP 404"):
            ChatEndpoint(stub.base_url, "no-such-model", retries=0)([{"role": "user", "content": "x"}])


def test_an_interrupted_run_resumes_without_replaying_finished_games(tmp_path):
    specs = [GameSpec(GAME, seat, "random", i, 100 + i) for seat in (0, 1) for i in range(2)]
    # Stop in the middle of the third game.
    stop_at = sum(play_game(lambda m: "1", s)[0]["decisions"] for s in specs[:2]) + 3
    calls = []

    def agent(messages):
        calls.append(messages[1]["content"])
        if len(calls) == stop_at:
            raise KeyboardInterrupt
        return "1"

    with pytest.raises(KeyboardInterrupt):
        run(agent, specs, tmp_path)
    first = read(tmp_path / "results.jsonl")
    assert [r["key"] for r in first] == [s.key for s in specs[:2]]
    # An interruption while a line was being written leaves a partial line: ignored.
    with (tmp_path / "results.jsonl").open("a") as f:
        f.write('{"key": "cut sh')
    # A transcript written for a game whose result line never was: dropped, the game replayed.
    with (tmp_path / "transcripts.jsonl").open("a") as f:
        f.write(json.dumps({"type": "game", "key": specs[2].key, "system": "x"}) + "\n")
    again = []
    summary = run(lambda messages: again.append(1) or "1", specs, tmp_path)
    results = read(tmp_path / "results.jsonl")
    assert [r["key"] for r in results] == [s.key for s in specs]
    assert len(again) == sum(r["decisions"] for r in results[2:])
    assert sum(g["games"] for g in summary["groups"]) == len(specs)
    # Each game's transcript appears once, and only for finished games.
    games = [t["key"] for t in read(tmp_path / "transcripts.jsonl") if t["type"] == "game"]
    assert sorted(games) == sorted(s.key for s in specs)
    # A third run plays nothing.
    played = []
    run(lambda messages: played.append(1) or "1", specs, tmp_path)
    assert played == []


def test_same_seeds_and_answers_replay_the_same_game():
    spec = GameSpec(GAME, 1, "ismcts:20", 0, 9)
    a, lines_a = play_game(lambda m: "1", spec)
    b, lines_b = play_game(lambda m: "1", spec)
    assert [x["observation"] for x in lines_a[1:]] == [x["observation"] for x in lines_b[1:]]
    assert a["returns"] == b["returns"]


def test_match_refuses_bad_seats_and_bots():
    with pytest.raises(ValueError):
        Match(GAME, {}, 5)
    with pytest.raises(ValueError):
        Match(GAME, {}, 0, bot="no-such-bot")


def test_intervals():
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-12
    # Reference values of the Wilson score interval (z = 1.96).
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4
    assert wilson(0, 10)[0] == 0.0 and abs(wilson(0, 10)[1] - 0.2775) < 1e-4
    assert abs(wilson(10, 10)[1] - 1.0) < 1e-12 and wilson(0, 0) == (0.0, 1.0)
    mean, lo, hi = mean_interval([1.0, -1.0, 1.0, -1.0])
    assert mean == 0.0 and lo < 0 < hi
