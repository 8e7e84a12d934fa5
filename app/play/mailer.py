"""E-mail through the operator's SMTP server (optional): the confirmation of an address and
the notifications themselves, as plain text."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib


@dataclass(frozen=True, slots=True)
class SmtpOptions:
    host: str
    port: int = 587
    sender: str = "pingduel@localhost"
    user: str | None = None
    password: str | None = None
    starttls: bool = True
    timeout: float = 10.0


class MailFailed(Exception):
    """The SMTP server refused or could not be reached (the reason carries no secret)."""


async def send_mail(options: SmtpOptions, to: str, subject: str, text: str) -> None:
    message = EmailMessage()
    message["From"] = options.sender
    message["To"] = to
    message["Subject"] = subject
    message.set_content(text)
    try:
        await aiosmtplib.send(
            message,
            hostname=options.host,
            port=options.port,
            username=options.user,
            password=options.password,
            start_tls=options.starttls,
            timeout=options.timeout,
        )
    except (aiosmtplib.SMTPException, OSError) as exc:
        raise MailFailed(f"{type(exc).__name__} from the SMTP server") from exc
