"""The text face for language-model agents: ``State.text_observation``, ``State.parse_move``
and ``Game.rules_primer`` on every registered game (docs/text.md)."""

from __future__ import annotations

import json
import random

import pytest

import kassen
from kassen import SPECTATOR
from kassen.exceptions import GameOverError, InvalidPlayerError, NotYourTurnError, RuleError, UnreadableMoveError


def states(game, seed, every=5, limit=40):
    r = random.Random(seed)
    s = game.new_initial_state(seed)
    out, i = [], 0
    while not s.is_terminal() and len(out) < limit:
        if s.current_player() >= 0 and i % every == 0:
            out.append(s.clone())
        i += 1
        s.apply_action(r.choice(s.legal_actions()))
    return out, s


@pytest.fixture(params=sorted(kassen.games()))
def game(request):
    return kassen.load_game(request.param)


def test_text_names_the_game_the_seat_and_numbered_moves(game):
    sampled, _ = states(game, 3)
    for s in sampled:
        seat = s.current_player()
        text = s.text_observation(seat)
        assert text.startswith("# ") and f"You are seat {seat}" in text
        legal = s.legal_actions()
        assert f"## Your legal moves ({len(legal)})" in text
        for a in legal:
            name = s.action_to_string(a)
            assert name.split(": ", 1)[-1] in text
        other = (seat + 1) % game.num_players()
        if other != seat:
            assert "## Your legal moves" not in s.text_observation(other)
        assert "spectator" in s.text_observation(SPECTATOR)


def test_a_seat_text_equals_its_determinizations(game):
    sampled, _ = states(game, 5, every=9, limit=12)
    for s in sampled:
        for p in range(-1, game.num_players()):
            twin = s.determinize(p, 99)
            assert twin.text_observation(p) == s.text_observation(p)


def test_moves_read_back_in_many_forms(game):
    sampled, _ = states(game, 7, every=7, limit=15)
    for s in sampled:
        seat = s.current_player()
        legal = s.legal_actions()
        names = [s.action_to_string(a) for a in legal]
        for i, (a, name) in enumerate(zip(legal, names)):
            forms = [name, name.upper(), f'  "{name}" ', f"```\n{name}\n```", str(i + 1), f"#{i + 1}",
                     json.dumps({"id": a}), f"```json\n{json.dumps({'id': a})}\n```", json.dumps({"move": name})]
            if not any(o != name and name.lower() in o.lower() for o in names):
                forms.append(f"I will play: {name}.")
            for form in forms:
                assert s.parse_move(seat, form) == a, (form, names)


def test_wrong_answers_raise_unreadable_move_and_leave_the_state(game):
    sampled, end = states(game, 9, every=11, limit=6)
    for s in sampled:
        seat = s.current_player()
        before = s.to_json()
        for wrong in ["", "xyzzy plugh frobnicate", "0", str(len(s.legal_actions()) + 1), '{"id": 999999999}', "x" * 20000]:
            with pytest.raises(UnreadableMoveError) as info:
                s.parse_move(seat, wrong)
            assert info.value.code == 206 and isinstance(info.value, RuleError) and isinstance(info.value, ValueError)
            assert "1. " in str(info.value)
        if game.num_players() > 1:
            with pytest.raises(NotYourTurnError):
                s.parse_move((seat + 1) % game.num_players(), "1")
        with pytest.raises(InvalidPlayerError):
            s.text_observation(game.num_players())
        assert s.to_json() == before
    if end.is_terminal():
        assert "The game is over" in end.text_observation(0)
        with pytest.raises(GameOverError):
            end.parse_move(0, "1")


def test_rules_primer_is_a_short_markdown_page(game):
    primer = game.rules_primer()
    assert primer.startswith("# ")
    assert 300 <= len(primer.split()) <= 2100
    assert "core/src" not in primer
