"""A minimal W3C WebDriver client over chromedriver (standard library only)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any, Optional

ELEMENT = "element-6066-11e4-a52f-4d65822e4e70"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(RuntimeError):
    pass


class Browser:
    """Headless Chromium driven through chromedriver on a loopback port."""

    def __init__(self, width: int = 1500, height: int = 1000) -> None:
        driver = shutil.which("chromedriver")
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if driver is None or binary is None:
            raise WebDriverError("chromium and chromedriver are needed (tests/browser/run.sh installs them)")
        self.port = free_port()
        self.proc = subprocess.Popen([driver, f"--port={self.port}", "--allowed-ips=127.0.0.1"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                self._call("GET", "/status")
                break
            except (OSError, WebDriverError):
                if time.monotonic() > deadline:
                    self.proc.kill()
                    raise
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": binary,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars"]}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]
        # Stepping a long replay to its end in one script takes more than WebDriver's default
        # 30 s on a busy machine.
        self._s("POST", "/timeouts", {"script": 120_000})

    def _call(self, method: str, path: str, body: Optional[dict[str, Any]] = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=180) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise WebDriverError(e.read().decode(errors="replace")) from None

    def _s(self, method: str, path: str, body: Optional[dict[str, Any]] = None) -> Any:
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url: str) -> None:
        self._s("POST", "/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        return self._s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def run_async(self, script: str, *args: Any) -> Any:
        return self._s("POST", "/execute/async", {"script": script, "args": list(args)})

    def find(self, css: str) -> list[str]:
        found = self._s("POST", "/elements", {"using": "css selector", "value": css})
        return [next(iter(e.values())) for e in found]

    def click(self, element: str) -> None:
        self._s("POST", f"/element/{element}/click", {})

    def type(self, element: str, text: str) -> None:
        """Types ``text`` into an input element (after what it holds)."""
        self._s("POST", f"/element/{element}/value", {"text": text})

    def cdp(self, command: str, params: dict[str, Any]) -> Any:
        """A Chrome DevTools Protocol command through chromedriver."""
        return self._s("POST", "/goog/cdp/execute", {"cmd": command, "params": params})

    def resize(self, width: int, height: int) -> None:
        """Sets the size of the page's viewport (the window is made larger by its frame)."""
        self._s("POST", "/window/rect", {"width": width, "height": height})
        inner = self.run("return [window.innerWidth, window.innerHeight];")
        if inner != [width, height]:
            self._s("POST", "/window/rect", {"width": 2 * width - inner[0], "height": 2 * height - inner[1]})

    def screenshot(self) -> str:
        """A PNG of the viewport, base64-encoded."""
        return self._s("GET", "/screenshot")

    def quit(self) -> None:
        try:
            self._s("DELETE", "")
        except (OSError, WebDriverError):
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
