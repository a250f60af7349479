"""A real local HTTP server speaking the chat-completions protocol, for subprocess tests.

By default it answers like a permissive server. Its options make it answer like vLLM does when a
request goes past what it serves: another model name (404), a request whose prompt plus
``max_tokens`` exceeds ``max_model_len`` (400), ``top_logprobs`` above ``--max-logprobs`` (400),
each with vLLM's error body ``{"object": "error", "message": ..., "type": ..., "code": ...}``.
``GET /v1/models`` lists the served model with its ``max_model_len``; ``GET /props`` answers like
llama.cpp's server when ``n_ctx`` is set.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.reliability.fakeserver import completion, yes_no_logprobs


def _block(tag: str, user: str) -> str:
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", user, re.DOTALL)
    return m.group(1) if m else ""


def _sentence(user: str) -> str:
    return _block("sentence", user)


def qas_for(sentence: str) -> list[dict]:
    """Rows say '<Name> visited <Place> ...': two QA pairs copied from the sentence."""
    words = sentence.split()
    if len(words) < 3 or words[1] != "visited":
        return []
    return [{"predicate": "visited", "predicate_type": "verbal", "question": "who visited something?", "answer": words[0]},
            {"predicate": "visited", "predicate_type": "verbal", "question": "what did someone visit?", "answer": words[2]}]


def facts_for(text: str) -> list[dict]:
    """TriQua facts for every '<Name> visited <Place>' in the passage."""
    return [{"subject": a, "relation": "visited", "object": b, "qualifiers": []}
            for a, b in re.findall(r"(\w+) visited (\w+)", text)]


def prompt_tokens(body: dict) -> int:
    """What this server counts as the prompt's length: about 4 characters a token, as a BPE
    tokenizer gives on English (factgrain's own estimate must be at least as large)."""
    return sum(len(m.get("content") or "") for m in body["messages"]) // 4 + 4 * len(body["messages"])


class _Handler(BaseHTTPRequestHandler):
    delay = 0.0
    hits: list[str] = []
    requests: list[dict] = []
    served_model: str | None = None
    max_model_len: int | None = None
    max_logprobs: int | None = None
    n_ctx: int | None = None
    structured_reply: str | None = None  # a fixed content for every structured request

    def _send(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, kind: str, message: str) -> None:
        self._send(status, {"object": "error", "message": message, "type": kind, "param": None, "code": status})

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        self.hits.append("GET " + self.path)
        if self.path.rstrip("/").endswith("/models"):
            entry = {"id": self.served_model or "fake", "object": "model", "owned_by": "test"}
            if self.max_model_len:
                entry["max_model_len"] = self.max_model_len
            self._send(200, {"object": "list", "data": [entry]})
        elif self.path.rstrip("/") == "/props" and self.n_ctx:
            self._send(200, {"default_generation_settings": {"n_ctx": self.n_ctx}, "total_slots": 1})
        else:
            self._error(404, "NotFoundError", f"Not Found: {self.path}")

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        time.sleep(self.delay)
        self.requests.append(body)
        kind = "structured" if "response_format" in body else "chat"
        self.hits.append(kind)
        if self.served_model and body.get("model") != self.served_model:
            return self._error(404, "NotFoundError", f"The model `{body.get('model')}` does not exist.")
        n_prompt = prompt_tokens(body)
        wanted = body.get("max_tokens") or 16
        if self.max_model_len and n_prompt + wanted > self.max_model_len:
            return self._error(400, "BadRequestError",
                               f"This model's maximum context length is {self.max_model_len} tokens. However, you "
                               f"requested {n_prompt + wanted} tokens ({n_prompt} in the messages, {wanted} in the "
                               "completion). Please reduce the length of the messages or completion.")
        if self.max_logprobs is not None and (body.get("top_logprobs") or 0) > self.max_logprobs:
            return self._error(400, "BadRequestError", f"Requested top logprobs of {body['top_logprobs']} exceeds "
                                                       f"maximum of {self.max_logprobs}.")
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if kind == "structured":
            schema = json.dumps(body["response_format"])
            if self.structured_reply is not None:
                content = self.structured_reply
            elif '"facts"' in schema:
                content = json.dumps({"facts": facts_for(_block("text", user))})
            else:
                content = json.dumps({"qas": qas_for(_sentence(user))})
            reply = completion(content)
        else:
            reply = completion("Yes", finish_reason="length", logprobs=yes_no_logprobs(0.8))
        reply["usage"]["prompt_tokens"] = n_prompt
        self._send(200, reply)

    def log_message(self, *args) -> None:  # keep test output clean
        pass


class LocalServer:
    """``keepalive=True`` answers in HTTP/1.1 with persistent connections, as vLLM and llama.cpp do
    (a client left open then holds sockets that must be closed inside their event loop)."""

    def __init__(self, delay: float = 0.0, *, keepalive: bool = False, served_model: str | None = None,
                 max_model_len: int | None = None, max_logprobs: int | None = None, n_ctx: int | None = None,
                 structured_reply: str | None = None):
        handler = type("Handler", (_Handler,), {
            "delay": delay, "hits": [], "requests": [], "served_model": served_model,
            "max_model_len": max_model_len, "max_logprobs": max_logprobs, "n_ctx": n_ctx,
            "structured_reply": structured_reply,
            "protocol_version": "HTTP/1.1" if keepalive else "HTTP/1.0"})
        self.handler = handler
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @property
    def requests(self) -> list[dict]:
        return self.handler.requests

    def __enter__(self) -> "LocalServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


if __name__ == "__main__":  # a server for subprocess tests: prints its base URL, serves until killed
    import sys

    options = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    with LocalServer(**options) as srv:
        print(srv.base_url, flush=True)
        threading.Event().wait()
