"""The ``pingduel`` command: ``serve`` (migrate, then serve), ``migrate``, and ``bot`` (a
computer strategy playing one seat of a game on a server, over HTTP: ``app.remote``)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from pydantic import ValidationError
from uvicorn.config import LOGGING_CONFIG

from app.config import Settings
from app.edge.requestlog import log_config
from app.remote import cli as remote
from app.store.migrate import upgrade


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pingduel", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="apply migrations, then serve the app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    commands.add_parser("migrate", help="apply migrations only")
    remote.add_parser(commands)
    args = parser.parse_args(argv)
    if args.command == "bot":  # a client: it needs none of the server's settings
        return remote.run(args)

    try:
        settings = Settings()
    except ValidationError as error:
        # refuse to start, saying which setting to change (e.g. an admin token too short)
        for fault in error.errors():
            where = ".".join(str(part) for part in fault["loc"]) or "settings"
            print(f"pingduel: PINGDUEL_{where.upper()}: {fault['msg']}", file=sys.stderr)
        return 2
    upgrade(settings.db_url)
    if args.command == "migrate":
        print(f"migrated {settings.db_url.split('@')[-1]}")
        return 0
    # the workers read the same settings from the environment
    with metrics_shared(args.workers):
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            log_level="info",
            log_config=log_config(settings.log_format) or LOGGING_CONFIG,
            access_log=False,
            # the app reads X-Forwarded-* itself, from PINGDUEL_TRUSTED_PROXIES only (app.edge):
            # uvicorn's own copy would trust 127.0.0.1 and FORWARDED_ALLOW_IPS besides
            proxy_headers=False,
        )
    return 0


@contextmanager
def metrics_shared(workers: int) -> Iterator[None]:
    """Several workers: prometheus-client's multiprocess mode in a fresh directory, set before
    the workers start (they read it when they import it), so that whichever worker a scrape
    reaches answers for all of them (docs/operations.md, "Metrics"). One chosen by the
    operator (``PROMETHEUS_MULTIPROC_DIR``) is kept as it is."""
    if workers <= 1 or os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="pingduel-metrics-") as path:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
        try:
            yield
        finally:
            del os.environ["PROMETHEUS_MULTIPROC_DIR"]


if __name__ == "__main__":
    sys.exit(main())
