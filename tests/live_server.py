"""The real Flask app served on a free loopback port from a thread, as a browser or an HTTP client
reaches it, its base URL (and so every mailed link) that port."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server

from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app


def _unavailable(_environ: Any, _start_response: Any) -> Any:
    raise RuntimeError("the app is not mounted yet")


@dataclass
class Live:
    """The service as a client reaches it: its address and the runtime behind it."""

    url: str
    runtime: Runtime

    def at(self, path: str) -> str:
        return self.url + path


@contextmanager
def serving(runtime: Runtime) -> Iterator[Live]:
    """The app over ``runtime``'s database, for as long as the block runs."""
    server: BaseWSGIServer = make_server("127.0.0.1", 0, _unavailable, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    served = dataclasses.replace(runtime, config=runtime.config.with_overrides(base_url=url))
    server.app = create_app(served)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield Live(url, served)
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()
