"""Constructed positions (docs/positions.md) from Python: a position taken along a random game
loads from text and from a dict, shows every seat what the game showed it, plays to the end,
saves with its position and reloads mid-way, draws; broken documents raise their codes; every
position file of every game loads and plays to the end."""

from __future__ import annotations

import json
import random

import pytest

import kassen
from kassen.bots import make_bot
from kassen import SPECTATOR
from kassen import exceptions as ex

from conftest import REPO, played


def _board(s: kassen.State, observer: int) -> dict:
    v = s.view(observer)
    v.pop("last_action")  # a loaded position has no last action: its history starts there
    return v


def _play_out(p: kassen.State, seed: int) -> kassen.State:
    """Plays `p` to the end at random; saves and reloads after a few steps."""
    r = random.Random(seed)
    steps = 0
    while not p.is_terminal():
        p.apply_action(r.choice(p.legal_actions()))
        steps += 1
        if steps == 5:
            save = p.to_json()
            assert "position" in json.loads(save)
            back = kassen.State.from_json(save)
            assert back == p and back.history() == p.history()
            p = back
        assert steps <= p.game().max_game_length()
    assert p.render_svg(SPECTATOR).startswith("<svg")
    return p


def test_a_position_round_trips_and_plays_to_the_end(game):
    for steps in (0, 30):
        s = played(game, 4, steps)
        doc = s.to_position()
        assert doc["format"] == kassen.POSITION_FORMAT and doc["game"] == game.id
        p = kassen.State.from_position(doc)
        assert p.started_at_position() and not s.started_at_position()
        assert p.history() == []
        assert kassen.State.from_position(json.dumps(doc)) == p
        assert game.load_position(s.to_position_json()) == p
        assert p.to_position() == doc
        named = s.to_named_position()
        assert named["format"] == kassen.NAMED_POSITION_FORMAT and named["game"] == game.id
        assert kassen.State.from_position(named) == p
        assert json.loads(s.to_named_position_json()) == named
        assert p.current_player() == s.current_player()
        assert p.legal_actions() == s.legal_actions()
        for q in range(SPECTATOR, game.num_players()):
            assert _board(p, q) == _board(s, q)
            assert (p.observation_tensor(q) == s.observation_tensor(q)).all()
        end = _play_out(p, steps)
        assert len(end.returns()) == game.num_players()


def test_broken_positions_raise_their_codes(game2):
    doc = played(game2, 1, 10).to_position()

    def code(d) -> int:
        with pytest.raises(ex.KassenError) as info:
            kassen.State.from_position(d)
        return info.value.code

    with pytest.raises(ex.MalformedJsonError):
        kassen.State.from_position("{")
    with pytest.raises(ex.ArgumentTypeError):
        kassen.State.from_position(7)
    with pytest.raises(ex.InvalidPositionError) as info:
        kassen.State.from_position({**doc, "extra": 1})
    assert info.value.code == 306 and "extra" in str(info.value)
    assert code({**doc, "position": {**doc["position"], "no_such_field": 0}}) == 306
    assert code({**doc, "format": kassen.STATE_FORMAT}) == 301
    assert code({**doc, "rules_version": "0"}) == 303
    assert code({**doc, "game": "no-such-game"}) == 302
    other = next(g for g in kassen.games() if g != game2.id)
    with pytest.raises(ex.WrongGameError):
        kassen.load_game(other).load_position(doc)


def test_a_search_bot_reports_a_position_it_cannot_determinize(game2):
    s = played(game2, 2, 12)
    p = kassen.State.from_position(s.to_position())
    seat = p.current_player()
    if p.is_terminal() or len(p.legal_actions()) < 2:
        pytest.skip("no decision to search here")
    try:
        world = p.determinize(seat, 5)
    except ex.PositionNotSupportedError as e:
        assert e.code == 307 and isinstance(e, ex.RuleError)
        assert game2.info()["hidden_information"]
        bot = make_bot("ismcts:easy", seed=1)
        with pytest.raises(ex.PositionNotSupportedError):
            bot.choose(p)
    else:
        assert world.started_at_position()
        assert _board(world, seat) == _board(p, seat)


def test_every_position_file_loads_and_plays_to_the_end():
    files = sorted((REPO / "core" / "src" / "games").glob("*/positions/*.json"))
    for path in files:
        p = kassen.State.from_position(path.read_text())
        again = kassen.State.from_position(p.to_position())
        assert again == kassen.State.from_position(again.to_position())
        for seed in range(2):
            _play_out(p.clone(), seed)
