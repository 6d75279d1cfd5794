"""The Python examples of README.md (the repository's and python/README.md) run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
READMES = [REPO / "README.md", REPO / "python" / "README.md"]


def python_blocks():
    for readme in READMES:
        if readme.is_file():
            for i, m in enumerate(re.finditer(r"```python\n(.*?)```", readme.read_text(), re.S)):
                yield pytest.param(m.group(1), id=f"{readme.relative_to(REPO)}#{i}")


BLOCKS = list(python_blocks())


@pytest.mark.skipif(not BLOCKS, reason="no python examples in the READMEs")
@pytest.mark.parametrize("code", BLOCKS)
def test_readme_example_runs(code, capsys):
    exec(compile(code, "<readme>", "exec"), {"__name__": "__readme__"})
