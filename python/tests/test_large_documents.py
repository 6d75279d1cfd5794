"""Huge documents and huge arguments (issue 37.3 and 37.7).

A saved state or position document is parsed within a memory bound proportional to what its
game can hold: text longer than 16 MiB, or holding a longer array or more values than the
game's documents hold, is ``DocumentTooLargeError`` (308), refused before it is parsed, as
JSON text or as a dict. The 15 MB document of 8 M zeros that used to abort the interpreter
under a 1 GiB address-space limit runs in a child process under that limit, so a regression
fails this test instead of killing the run. Error messages quoting a huge argument stay short.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap

import pytest

import kassen
from kassen import exceptions as ex

GAMES = sorted(kassen.games())
ZEROS = 8_000_000
SHORT = 1100  # the longest message a kassen error carries, with room for its prefix


def zeros_documents(gid: str) -> tuple[str, str]:
    """A position document and a saved state of `gid`, each with 8 M zeros in one array."""
    game = kassen.load_game(gid)
    rules = game.info()["rules_version"]
    zeros = "[" + "0," * (ZEROS - 1) + "0]"
    position = (
        f'{{"format":"{kassen.POSITION_FORMAT}","game":"{gid}","rules_version":"{rules}",'
        f'"config":{{}},"seed":0,"position":{zeros}}}'
    )
    saved = (
        f'{{"format":"{kassen.STATE_FORMAT}","game":"{gid}","rules_version":"{rules}",'
        f'"config":{{}},"seed":0,"history":{zeros}}}'
    )
    return position, saved


def test_eight_million_zeros_do_not_abort_under_one_gib():
    # The parse runs in a child limited to 1 GiB of address space; an abort ("memory
    # allocation of ... bytes failed") is a negative return code and fails here.
    code = f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        sys.path.insert(0, {str(__import__('pathlib').Path(__file__).parent)!r})
        import kassen
        from test_large_documents import zeros_documents
        for gid in sorted(kassen.games()):
            position, saved = zeros_documents(gid)
            assert 15_000_000 < len(position) < 16 << 20
            game = kassen.load_game(gid)
            for load, text in [
                (kassen.State.from_position, position),
                (game.load_position, position),
                (kassen.State.from_json, saved),
                (game.state_from_json, saved),
            ]:
                try:
                    load(text)
                except kassen.exceptions.DocumentTooLargeError as e:
                    assert e.code == 308, e.code
                    assert len(str(e)) < {SHORT}
                else:
                    raise AssertionError(f"{{gid}}: {{load}} accepted 8 M zeros")
            del position, saved
        print("bounded")
    """
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip() == "bounded"


@pytest.mark.parametrize("gid", GAMES)
def test_a_document_past_its_game_limits_is_too_large(gid):
    game = kassen.load_game(gid)
    s = game.new_initial_state(1)
    # As a dict: an array longer than the game's documents hold.
    position = s.to_position()
    position["position"] = [0] * 100_000
    with pytest.raises(ex.DocumentTooLargeError) as e:
        kassen.State.from_position(position)
    assert e.value.code == 308
    with pytest.raises(ex.DocumentTooLargeError):
        game.load_position(position)
    position["position"] = [0] * 2_000_000  # past the conversion's own bound
    with pytest.raises(ex.DocumentTooLargeError):
        kassen.State.from_position(position)
    # As text longer than 16 MiB.
    huge = json.dumps({"format": kassen.STATE_FORMAT, "game": gid, "pad": "x" * (17 << 20)})
    for load in (kassen.State.from_json, game.state_from_json, kassen.State.from_position, game.load_position):
        with pytest.raises(ex.DocumentTooLargeError):
            load(huge)


@pytest.mark.parametrize("gid", GAMES)
def test_long_finished_games_still_load(gid):
    for config in kassen.covered_configs(gid):
        game = kassen.load_game(gid, config)
        longest = None
        for seed in range(3):
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            if longest is None or len(s.history()) > len(longest.history()):
                longest = s
        assert longest is not None
        text = longest.to_json()
        assert kassen.State.from_json(text) == longest
        assert game.state_from_json(text) == longest
        assert kassen.State.from_position(longest.to_position_json()).is_terminal()
        assert game.load_position(longest.to_position()).is_terminal()


# --- 37.7: messages quoting a huge argument are cut ---


def test_messages_quoting_huge_input_are_short():
    big = "x" * 10_000_000
    with pytest.raises(ex.UnknownGameError) as e:
        kassen.load_game(big)
    assert len(str(e.value)) < SHORT and "xxxx" in str(e.value)
    with pytest.raises(kassen.KassenError) as e:
        kassen.Bot(big)
    assert len(str(e.value)) < SHORT
    with pytest.raises(ex.UnknownConfigKeyError) as e:
        kassen.load_game("samurai", {big: 1})
    assert len(str(e.value)) < SHORT
    # Inside a save, under the game's limits on documents (a few MB).
    saved = json.loads(kassen.load_game("samurai").new_initial_state(1).to_json())
    saved["format"] = "f" * 3_000_000
    with pytest.raises(ex.UnsupportedFormatError) as e:
        kassen.State.from_json(json.dumps(saved))
    assert len(str(e.value)) < SHORT
    saved["format"] = kassen.STATE_FORMAT
    saved["rules_version"] = "合" * 1_000_000
    with pytest.raises(ex.RulesVersionMismatchError) as e:
        kassen.State.from_json(json.dumps(saved, ensure_ascii=False))
    assert len(str(e.value).encode()) < SHORT and "合" in str(e.value)
    del saved["rules_version"]
    saved["config"] = list(range(1000))
    with pytest.raises(ex.InvalidStateError) as e:
        kassen.State.from_json(json.dumps(saved))
    assert len(str(e.value)) < SHORT


# --- 37.7: Batch sizes past any int type, non-integer counts in configs ---


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 2**64},
        {"num_envs": -(2**70)},
        {"num_envs": 1, "threads": 2**64},
        {"num_envs": 1, "learner_seat": -1},
        {"num_envs": 1, "learner_seat": 2**64},
        {"num_envs": 1, "obs_seat": 2**40},
        {"num_envs": 1, "max_episode_steps": 2**40},
    ],
)
def test_batch_ints_past_their_type_are_coded_errors(kwargs):
    game = kassen.load_game("samurai")
    with pytest.raises(ex.ConfigOutOfRangeError) as e:
        kassen.Batch(game, **kwargs)
    assert e.value.code == 102


@pytest.mark.parametrize("gid", GAMES)
def test_integer_config_fields_refuse_non_integers(gid):
    # Every integer field of the game's config, as a set-up game reports its config.
    for covered in kassen.covered_configs(gid):
        config = kassen.load_game(gid, covered).info()["config"]
        for k, v in config.items():
            if type(v) is not int:
                continue
            for bad in (float(v), v + 0.5):
                with pytest.raises(ex.InvalidConfigError) as e:
                    kassen.load_game(gid, {**config, k: bad})
                assert e.value.code == 101
            with pytest.raises(ex.InvalidConfigError):
                kassen._kassen._load_game_json(gid, json.dumps({**config, k: float(v)}))
            assert kassen.load_game(gid, {**config, k: v}).info()["config"] == config


def test_samurai_players_as_a_float_is_refused():
    # The case of the issue, by name, beside the generic check above.
    with pytest.raises(ex.InvalidConfigError):
        kassen.load_game("samurai", {"players": 2.0})
