"""A local stand-in for Voyage's ``POST /v1/embeddings``, for the real ``voyageai`` client.

Deterministic: each text's float vector comes from a seeded RNG keyed by the text, and the
server returns its sign bits packed (``ubinary``) and base64-encoded like the real API.
Scripted failures (``fail_next``) exercise retries; a wrong key gets 401.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

GOOD_KEY = "test-key"


def float_vector(text: str, dims: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dims).astype(np.float32)


class VoyageStub:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.fail_next: list[int] = []  # status codes to answer with, in order, before succeeding
        self.max_inputs = 1000
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):  # http.server's name for it
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                if self.headers.get("Authorization") != f"Bearer {GOOD_KEY}":
                    return self._send(401, {"detail": "Provided API key is invalid."})
                if stub.fail_next:
                    return self._send(stub.fail_next.pop(0), {"detail": "scripted failure"})
                if len(body["input"]) > stub.max_inputs:
                    return self._send(400, {"detail": "too many inputs"})
                dims = body.get("output_dimension") or 1024
                data = []
                for i, text in enumerate(body["input"]):
                    bits = np.packbits(float_vector(text, dims) > 0)
                    data.append(
                        {
                            "object": "embedding",
                            "index": i,
                            "embedding": base64.b64encode(bits.tobytes()).decode(),
                        }
                    )
                tokens = sum(len(t.split()) for t in body["input"])
                self._send(
                    200,
                    {
                        "object": "list",
                        "data": data,
                        "model": body["model"],
                        "usage": {"total_tokens": tokens},
                    },
                )

            def _send(self, status: int, payload: dict) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> VoyageStub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
