"""A local stand-in for an OpenAI-compatible chat-completions endpoint, for the agent tests.

It speaks the wire format (POST /v1/chat/completions, JSON in and out, ``usage`` with
``prompt_tokens`` and ``completion_tokens``) and answers with a scripted policy chosen by the
request's ``model``:

- ``random``: a uniformly random legal move, as its number ("7") or in a sentence
  ("I choose option 7."), read from the "## Your legal moves (N)" line of the observation;
- ``invalid-first``: at every decision an unreadable first answer, then a random legal move;
- ``always-invalid``: never a legal move;
- ``slow``: ``random`` after ``SLOW_SECONDS``;
- ``random-no-usage``: ``random`` without a ``usage`` field.

The reported ``prompt_tokens`` is the number of characters of all the messages (not /4), so a
test can tell the endpoint's count from the harness's estimate."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SLOW_SECONDS = 0.3
_MOVES = re.compile(r"^## Your legal moves \((\d+)\)", re.M)


class ChatStub:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.reported: list[tuple[int, int]] = []
        self.auth: list[str] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self.send_error(404)
                    return
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                status, reply = stub.answer(body, self.headers.get("Authorization", ""))
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that timed out and closed its end (the timeout test)

        self.server = Server(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "ChatStub":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _random_move(self, observation: str) -> str:
        found = _MOVES.search(observation)
        if not found:
            return "I have no move to make."
        k = self.rng.randint(1, int(found.group(1)))
        return self.rng.choice([str(k), f"I choose option {k}."])

    def answer(self, body: dict[str, Any], auth: str) -> tuple[int, dict[str, Any]]:
        messages = body.get("messages")
        model = body.get("model", "")
        if not isinstance(messages, list) or not messages:
            return 400, {"error": {"message": "messages must be a non-empty list"}}
        observation = next((m["content"] for m in messages if m["role"] == "user"), "")
        first_try = len(messages) == 2
        with self.lock:
            self.requests.append(body)
            self.auth.append(auth)
            if model in ("random", "random-no-usage", "slow"):
                text = self._random_move(observation)
            elif model == "invalid-first":
                text = "Let me think about the weather instead." if first_try else self._random_move(observation)
            elif model == "always-invalid":
                text = "xyzzy"
            else:
                return 404, {"error": {"message": f"no model {model!r}"}}
            prompt_tokens = sum(len(m["content"]) for m in messages)
            completion_tokens = len(text)
            if model != "random-no-usage":
                self.reported.append((prompt_tokens, completion_tokens))
        if model == "slow":
            time.sleep(SLOW_SECONDS)
        reply: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        }
        if model != "random-no-usage":
            reply["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                              "total_tokens": prompt_tokens + completion_tokens}
        return 200, reply
