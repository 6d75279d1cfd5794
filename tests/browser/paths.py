"""Where the browser suites find the checkout and leave what a person looks at afterwards
(screenshots, replays, ``browser-metrics.json``): ``$KASSEN_BROWSER_ARTIFACTS``, by default
target/browser-artifacts/."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("KASSEN_BROWSER_ARTIFACTS", ROOT / "target" / "browser-artifacts"))
