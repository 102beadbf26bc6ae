"""Celery tasks of the lobby: they only call into the modules that do the work."""

from celery import shared_task

from lobby import emails


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_waitlist_email(entry_id: int, kind: str) -> None:
    """Send one waitlist email (a confirmation link, or "already listed")."""
    emails.waitlist_email_send(entry_id=entry_id, kind=kind)
