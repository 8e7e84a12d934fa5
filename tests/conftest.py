"""Shared fixtures: a fresh database per test (SQLite file or PostgreSQL), the app over HTTP.

The backend is chosen by ``PINGDUEL_TEST_DATABASE_URL``: unset → a SQLite file in ``tmp_path``;
set to a PostgreSQL URL (``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``) → a fresh
database created on that server for each test and dropped after it. Either is a copy of a
database migrated once per run (a file copy; ``CREATE DATABASE … TEMPLATE``), not a new run of
the migrations each time. Tests that need PostgreSQL
whatever the backend (LISTEN/NOTIFY across workers) use ``pg_url``, which falls back to the
local server; in CI an unreachable PostgreSQL is a failure, never a skip.

Hypothesis runs every property test with the same examples on every machine and every run
(the "pingduel" profile: derandomized, as Hypothesis's own "ci" profile does when ``CI`` is
set) and never fails one for time: no deadline, no "too slow" health check — on a loaded
machine an example or its data generation that takes longer than usual is not a fault. To
search for new counterexamples, run with ``HYPOTHESIS_PROFILE=explore`` (random examples, the
example database in ``.hypothesis/``).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, settings

from app.config import Settings
from app.main import create_app
from app.store.migrate import upgrade

settings.register_profile(
    "pingduel",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "pingduel"))

ROOT = Path(__file__).resolve().parents[1]
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
ADMIN = "test-admin-token-" + "x" * 32


def _psycopg_dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _server_url(url: str, database: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{database}"


def pg_available(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(_psycopg_dsn(url), connect_timeout=3):
            return True
    except Exception:
        return False


def create_pg_database(url: str, prefix: str = "pingduel_t_", template: str | None = None) -> str:
    """A new, empty database on the server of ``url`` (or a copy of ``template``); its URL."""
    import psycopg

    name = f"{prefix}{secrets.token_hex(6)}"
    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(_psycopg_dsn(url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    return _server_url(url, name)


def drop_pg_database(url: str, db_url: str) -> None:
    import psycopg

    name = db_url.rpartition("/")[2]
    with psycopg.connect(_psycopg_dsn(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _pg_server_or_fail() -> str:
    url = os.environ.get("PINGDUEL_TEST_DATABASE_URL") or PG_DEFAULT
    if not pg_available(url):
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {url} (CI needs it)")
        pytest.skip("no PostgreSQL server here (CI runs these)")
    return url


@pytest.fixture
def backend() -> str:
    url = os.environ.get("PINGDUEL_TEST_DATABASE_URL")
    return "postgresql" if url else "sqlite"


_TEMPLATES: dict[str, str] = {}  # backend (or PostgreSQL server) -> its migrated template


def _migrate_off_loop(url: str) -> None:
    """Alembic runs its own ``asyncio.run``, which a running loop on this thread refuses (the
    browser tests' sync Playwright keeps one): migrate on a thread of its own."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(upgrade, url).result()


def _sqlite_template() -> Path:
    """One SQLite file migrated once per run; each test gets a copy (a copy of a few hundred
    KiB instead of the whole Alembic history each time)."""
    if "sqlite" not in _TEMPLATES:
        path = Path(tempfile.mkdtemp(prefix="pingduel-template-")) / "migrated.db"
        _migrate_off_loop(f"sqlite+aiosqlite:///{path}")
        _TEMPLATES["sqlite"] = str(path)
    return Path(_TEMPLATES["sqlite"])


def _pg_template(server: str) -> str:
    """One PostgreSQL database migrated once per run; each test's database is made from it
    (``CREATE DATABASE … TEMPLATE``). Nobody stays connected to it: PostgreSQL copies a
    template only while no one is."""
    if server not in _TEMPLATES:
        url = create_pg_database(server, prefix="pingduel_tpl_")
        try:
            _migrate_off_loop(url)
        except BaseException:
            drop_pg_database(server, url)
            raise
        _TEMPLATES[server] = url.rpartition("/")[2]
    return _TEMPLATES[server]


def pytest_sessionfinish() -> None:
    for key, value in list(_TEMPLATES.items()):
        if key == "sqlite":
            shutil.rmtree(Path(value).parent, ignore_errors=True)
        else:
            drop_pg_database(key, _server_url(key, value))
        del _TEMPLATES[key]


def migrated_sqlite(path: Path) -> str:
    """A migrated SQLite database at ``path`` (a copy of the run's template); its URL."""
    shutil.copyfile(_sqlite_template(), path)
    return f"sqlite+aiosqlite:///{path}"


def migrated_pg_database(server: str) -> str:
    """A new, migrated PostgreSQL database on ``server`` (from the run's template); its URL."""
    return create_pg_database(server, template=_pg_template(server))


@contextmanager
def fresh_database(tmp_path: Path, backend: str, name: str = "test") -> Iterator[str]:
    """A new, migrated database of the backend: a SQLite file, or a PostgreSQL database that
    is dropped afterwards. Both are copies of a template migrated once per run (what
    ``upgrade`` would make; ``tests/ops/test_cli.py`` runs the migrations on an empty one)."""
    if backend == "sqlite":
        yield migrated_sqlite(tmp_path / f"{name}.db")
        return
    server = _pg_server_or_fail()
    url = migrated_pg_database(server)
    try:
        yield url
    finally:
        drop_pg_database(server, url)


@pytest.fixture
def db_url(tmp_path: Path, backend: str) -> Iterator[str]:
    """A fresh, migrated database of the selected backend."""
    with fresh_database(tmp_path, backend) as url:
        yield url


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL database, whatever the selected backend."""
    server = _pg_server_or_fail()
    url = migrated_pg_database(server)
    try:
        yield url
    finally:
        drop_pg_database(server, url)


def make_settings(url: str, tmp_path: Path, **extra: object) -> Settings:
    return Settings(
        database_url=url,
        data_dir=tmp_path / "data",
        admin_token=ADMIN,
        stream_recheck=0.5,
        stream_keepalive=1.0,
        # the computer's worker only where a test plays against it (``served``): elsewhere it
        # would poll the database of every test app for nothing
        computer=bool(extra.pop("computer", False)),
        **extra,  # type: ignore[arg-type]
    )


@pytest.fixture
async def client(db_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The app over real HTTP semantics (httpx → ASGI), lifespan included."""
    app = create_app(make_settings(db_url, tmp_path, allow_client_seed=True))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``pingduel serve`` in a subprocess on a free port (streams need a real server).

    With ``fixed_ids`` (a name; one worker only) the server draws its game and design ids from
    that name's fixed sequence (``tests.fixed_ids``): a game created with a seed then rolls the
    same dice each run, as its dice are keyed by its id too."""

    def __init__(
        self,
        db_url: str,
        data_dir: Path,
        workers: int = 1,
        fixed_ids: str | None = None,
        **env: str,
    ) -> None:
        assert fixed_ids is None or workers == 1, "each worker would draw the same ids"
        self.db_url = db_url
        self.data_dir = data_dir
        self.workers = workers
        self.fixed_ids = fixed_ids
        self.extra_env = env
        self.port = self._chosen = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        # a file, not a pipe: nobody reads a pipe while the server runs, and a full one (64 KiB
        # of warnings) would block the server's next write to stderr mid-request
        self.log_path = data_dir.parent / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> LiveServer:
        """Start the server and wait until it answers ``/readyz`` and its log says it listens on
        its port: the port was free when ``free_port`` chose it, but another process on the
        machine may take it before the server binds it. Then this server exits with "address
        already in use" and starts again on another port (a fault of the machine's sharing, not
        of the server); and a ``/readyz`` answered meanwhile by that other process is never
        taken for this server's. A port the test set itself (a restart on the same address)
        is never changed: taken, it fails the start."""
        for _ in range(3):
            if self._start_once(timeout):
                return self
            if self.port != self._chosen:
                break
            self.port = self._chosen = free_port()
            self.log_path = self.data_dir.parent / f"server-{self.port}.log"
        raise RuntimeError(f"port {self.port} was taken: {self.log_tail()}")

    def _start_once(self, timeout: float) -> bool:
        """True once the server is ready; False if its port was taken first."""
        env = {
            **os.environ,
            "PINGDUEL_DATABASE_URL": self.db_url,
            "PINGDUEL_DATA_DIR": str(self.data_dir),
            "PINGDUEL_ADMIN_TOKEN": ADMIN,
            "PINGDUEL_ALLOW_CLIENT_SEED": "1",
            "PINGDUEL_STREAM_RECHECK": "0.5",
            "PINGDUEL_STREAM_KEEPALIVE": "1",
            **self.extra_env,
        }
        module = "app.cli"
        if self.fixed_ids is not None:
            module, env["PINGDUEL_TEST_FIXED_IDS"] = "tests.fixed_ids", self.fixed_ids
        with self.log_path.open("wb") as log:  # the child keeps its own copy open
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    module,
                    "serve",
                    "--port",
                    str(self.port),
                    "--workers",
                    str(self.workers),
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,  # its own process group: workers die with it
            )
        listening = f"Uvicorn running on http://127.0.0.1:{self.port} "
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if "address already in use" in self.log_tail().lower():
                    return False
                raise RuntimeError(f"server exited: {self.log_tail()}")
            try:
                ready = httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200
                if ready and listening in self.log_tail(1_000_000):
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not become ready in {timeout} s: {self.log_tail()}")

    def log_tail(self, size: int = 4000) -> str:
        """The end of what the server wrote to stderr (for a failure's report)."""
        try:
            return self.log_path.read_bytes()[-size:].decode(errors="replace")
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush — a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


_CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remember whether a test's own call failed, for fixtures that report on failure."""
    report = yield
    if report.when == "call":
        item.stash[_CALL_FAILED] = report.failed
    return report


@pytest.fixture
def live_server_ids() -> str | None:
    """The fixed id sequence of ``live_server`` (``LiveServer.fixed_ids``); None: random ids.
    The browser tests set one, so that a game they create with a seed rolls the same dice
    each run."""
    return None


@pytest.fixture
def live_server(
    db_url: str, tmp_path: Path, request: pytest.FixtureRequest, live_server_ids: str | None
) -> Iterator[LiveServer]:
    server = LiveServer(db_url, tmp_path / "data", fixed_ids=live_server_ids).start()
    try:
        yield server
    finally:
        server.stop()
        if request.node.stash.get(_CALL_FAILED, False):
            print(f"\n== the server's stderr (end) ==\n{server.log_tail()}")


async def settle(predicate: object, timeout: float = 30.0) -> None:
    """Poll an async predicate until it is true (for things that happen asynchronously: a
    stream's close noticed, a NOTIFY heard, a server started). The timeout only bounds how
    long a failure takes to show: on a loaded machine these take seconds, never 30."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError("condition not met in time")


@asynccontextmanager
async def uvicorn_in_process(app: object) -> AsyncIterator[str]:
    """An app on a live uvicorn in this event loop, on a free port (streams need a real
    server: the ASGI transport waits for a whole response); yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))  # type: ignore[arg-type]
    task = asyncio.create_task(server.serve())

    async def started() -> bool:
        return bool(server.started)

    await settle(started)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 20)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: sync Playwright leaves an event loop behind that breaks later
    pytest-asyncio tests in the same run (PITFALLS.md)."""
    items.sort(key=lambda item: "tests/browser/" in str(item.fspath).replace("\\", "/"))
