"""Boards, views, replays and the play session from Python."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import kassen
from kassen.play import Session
from kassen.replay import replay_data, replay_frames


def _midgame(game_id: str, steps: int = 30) -> kassen.State:
    state = kassen.load_game(game_id).new_initial_state(seed=2)
    for i in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[(i * 7919) % len(legal)])
    return state


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_render_svg_for_every_observer(game_id):
    state = _midgame(game_id)
    n = state.game().num_players()
    pictures = {p: state.render_svg(p) for p in range(-1, n)}
    for p, svg in pictures.items():
        assert svg.startswith("<svg ") and svg.rstrip().endswith("</svg>")
        assert "Legend" in svg
        view = kassen.View(state, p)
        assert view._repr_svg_() == svg
        assert view["observer"] == (None if p == -1 else p)
        assert view.body == state.view(p)["body"]
    with pytest.raises(kassen.RuleError) as e:
        state.render_svg(n)
    assert e.value.code == 205


def test_render_view_svg_rejects_bad_views():
    game = kassen.load_game("samurai")
    view = game.new_initial_state(1).view(0)
    assert game.render_view_svg(json.dumps(view)).startswith("<svg ")
    view["game"] = "sekigahara"
    with pytest.raises(kassen.KassenError) as e:
        game.render_view_svg(json.dumps(view))
    assert e.value.code == 6
    with pytest.raises(kassen.KassenError) as e:
        game.render_view_svg("{not json")
    assert e.value.code == 300


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_replay_html_has_a_frame_per_visible_step(game_id, tmp_path):
    state = _midgame(game_id, 25)
    page = kassen.replay_html(state, 1)
    data = replay_data(page)
    frames = replay_frames(page)
    assert len(frames) >= 2
    assert frames[-1][1] == state.render_svg(1)
    assert data["steps"] == [step for step, _ in frames]
    assert data["events"] == [[e["step"], e["text"]] for e in state.events_with_text(1, 0)]
    assert all(text for _, text in data["events"])
    saved = tmp_path / "saved.json"
    saved.write_text(state.to_json())
    out = tmp_path / "replay.html"
    subprocess.run([sys.executable, "-m", "kassen.replay", str(saved), "--seat", "1", "-o", str(out)], check=True,
                   capture_output=True)
    assert out.read_text(encoding="utf-8") == page


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_replay_command_reports_an_old_save_without_a_traceback(game_id, tmp_path):
    # Issue 37.7: a save of an earlier rules_version is one line on stderr with code 303 and
    # exit status 1, not a traceback; a missing file likewise.
    saved = json.loads(_midgame(game_id, 5).to_json())
    saved["rules_version"] = f"{game_id}/0"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(saved))
    out = tmp_path / "replay.html"
    for args in ([str(path)], [str(tmp_path / "missing.json")]):
        proc = subprocess.run([sys.executable, "-m", "kassen.replay", *args, "-o", str(out)], capture_output=True,
                              text=True)
        assert proc.returncode == 1, proc
        assert "Traceback" not in proc.stderr and proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "kassen.replay", str(path), "-o", str(out)], capture_output=True,
                          text=True)
    assert "rules version" in proc.stderr and "303" in proc.stderr
    assert not out.exists()


def test_play_session_sends_only_the_seats_view():
    session = Session("sekigahara", {}, seat=0, seed=4)
    snap = session.snapshot()
    assert snap["view"] == session.state.view(0)
    assert snap["svg"] == session.state.render_svg(0)
    assert "history" not in json.dumps(snap)
    assert [a["id"] for a in snap["legal"]] == session.state.legal_actions()
    before = snap["events_total"]
    snap = session.act(snap["legal"][0]["id"], before)
    assert snap["events_total"] == before + len(snap["events"])
    # The bot may play on in the background after the snapshot: the seat's log only grows.
    assert session.wait(120)
    assert snap["events"] == session.state.events_with_text(0, before)[: len(snap["events"])]
    with pytest.raises(kassen.KassenError):
        session.act(10**6)
