"""Waitlist writes: signup with double opt-in, confirmation, unsubscribe and invitations."""

from collections.abc import Iterable
from functools import partial

from django.contrib.auth.base_user import BaseUserManager
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.services import invitation_create
from config.ratelimit import count_and_allow
from lobby import tokens
from lobby.emails import ALREADY_LISTED, CONFIRM
from lobby.models import WaitlistEntry
from lobby.tasks import send_waitlist_email

Status = WaitlistEntry.Status

SIGNUPS_PER_IP_PER_HOUR = 5
# However many IPs ask, one inbox gets at most this many waitlist emails an hour.
EMAILS_PER_ADDRESS_PER_HOUR = 3


class WaitlistRateLimitError(Exception):
    """Too many signups from one IP address within the hour."""


def ip_hash(ip: str) -> str:
    """Return a keyed hash of an IP address, so that neither the cache nor the table holds it."""
    return salted_hmac("lobby.waitlist.ip", ip).hexdigest()


@transaction.atomic
def waitlist_signup(*, email: str, language: str, ip: str) -> None:
    """Put an address on the waitlist, or remind it; the caller never learns which.

    A new or pending address gets a confirmation email, a confirmed one a note that it is
    already listed, an invited one nothing. An unsubscribed address starts over as pending.
    """
    hashed_ip = ip_hash(ip)
    if not count_and_allow(f"waitlist:signup:{hashed_ip}", SIGNUPS_PER_IP_PER_HOUR):
        raise WaitlistRateLimitError
    email = BaseUserManager.normalize_email(email)
    entry = WaitlistEntry.objects.select_for_update().filter(email__iexact=email).first()
    if entry is None:
        try:
            with transaction.atomic():
                entry = WaitlistEntry.objects.create(
                    email=email, language=language, ip_hash=hashed_ip
                )
        except IntegrityError:
            # A simultaneous signup of the same address won the race and sends the email.
            return
        _email_after_commit(entry, CONFIRM)
    elif entry.status in (Status.PENDING, Status.UNSUBSCRIBED):
        entry.status = Status.PENDING
        entry.language = language
        entry.unsubscribed_at = None
        entry.save(update_fields=["status", "language", "unsubscribed_at"])
        _email_after_commit(entry, CONFIRM)
    elif entry.status == Status.CONFIRMED:
        _email_after_commit(entry, ALREADY_LISTED)


@transaction.atomic
def waitlist_confirm(*, token: str) -> WaitlistEntry:
    """Confirm the address of a confirmation link; raise LinkError for a bad or old link."""
    entry = _locked_entry(tokens.read_confirm_token(token))
    if entry.status == Status.UNSUBSCRIBED:
        # The person left the list after this link was sent; an old link must not undo that.
        raise tokens.LinkInvalidError
    if entry.status == Status.PENDING:
        entry.status = Status.CONFIRMED
        entry.confirmed_at = timezone.now()
        entry.save(update_fields=["status", "confirmed_at"])
    return entry


@transaction.atomic
def waitlist_unsubscribe(*, token: str) -> WaitlistEntry:
    """Take the address of an unsubscribe link off the list; raise LinkError for a bad link."""
    entry = _locked_entry(tokens.read_unsubscribe_token(token))
    if entry.status != Status.UNSUBSCRIBED:
        entry.status = Status.UNSUBSCRIBED
        entry.unsubscribed_at = timezone.now()
        entry.save(update_fields=["status", "unsubscribed_at"])
    return entry


@transaction.atomic
def waitlist_mark_invited(*, entries: Iterable[WaitlistEntry]) -> int:
    """Mark the confirmed ones among ``entries`` as invited; return how many were."""
    ids = [entry.pk for entry in entries]
    return WaitlistEntry.objects.filter(pk__in=ids, status=Status.CONFIRMED).update(
        status=Status.INVITED, invited_at=timezone.now()
    )


def waitlist_invite(*, entries: Iterable[WaitlistEntry]) -> tuple[int, int]:
    """Send a sign-up invitation to each confirmed entry; return (invited, skipped)."""
    invited = skipped = 0
    for entry in entries:
        # One transaction per address: a failure leaves the ones already invited marked.
        with transaction.atomic():
            locked = (
                WaitlistEntry.objects.select_for_update()
                .filter(pk=entry.pk, status=Status.CONFIRMED)
                .first()
            )
            if locked is None:
                skipped += 1
                continue
            invitation_create(email=locked.email, inviter=None, language=locked.language)
            waitlist_mark_invited(entries=[locked])
            invited += 1
    return invited, skipped


def _locked_entry(entry_id: int) -> WaitlistEntry:
    entry = WaitlistEntry.objects.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise tokens.LinkInvalidError
    return entry


def _email_after_commit(entry: WaitlistEntry, kind: str) -> None:
    """Queue a waitlist email once the entry is committed, within the per-address cap."""
    address = salted_hmac("lobby.waitlist.email", entry.email.lower()).hexdigest()
    if count_and_allow(f"waitlist:mail:{address}", EMAILS_PER_ADDRESS_PER_HOUR):
        transaction.on_commit(partial(send_waitlist_email.delay, entry.pk, kind))
