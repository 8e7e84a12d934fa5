"""The notification parts of a process, from its settings (issue 15): what ``app.main``
starts (the outbox sender) and hands the game master (the watcher's options)."""

from __future__ import annotations

from app.config import Settings
from app.play.mailer import SmtpOptions
from app.play.notify import NotifyOptions
from app.play.push import PushKeys, load_keys
from app.play.sender import SendOptions


def smtp_of(settings: Settings) -> SmtpOptions | None:
    if not settings.smtp_host:
        return None
    password = settings.smtp_password
    return SmtpOptions(
        settings.smtp_host,
        settings.smtp_port,
        settings.smtp_from,
        settings.smtp_user,
        password.get_secret_value() if password else None,
        settings.smtp_starttls,
    )


def options_of(settings: Settings) -> NotifyOptions:
    return NotifyOptions(settings.webhook_allow_private, settings.public_url, smtp_of(settings))


def send_options(settings: Settings) -> SendOptions:
    own = options_of(settings).own_hosts
    return SendOptions(
        allow_private=settings.webhook_allow_private,
        own_hosts=own,
        attempts=settings.notify_attempts,
        backoff=settings.notify_backoff,
        poll=settings.notify_poll,
        smtp=smtp_of(settings),
    )


def push_keys(settings: Settings) -> PushKeys:
    pem = settings.vapid_private_key
    return load_keys(
        settings.data_dir, pem.get_secret_value() if pem else None, settings.vapid_subject
    )
