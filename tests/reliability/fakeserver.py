"""An OpenAI-compatible chat-completions endpoint in a function, with injectable faults.

``FakeEndpoint`` is an ``httpx.MockTransport`` handler: it answers decomposition requests (those
with a ``response_format``) from a table of QA pairs per sentence and verification requests with
Yes/No first-token logprobs, unless the fault plan says that this call fails, and how.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from factgrain.backends.openai_compat import OpenAICompatBackend
from factgrain.backends.retry import RetryPolicy

# The real back-off, saved before the autouse fixture replaces it with zero waits.
REAL_WAIT = RetryPolicy.wait

SECRET_KEY = "sk-test-9f8e7d6c5b4a-DO-NOT-LEAK"

# Every fault kind the suite replays. Transport faults are retried by the RetryPolicy; the others
# reach the parser (instructor re-asks, or the verifier's own checks).
TRANSPORT_FAULTS = ("429", "429-retry-after", "500", "502", "503", "reset", "connect", "timeout")
# Refusals that no retry changes, with vLLM's error body: the message must reach the user.
REFUSALS = ("400", "404")
CONTENT_FAULTS = ("malformed", "schema", "truncated", "nologprobs", "nochoices", "garbage")
ALL_FAULTS = TRANSPORT_FAULTS + CONTENT_FAULTS

FaultPlan = Callable[[int, str, dict], "str | None"]


def _block(tag: str, text: str) -> str:
    m = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", text, re.DOTALL)
    return m.group(1) if m else ""


def completion(content: str, *, finish_reason: str = "stop", logprobs: dict | None = None) -> dict:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": finish_reason, "logprobs": logprobs}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 3, "total_tokens": 23},
    }


def yes_no_logprobs(p: float) -> dict:
    top = [{"token": "Yes", "logprob": math.log(p), "bytes": None},
           {"token": "No", "logprob": math.log(1 - p), "bytes": None}]
    first = top[0] if p >= 0.5 else top[1]
    return {"content": [{**first, "top_logprobs": top}]}


@dataclass
class Call:
    kind: str  # "structured" or "chat"
    body: dict
    fault: str | None
    headers: dict = field(default_factory=dict)


class FakeEndpoint:
    def __init__(self, qas_by_sentence: dict[str, list[dict]], *, support: dict[str, float] | None = None,
                 default_p: float = 0.9, faults: FaultPlan | None = None, max_model_len: int | None = None):
        self.qas = qas_by_sentence
        self.max_model_len = max_model_len
        self.gets: list[str] = []
        self.support = support or {}
        self.default_p = default_p
        self.faults = faults or (lambda n, kind, body: None)
        self.calls: list[Call] = []

    def count(self, kind: str | None = None, fault: str | None = "*") -> int:
        return sum(1 for c in self.calls if (kind is None or c.kind == kind) and (fault == "*" or c.fault == fault))

    def p_for(self, statement: str) -> float:
        return next((p for key, p in self.support.items() if key in statement), self.default_p)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET":  # model listing (context discovery), not a completion
            self.gets.append(request.url.path)
            if request.url.path.endswith("/models"):
                entry = {"id": "fake-model", "object": "model"}
                if self.max_model_len:
                    entry["max_model_len"] = self.max_model_len
                return httpx.Response(200, json={"object": "list", "data": [entry]})
            return httpx.Response(404, json={"object": "error", "message": "Not Found", "code": 404})
        body = json.loads(request.content)
        kind = "structured" if "response_format" in body else "chat"
        fault = self.faults(len(self.calls), kind, body)
        self.calls.append(Call(kind, body, fault, dict(request.headers)))
        # The first user message holds the data; instructor's re-asks append their own after it.
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if fault is not None:
            return self._fault(fault, kind, request, user)
        if kind == "structured":
            return httpx.Response(200, json=completion(json.dumps({"qas": self.qas.get(_block("sentence", user), [])})))
        p = self.p_for(_block("statement", user))
        return httpx.Response(200, json=completion("Yes" if p >= 0.5 else "No", finish_reason="length",
                                                   logprobs=yes_no_logprobs(p)))

    def _fault(self, fault: str, kind: str, request: httpx.Request, user: str) -> httpx.Response:
        err = {"error": {"message": "injected", "type": "server_error"}}
        if fault == "429":
            return httpx.Response(429, json=err)
        if fault == "429-retry-after":
            return httpx.Response(429, json=err, headers={"retry-after": "7"})
        if fault in ("500", "502", "503"):
            return httpx.Response(int(fault), json=err)
        if fault == "400":
            return httpx.Response(400, json={"object": "error", "message": "injected: this request was refused",
                                             "type": "BadRequestError", "param": None, "code": 400})
        if fault == "404":
            return httpx.Response(404, json={"object": "error", "message": "The model `fake-model` does not exist.",
                                             "type": "NotFoundError", "param": None, "code": 404})
        if fault == "reset":
            raise httpx.ReadError("[Errno 104] Connection reset by peer", request=request)
        if fault == "connect":
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        if fault == "timeout":
            raise httpx.ReadTimeout("timed out", request=request)
        if fault == "malformed":
            return httpx.Response(200, content=b'{"id": "chatcmpl-x", "choices": [{"mess',
                                  headers={"content-type": "application/json"})
        if fault == "nochoices":
            return httpx.Response(200, json={**completion(""), "choices": []})
        if fault == "schema":
            bad = {"qas": [{"predicate": "zzz", "predicate_type": "adverbial", "question": 3}]}
            content = json.dumps(bad) if kind == "structured" else '{"verdict": "Yes"}'
            return httpx.Response(200, json=completion(content))
        if fault == "garbage":
            return httpx.Response(200, json=completion("I think maybe" if kind == "chat" else "Sure! Here are the pairs:"))
        if fault == "truncated":
            full = json.dumps({"qas": self.qas.get(_block("sentence", user), [])})
            content = full[: max(1, len(full) // 2)] if kind == "structured" else ""
            return httpx.Response(200, json=completion(content, finish_reason="length"))
        if fault == "nologprobs":
            p = self.p_for(_block("statement", user))
            if kind == "structured":
                return httpx.Response(200, json=completion(json.dumps({"qas": self.qas.get(_block("sentence", user), [])})))
            return httpx.Response(200, json=completion("Yes" if p >= 0.5 else "No", finish_reason="length"))
        raise AssertionError(f"unknown fault {fault!r}")


# -- fault plans ------------------------------------------------------------------------------
def never(n: int, kind: str, body: dict) -> None:
    return None


def first(count: int, fault: str, kind: str | None = None) -> FaultPlan:
    """The first ``count`` calls (of ``kind``, if given) fail with ``fault``."""
    seen = {"n": 0}

    def plan(n: int, k: str, body: dict) -> str | None:
        if kind is not None and k != kind:
            return None
        seen["n"] += 1
        return fault if seen["n"] <= count else None

    return plan


def always(fault: str, kind: str | None = None) -> FaultPlan:
    return lambda n, k, body: fault if kind is None or k == kind else None


def mixed(rate: float, faults: tuple[str, ...], seed: int = 0) -> FaultPlan:
    rng = random.Random(seed)
    return lambda n, k, body: rng.choice(faults) if rng.random() < rate else None


def backend_for(endpoint: FakeEndpoint, *, attempts: int = 3, timeout: float = 5.0,
                cls: type[OpenAICompatBackend] = OpenAICompatBackend, max_connections: int = 2) -> OpenAICompatBackend:
    return cls("fake-model", base_url="http://fake.invalid/v1", api_key=SECRET_KEY, timeout=timeout,
               retry=RetryPolicy(attempts=attempts), max_connections=max_connections,
               http_client=httpx.AsyncClient(transport=httpx.MockTransport(endpoint)))
