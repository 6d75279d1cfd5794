"""Prints the golden playthroughs (tests/golden/*.json) as tab-separated lines
"game, config JSON, seed, final hash, comma-separated player actions" for the C++ and C#
tests, which replay them and compare the final hash."""
import json
import pathlib
import sys

for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    g = json.loads(path.read_text())
    config = json.dumps(g["config"], separators=(",", ":"))
    actions = ",".join(str(a) for a in g["player_actions"])
    print(f'{g["game"]}\t{config}\t{g["seed"]}\t{g["final"]["hash"]}\t{actions}')
