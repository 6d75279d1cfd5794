"""A client for OpenAI-compatible chat-completions endpoints (OpenAI, vLLM, llama.cpp's server,
Ollama, ...) on the standard library alone."""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.error
import urllib.request
from typing import Any, Optional

__all__ = ["ChatEndpoint", "EndpointError", "Reply"]


class EndpointError(RuntimeError):
    """The endpoint failed after its retries (network error, HTTP error or a reply without
    a message)."""


class Reply:
    """One answer: its text and the token counts the endpoint reported (``None`` when it
    reported none)."""

    __slots__ = ("text", "prompt_tokens", "completion_tokens")

    def __init__(self, text: str, prompt_tokens: Optional[int] = None, completion_tokens: Optional[int] = None):
        self.text = text
        self.prompt_tokens = prompt_tokens
        self.completion_tokens = completion_tokens


class ChatEndpoint:
    """POSTs ``{base_url}/chat/completions`` with ``model``, the messages and ``params``
    (``temperature``, ``max_tokens``, ...); the key goes in ``Authorization: Bearer``. The
    base URL and key default to ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``, the model to
    ``OPENAI_MODEL``. HTTP 429 and 5xx and network errors are retried ``retries`` times with
    exponential backoff; other errors raise :class:`EndpointError` at once."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        model: Optional[str] = None,
        api_key: Optional[str] = None,
        timeout: float = 120.0,
        retries: int = 4,
        params: Optional[dict[str, Any]] = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        self.model = model or os.environ.get("OPENAI_MODEL") or ""
        if not self.model:
            raise ValueError("no model: pass --model or set OPENAI_MODEL")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.timeout = timeout
        self.retries = retries
        self.params = dict(params or {})

    def __call__(self, messages: list[dict[str, str]]) -> Reply:
        body = json.dumps({"model": self.model, "messages": messages, **self.params}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        delay = 1.0
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(self.base_url + "/chat/completions", body, headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    data = json.loads(response.read())
                break
            except urllib.error.HTTPError as e:
                detail = e.read()[:500].decode("utf-8", "replace")
                if (e.code == 429 or e.code >= 500) and attempt < self.retries:
                    time.sleep(delay)
                    delay *= 2
                    continue
                raise EndpointError(f"{self.base_url}: HTTP {e.code}: {detail}") from None
            # OSError: URLError, connection errors and timeouts (socket.timeout is no
            # TimeoutError before Python 3.10); HTTPException: a reply cut short.
            except (OSError, http.client.HTTPException, json.JSONDecodeError) as e:
                if attempt < self.retries:
                    time.sleep(delay)
                    delay *= 2
                    continue
                raise EndpointError(f"{self.base_url}: {e}") from None
        try:
            text = data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise EndpointError(f"{self.base_url}: a reply without choices[0].message: {str(data)[:300]}") from None
        usage = data.get("usage") or {}
        return Reply(text, usage.get("prompt_tokens"), usage.get("completion_tokens"))
