"""A minimal headless-Chromium driver for the browser tests, standard library only.

It speaks the DevTools protocol over ``--remote-debugging-pipe``: Chromium reads NUL-terminated
JSON commands on fd 3 and writes replies and events on fd 4. No port, no websocket package, no
chromedriver version to match.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--no-default-browser-check",
    "--remote-debugging-pipe",
]


SHIM = ("import os, sys; r, w = int(sys.argv[1]), int(sys.argv[2]); os.dup2(r, 3); os.dup2(w, 4); "
        "os.close(r); os.close(w); os.execv(sys.argv[3], sys.argv[3:])")


def find_chromium() -> str | None:
    for name in (os.environ.get("FACTGRAIN_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and (path := shutil.which(name)):
            return path
    return None


class CDPError(RuntimeError):
    pass


class Chromium:
    """``with Chromium() as c: page = c.new_page(); page.goto(url) ...``"""

    def __init__(self, executable: str, timeout: float = 30.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="factgrain-chromium-")  # a fresh user-data dir each run
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # The child's ends go above fd 4, then a tiny exec shim puts them on 3 and 4 and becomes
        # Chromium (no preexec_fn: it is unsafe in a process with threads, as pytest's may be).
        hi_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD_CLOEXEC, 10)
        hi_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_r)
        os.close(from_child_w)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SHIM, str(hi_r), str(hi_w),
             executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(hi_r, hi_w),
        )
        os.close(hi_r)
        os.close(hi_w)
        self._ids = itertools.count(1)
        self._replies: dict[int, queue.Queue] = {}
        self.events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr: list[bytes] = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self) -> None:
        buf = b""
        with os.fdopen(self._from_child, "rb", buffering=0) as f:
            while chunk := f.read(65536):
                buf += chunk
                while b"\0" in buf:
                    raw, buf = buf.split(b"\0", 1)
                    msg = json.loads(raw)
                    if "id" in msg:
                        with self._lock:
                            q = self._replies.get(msg["id"])
                        if q is not None:
                            q.put(msg)
                    else:
                        self.events.append(msg)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        mid = next(self._ids)
        q: queue.Queue = queue.Queue()
        with self._lock:
            self._replies[mid] = q
        msg: dict[str, Any] = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:  # in slices, so a browser that died is reported at once, not after the timeout
            try:
                reply = q.get(timeout=0.25)
                break
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise CDPError(f"Chromium exited ({self.proc.returncode}) during {method}: {self.stderr_tail()}") from None
                if time.monotonic() > deadline:
                    raise CDPError(f"no reply to {method} within {self.timeout}s; stderr: {self.stderr_tail()}") from None
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def stderr_tail(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")[-2000:]

    def new_page(self, width: int = 1200, height: int = 900) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Network", "Log"):
            page.send(f"{domain}.enable")
        page.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close")
                except (CDPError, OSError):
                    pass
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()  # only the browser this object started
                    self.proc.wait(timeout=10)
        finally:
            os.close(self._to_child)
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Page:
    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, session=self.session)

    def events(self, method: str) -> list[dict]:
        return [e["params"] for e in self.browser.events if e.get("sessionId") == self.session and e.get("method") == method]

    def goto(self, url: str) -> None:
        before = len(self.events("Page.loadEventFired"))
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.browser.timeout
        while len(self.events("Page.loadEventFired")) <= before:
            if time.monotonic() > deadline:
                raise CDPError(f"{url} did not finish loading")
            time.sleep(0.05)

    def js(self, expression: str) -> Any:
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise CDPError(f"JS error: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def hover(self, x: float, y: float) -> None:
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def press(self, key: str, code: str, keycode: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": keycode})

    def screenshot(self, path: Path, full_page: bool = False) -> Path:
        import base64

        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        data = self.send("Page.captureScreenshot", params)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path
