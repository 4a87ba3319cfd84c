"""A real ``polyenv serve`` app on uvicorn, on a free port of 127.0.0.1, in a background thread."""
import contextlib
import threading
import time

import httpx

from polyenv.viz.server import create_app, listen, server_for


@contextlib.contextmanager
def running_server(save_dir=None, **app_kwargs):
    """Yields the base URL (``http://127.0.0.1:<port>``) of a served app; stops it on exit."""
    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = server_for(create_app(save_dir, **app_kwargs), sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def seats(*players, tribes=("Bardur", "Imperius", "Xin-Xi", "Oumaji")):
    """The ``seats`` field of a new-game request: one seat per player name (``"human"`` or a bot)."""
    return [{"tribe": tribes[k % len(tribes)], "player": p} for k, p in enumerate(players)]


def wait_for(client: httpx.Client, url: str, test, timeout: float = 60.0, params=None):
    """Polls a view until ``test(view)`` holds; returns that view."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(url, params=params).json()
        if test(view):
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting at {url}: turn {view.get('turn')}")
        time.sleep(0.02)
