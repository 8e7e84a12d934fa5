"""One settings class: every knob of the service, read from ``PINGDUEL_*`` environment variables."""

from __future__ import annotations

import secrets
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.edge import settings_checks as checks


class Settings(BaseSettings):
    # hide_input_in_errors: a refused setting is named, never echoed (tokens, passwords)
    model_config = SettingsConfigDict(
        env_prefix="PINGDUEL_", extra="ignore", hide_input_in_errors=True
    )

    data_dir: Path = Path("pingduel-data")
    # default: the embedded SQLite file under the data directory (see ``db_url``)
    database_url: str | None = None
    admin_token: SecretStr | None = None
    allow_client_seed: bool = False
    secret_key: SecretStr | None = None
    max_body_bytes: int = 64 * 1024
    stream_keepalive: float = 15.0  # seconds between SSE comment lines
    stream_recheck: float = 5.0  # seconds between log re-checks of an idle stream
    notify_channel: str = "pingduel"
    # -- rate limits and client addresses (issue 14: limits helper)
    # each limit is per client address unless named otherwise, in the notation of the
    # ``limits`` library; several windows (";") make a backoff: the wait grows with the count
    rate_limits: bool = True  # PINGDUEL_RATE_LIMITS=off: no limit at all (load tests)
    rate_limit_storage: str = "memory://"  # per worker; redis://host:6379 shared by hosts
    trusted_proxies: str = ""  # addresses/CIDRs whose X-Forwarded-For/-Proto are believed
    limit_games: str = "100/minute"
    limit_designs: str = "100/minute"
    limit_claims: str = "100/minute"
    limit_admin_login: str = "5/minute;20/hour;100/day"  # failed admin sign-ins
    limit_token_failures: str = "30/minute;200/hour;1000/day"  # tokens answered 401
    limit_commands: str = "100/10seconds"  # per seat token
    limit_commands_per_address: str = "300/10seconds"
    limit_chat: str = "10/10seconds"  # chat lines per seat token (spectators: per address)
    limit_streams_per_address: int = 50  # open at once, per worker
    limit_streams_per_game: int = 1000  # open at once, per worker

    @field_validator("admin_token", mode="before")
    @classmethod
    def _admin_token(cls, value: object) -> object:
        return checks.admin_token(value)

    @field_validator(
        "limit_games",
        "limit_designs",
        "limit_claims",
        "limit_admin_login",
        "limit_token_failures",
        "limit_commands",
        "limit_commands_per_address",
        "limit_chat",
    )
    @classmethod
    def _rate(cls, value: str) -> str:
        return checks.rate(value)

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        return checks.proxies(value)

    @field_validator("rate_limit_storage")
    @classmethod
    def _storage(cls, value: str) -> str:
        return checks.storage(value)

    @property
    def trusted_proxy_list(self) -> list[str]:
        return [p.strip() for p in self.trusted_proxies.split(",") if p.strip()]

    # -- presence and streams (issue 14: streams helper)
    # a game's watcher re-reads its log marks every stream_recheck s, give or take this share
    stream_recheck_jitter: float = 0.25
    spectator_pause: float = 0.1  # a spectator's stream reads this long after a hint (batches)
    # seconds between a worker's presence heartbeats (one statement for all its rows); a crashed
    # worker's rows count as away after app.play.presence.PRESENCE_FRESH
    presence_beat: float = 3.0
    clock_poll: float = 1.0  # seconds between a worker's polls of the due deadlines (issue 15)
    # -- the computer opponent (issue 17: app/play/computer.py)
    computer: bool = True  # PINGDUEL_COMPUTER=off: this worker plays no computer turns
    computer_poll: float = 1.0  # seconds between a worker's looks for computer turns
    computer_delay_scale: Annotated[float, Field(ge=0, le=10)] = 1.0  # 0: answers at once
    # -- browser hardening (issue 14: hardening helper)
    # Strict-Transport-Security's max-age on answers over https; 0 sends no HSTS header
    hsts_max_age: int = 60 * 60 * 24 * 365
    # -- observability (issue 14: metrics helper)
    log_format: Literal["text", "json"] = "text"  # json: one object per line, with request ids
    # -- "your turn" notifications (issue 15: notify helper)
    webhook_allow_private: bool = False  # 1: webhooks and push may call private addresses
    public_url: str | None = None  # e.g. https://duel.example: the links in notifications
    notify_poll: float = 2.0  # seconds between a worker's looks at the outbox
    notify_attempts: int = 8  # sends of one notification before it is given up
    notify_backoff: float = 5.0  # seconds before the first retry; doubled each time (1 h cap)
    vapid_private_key: SecretStr | None = None  # default: generated into the data directory
    vapid_subject: str = "mailto:operator@localhost"  # the push services' contact for us
    smtp_host: str | None = None  # e-mail notifications only where this is set
    smtp_port: int = 587
    smtp_from: str = "pingduel@localhost"
    smtp_user: str | None = None
    smtp_password: SecretStr | None = None
    smtp_starttls: bool = True  # STARTTLS before the login (off: a local relay in plain text)

    @cached_property
    def db_url(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'pingduel.db').resolve()}"

    @cached_property
    def signing_key(self) -> bytes:
        """PINGDUEL_SECRET_KEY, else a key generated once and kept in the data directory."""
        if self.secret_key is not None:
            return self.secret_key.get_secret_value().encode()
        path = self.data_dir / "secret_key"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
        return path.read_text().strip().encode()
