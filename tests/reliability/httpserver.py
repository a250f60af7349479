"""A real local HTTP server speaking the chat-completions protocol, for subprocess tests."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.reliability.fakeserver import completion, yes_no_logprobs


def _sentence(user: str) -> str:
    m = re.search(r"<sentence>\n(.*?)\n</sentence>", user, re.DOTALL)
    return m.group(1) if m else ""


def qas_for(sentence: str) -> list[dict]:
    """Rows say '<Name> visited <Place> ...': two QA pairs copied from the sentence."""
    words = sentence.split()
    if len(words) < 3 or words[1] != "visited":
        return []
    return [{"predicate": "visited", "predicate_type": "verbal", "question": "who visited something?", "answer": words[0]},
            {"predicate": "visited", "predicate_type": "verbal", "question": "what did someone visit?", "answer": words[2]}]


class _Handler(BaseHTTPRequestHandler):
    delay = 0.0
    hits: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        time.sleep(self.delay)
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if "response_format" in body:
            reply = completion(json.dumps({"qas": qas_for(_sentence(user))}))
        else:
            reply = completion("Yes", finish_reason="length", logprobs=yes_no_logprobs(0.8))
        self.hits.append("structured" if "response_format" in body else "chat")
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:  # keep test output clean
        pass


class LocalServer:
    def __init__(self, delay: float = 0.0):
        handler = type("Handler", (_Handler,), {"delay": delay, "hits": []})
        self.handler = handler
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "LocalServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
