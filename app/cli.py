"""The ``pingduel`` command: ``serve`` (migrate, then serve) and ``migrate``."""

from __future__ import annotations

import argparse
import sys

import uvicorn

from app.config import Settings
from app.store.migrate import upgrade


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pingduel", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="apply migrations, then serve the app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    commands.add_parser("migrate", help="apply migrations only")
    args = parser.parse_args(argv)

    settings = Settings()
    upgrade(settings.db_url)
    if args.command == "migrate":
        print(f"migrated {settings.db_url.split('@')[-1]}")
        return 0
    # the workers read the same settings from the environment
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
        access_log=False,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
