"""One settings class: every knob of the service, read from ``PINGDUEL_*`` environment variables."""

from __future__ import annotations

import secrets
from functools import cached_property
from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PINGDUEL_", extra="ignore")

    data_dir: Path = Path("pingduel-data")
    # default: the embedded SQLite file under the data directory (see ``db_url``)
    database_url: str | None = None
    admin_token: SecretStr | None = None
    allow_client_seed: bool = False
    secret_key: SecretStr | None = None
    max_body_bytes: int = 64 * 1024
    stream_keepalive: float = 15.0  # seconds between SSE comment lines
    stream_recheck: float = 5.0  # seconds between log re-checks of an idle stream
    stream_queue: int = 64  # hints a slow client may fall behind before it is dropped
    notify_channel: str = "pingduel"

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
