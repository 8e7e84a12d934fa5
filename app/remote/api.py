"""The seat's calls to the server, with the waits the contract asks of a client.

- 429 and 503: wait ``Retry-After`` seconds, then send the same request again (a command with
  the same ``Idempotency-Key`` and body: a refused request was never applied).
- No answer (a network error) or a 500/502/504: wait a growing while and send it again; the key
  makes a command's retry safe even if the first one did apply.
- 401, 403 and 404 end the run (``Fatal``): waiting would not change them.

No message here ever holds the token: only statuses, problem codes and the server's details.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote

import httpx

Sleep = Callable[[float], Awaitable[None]]
Note = Callable[[str], None]

RETRY_STATUSES = frozenset({429, 503})
SERVER_FAULTS = frozenset({500, 502, 504})
MAX_ATTEMPTS = 12  # of one request; with the growing wait, several minutes of a server gone
FIRST_ATTEMPTS = 4  # of the first read: a server that never answered is more likely a wrong --url
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0
RETRY_AFTER_MAX = 3600.0  # a wait the server asks beyond an hour is taken as an hour
# what to change after a refusal that waiting would not change
HINTS = {
    401: "check the seat token: $PINGDUEL_BOT_TOKEN or --token-file",
    403: "the token is not this game's, or its seat may not do this",
    404: "check --game and --url",
}


class Fatal(Exception):
    """The run cannot go on (a token refused, no such game, a server that stays away)."""


class Refused(Exception):
    """The server refused a command that was not merely late: the strategy broke a rule."""

    def __init__(self, command: Mapping[str, Any], status: int, body: str) -> None:
        super().__init__(f"{status}: {body}")
        self.command, self.status, self.body = command, status, body


@dataclass(frozen=True)
class Sent:
    """What became of a command: applied, or to be decided again on a fresh view."""

    applied: bool
    code: str | None = None  # the problem code when not applied (stale_state, game_paused, …)


# a 409 that only says the view moved on: read it again and decide again
REDECIDE = frozenset({"stale_state", "game_paused", "game_finished", "command_voided"})


def problem_code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None


def describe(response: httpx.Response) -> str:
    """A refusal in a line: the status, the problem code and the server's detail."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    if not isinstance(body, dict):
        return f"HTTP {response.status_code}"
    code, detail = body.get("code"), body.get("detail")
    return f"HTTP {response.status_code} {code}: {detail}"


def retry_after(response: httpx.Response, fallback: float) -> float:
    """Seconds to wait: ``Retry-After`` in seconds or as a date; ``fallback`` without one."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return fallback
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
            sent = response.headers.get("Date")
            now = parsedate_to_datetime(sent) if sent else datetime.now(UTC)
            seconds = (when - now).total_seconds()
        except (TypeError, ValueError):
            return fallback
    return min(max(seconds, 0.0), RETRY_AFTER_MAX)


class SeatApi:
    """One seat of one game on one server: the view, the events and the commands."""

    def __init__(
        self, http: httpx.AsyncClient, base: str, game_id: str, token: str, sleep: Sleep, note: Note
    ) -> None:
        self.http = http
        self.game_path = f"{base.rstrip('/')}/api/v1/games/{quote(game_id, safe='')}"
        self.auth = {"Authorization": f"Bearer {token}"}
        self.sleep = sleep
        self.note = note

    async def request(
        self, method: str, url: str, attempts: int = MAX_ATTEMPTS, **kwargs: Any
    ) -> httpx.Response:
        """The answer, after the waits above; 401/403/404 raise ``Fatal``."""
        wait = BACKOFF_FIRST
        for attempt in range(1, attempts + 1):
            try:
                response = await self.http.request(method, url, **kwargs)
            except httpx.TransportError as error:
                failure = f"no answer ({type(error).__name__})"
            else:
                if response.status_code in HINTS:
                    raise Fatal(
                        f"{method} {self._where(url)} was refused: {describe(response)} "
                        f"({HINTS[response.status_code]})"
                    )
                if response.status_code in RETRY_STATUSES:
                    pause = retry_after(response, wait)
                    self.note(f"{describe(response)}: waiting {pause:g} s (Retry-After)")
                    await self.sleep(pause)
                    wait = min(wait * 2, BACKOFF_MAX)
                    continue
                if response.status_code not in SERVER_FAULTS:
                    return response
                failure = describe(response)
            if attempt < attempts:
                self.note(f"{method} {self._where(url)}: {failure}; trying again in {wait:g} s")
                await self.sleep(wait)
                wait = min(wait * 2, BACKOFF_MAX)
        raise Fatal(f"{method} {self._where(url)}: {failure}; gave up after {attempts} attempts")

    def _where(self, url: str) -> str:
        return url.split("/api/v1", 1)[-1] or url

    async def view(self, attempts: int = MAX_ATTEMPTS) -> dict[str, Any]:
        response = await self.request("GET", self.game_path, attempts, headers=self.auth)
        return self._json(response)

    async def events(self, after: int, upto: int) -> list[dict[str, Any]]:
        """The seat's events with ``after < seq <= upto``, oldest first."""
        found: list[dict[str, Any]] = []
        while after < upto:
            response = await self.request(
                "GET", f"{self.game_path}/events", params={"after": after}, headers=self.auth
            )
            page = [e for e in self._json(response)["events"] if e["seq"] <= upto]
            if not page:
                break
            found.extend(page)
            after = page[-1]["seq"]
        return found

    async def send(self, command: Mapping[str, Any], at_seq: int) -> Sent:
        """Post the command once (retries included: one key, one body)."""
        body = json.dumps({**command, "at_seq": at_seq}).encode()
        headers = {
            **self.auth,
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        response = await self.request(
            "POST", f"{self.game_path}/commands", content=body, headers=headers
        )
        if response.status_code == 200:
            return Sent(True)
        code = problem_code(response)
        if response.status_code == 409 and code in REDECIDE:
            return Sent(False, code)
        raise Refused(command, response.status_code, response.text)

    def _json(self, response: httpx.Response) -> dict[str, Any]:
        if response.status_code != 200:
            raise Fatal(f"{response.request.method} answered {describe(response)}")
        try:
            body = response.json()
        except ValueError:
            raise Fatal("the server's answer is not JSON: is --url a pingduel server?") from None
        if not isinstance(body, dict):
            raise Fatal("the server's answer is not a JSON object: is --url a pingduel server?")
        return body
