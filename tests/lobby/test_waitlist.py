"""The waitlist: double opt-in by email, one-click unsubscribe, no enumeration, limits, admin."""

import csv
import io
import re
from datetime import timedelta
from html import unescape

import factory
import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Invitation, User
from lobby import emails, services, tokens
from lobby.models import WaitlistEntry
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

Status = WaitlistEntry.Status
CONFIRM_LINK = re.compile(r"https?://[^\s\"<>]+/waitlist/confirm/[^/\s\"<>]+/")
UNSUBSCRIBE_LINK = re.compile(r"https?://[^\s\"<>]+/waitlist/unsubscribe/[^/\s\"<>]+/")


class WaitlistEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WaitlistEntry

    email = factory.Sequence(lambda n: f"guest{n}@example.com")
    language = "en"
    status = Status.PENDING


@pytest.fixture(autouse=True)
def _tasks_run_inline(eager_celery: None) -> None:
    """Send every waitlist email in the request's thread."""


@pytest.fixture(autouse=True)
def empty_cache():
    """The rate limits live in the cache: start and end every test without any."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://pilotta.example"


def url(name, *args, language="en"):
    with translation.override(language):
        return reverse(f"lobby:{name}", args=args)


def join(client, email="ana@example.com", language="en", page="en", **extra):
    data = {"email": email, "language": language, "website": "", **extra.pop("data", {})}
    return client.post(url("waitlist_join", language=page), data, **extra)


def signed_up(client, capture, email="ana@example.com", language="en", **extra):
    """Sign up with the on-commit callbacks run, as after a real commit."""
    with capture(execute=True):
        response = join(client, email=email, language=language, **extra)
    return response


def confirm_link(message) -> str:
    match = CONFIRM_LINK.search(message.body)
    assert match, message.body
    return match.group(0)


def unsubscribe_link(message) -> str:
    match = UNSUBSCRIBE_LINK.search(message.body)
    assert match, message.body
    return match.group(0)


def path_of(link: str) -> str:
    return link.removeprefix("https://pilotta.example")


# Signing up


@pytest.mark.parametrize(
    ("language", "subject"),
    [
        ("el", "Επιβεβαιώστε τη θέση σας στη λίστα αναμονής του Pilotta.io"),
        ("fr", "Confirmez votre place sur la liste d’attente de Pilotta.io"),  # noqa: RUF001
        ("en", "Confirm your place on the Pilotta.io waitlist"),
    ],
)
def test_signup_emails_a_confirmation_link_in_the_chosen_language(
    client, django_capture_on_commit_callbacks, language, subject
):
    response = signed_up(client, django_capture_on_commit_callbacks, language=language)

    assert response.status_code == 302
    assert response["Location"] == url("waitlist_thanks")
    entry = WaitlistEntry.objects.get()
    assert (entry.email, entry.language, entry.status) == ("ana@example.com", language, "pending")
    assert entry.confirmed_at is None
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ana@example.com"]
    assert message.subject == subject
    link = confirm_link(message)
    assert link.startswith(f"https://pilotta.example/{language}/waitlist/confirm/")
    html = message.alternatives[0][0]
    assert link in html
    assert unsubscribe_link(message) in html


def test_every_waitlist_email_offers_a_one_click_unsubscribe(
    client, django_capture_on_commit_callbacks
):
    signed_up(client, django_capture_on_commit_callbacks)

    message = mail.outbox[0]
    link = unsubscribe_link(message)
    assert message.extra_headers["List-Unsubscribe"] == (
        f"<{link}>, <mailto:hello@pilotta.io?subject=unsubscribe>"
    )
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    sent = message.message()
    assert sent["List-Unsubscribe"].startswith("<https://pilotta.example/en/waitlist/unsubscribe/")
    assert sent["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_email_leaves_only_after_the_commit(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        join(client)

    assert len(callbacks) == 1
    assert mail.outbox == []


def test_signup_is_stored_with_a_hash_of_the_ip_never_the_ip(
    client, django_capture_on_commit_callbacks
):
    signed_up(client, django_capture_on_commit_callbacks, REMOTE_ADDR="203.0.113.7")

    entry = WaitlistEntry.objects.get()
    assert entry.ip_hash == services.ip_hash("203.0.113.7")
    assert "203.0.113.7" not in entry.ip_hash


def test_the_language_defaults_to_the_page_language(client):
    for language in ("el", "en", "fr"):
        html = client.get(f"/{language}/").content.decode()

        assert re.search(rf'<option value="{language}"[^>]* selected>', html)


# No enumeration: the same answer whether or not the address is listed


def test_signing_up_twice_answers_alike_and_keeps_one_row(
    client, django_capture_on_commit_callbacks
):
    first = signed_up(client, django_capture_on_commit_callbacks)
    again = signed_up(client, django_capture_on_commit_callbacks, email="ANA@Example.com")

    assert (first.status_code, first["Location"]) == (again.status_code, again["Location"])
    assert WaitlistEntry.objects.count() == 1
    # Still pending: the confirmation goes out again, for the same entry (each link is signed
    # at its own second, so the links themselves may differ).
    entry = WaitlistEntry.objects.get()
    tokens_sent = [confirm_link(m).rstrip("/").rsplit("/", 1)[1] for m in mail.outbox]
    assert [tokens.read_confirm_token(token) for token in tokens_sent] == [entry.pk] * 2


def test_a_confirmed_address_hears_it_is_already_listed(client, django_capture_on_commit_callbacks):
    WaitlistEntryFactory(email="ana@example.com", status=Status.CONFIRMED, language="fr")
    fresh = signed_up(client, django_capture_on_commit_callbacks, email="new@example.com")
    mail.outbox.clear()

    listed = signed_up(client, django_capture_on_commit_callbacks, email="ana@example.com")

    assert (fresh.status_code, fresh["Location"]) == (listed.status_code, listed["Location"])
    assert WaitlistEntry.objects.get(email="ana@example.com").status == Status.CONFIRMED
    [message] = mail.outbox
    assert message.subject == "Vous êtes déjà sur la liste d’attente de Pilotta.io"  # noqa: RUF001
    assert not CONFIRM_LINK.search(message.body)
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_an_invited_address_gets_nothing_more(client, django_capture_on_commit_callbacks):
    WaitlistEntryFactory(email="ana@example.com", status=Status.INVITED)

    response = signed_up(client, django_capture_on_commit_callbacks)

    assert response["Location"] == url("waitlist_thanks")
    assert mail.outbox == []
    assert WaitlistEntry.objects.get().status == Status.INVITED


def test_an_unsubscribed_address_starts_over_with_a_new_confirmation(
    client, django_capture_on_commit_callbacks
):
    WaitlistEntryFactory(
        email="ana@example.com", status=Status.UNSUBSCRIBED, unsubscribed_at=timezone.now()
    )

    signed_up(client, django_capture_on_commit_callbacks, language="el")

    entry = WaitlistEntry.objects.get()
    assert (entry.status, entry.language, entry.unsubscribed_at) == ("pending", "el", None)
    assert len(mail.outbox) == 1


def test_htmx_signup_swaps_in_the_same_fragment_either_way(
    client, django_capture_on_commit_callbacks
):
    htmx = {"headers": {"HX-Request": "true"}}
    first = signed_up(client, django_capture_on_commit_callbacks, **htmx)
    again = signed_up(client, django_capture_on_commit_callbacks, **htmx)

    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    html = first.content.decode()
    assert 'id="waitlist-box"' in html
    assert "<html" not in html
    assert "check your inbox" in html


def test_one_inbox_gets_at_most_three_emails_an_hour(client, django_capture_on_commit_callbacks):
    for number in range(5):
        signed_up(client, django_capture_on_commit_callbacks, REMOTE_ADDR=f"198.51.100.{number}")

    assert len(mail.outbox) == services.EMAILS_PER_ADDRESS_PER_HOUR == 3


# Rate limit, honeypot and bad input


def test_more_than_five_signups_an_hour_from_one_ip_are_refused(
    client, django_capture_on_commit_callbacks
):
    for number in range(services.SIGNUPS_PER_IP_PER_HOUR):
        response = signed_up(client, django_capture_on_commit_callbacks, f"p{number}@example.com")
        assert response.status_code == 302

    refused = signed_up(client, django_capture_on_commit_callbacks, "late@example.com", page="el")

    assert refused.status_code == 429
    assert "Πάρα πολλές εγγραφές από τη σύνδεσή σας" in refused.content.decode()
    assert not WaitlistEntry.objects.filter(email="late@example.com").exists()
    assert len(mail.outbox) == 5
    other_ip = signed_up(
        client, django_capture_on_commit_callbacks, "late@example.com", REMOTE_ADDR="192.0.2.9"
    )
    assert other_ip.status_code == 302


def test_the_rate_limit_answers_htmx_with_the_form_and_its_message(client):
    for number in range(services.SIGNUPS_PER_IP_PER_HOUR):
        join(client, f"p{number}@example.com")

    refused = join(client, "late@example.com", page="fr", headers={"HX-Request": "true"})

    assert refused.status_code == 429
    html = refused.content.decode()
    assert "<html" not in html
    assert 'role="alert"' in html
    assert "Trop d’inscriptions depuis votre connexion" in unescape(html)  # noqa: RUF001
    assert 'value="late@example.com"' in html


def test_behind_a_proxy_the_limit_counts_the_client_not_the_proxy(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for number in range(services.SIGNUPS_PER_IP_PER_HOUR):
        forwarded = f"1.2.3.{number}, 203.0.113.5"  # whatever the client claims, then the proxy
        join(client, f"p{number}@example.com", HTTP_X_FORWARDED_FOR=forwarded, **proxy)

    same_client = join(client, "q@example.com", HTTP_X_FORWARDED_FOR="203.0.113.5", **proxy)
    other_client = join(client, "r@example.com", HTTP_X_FORWARDED_FOR="203.0.113.6", **proxy)

    assert same_client.status_code == 429
    assert other_client.status_code == 302


def test_a_filled_honeypot_pretends_success_and_stores_nothing(
    client, django_capture_on_commit_callbacks
):
    real = signed_up(client, django_capture_on_commit_callbacks, "real@example.com")
    mail.outbox.clear()

    bot = signed_up(
        client, django_capture_on_commit_callbacks, "bot@example.com", data={"website": "x.biz"}
    )

    assert (bot.status_code, bot["Location"]) == (real.status_code, real["Location"])
    assert not WaitlistEntry.objects.filter(email="bot@example.com").exists()
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"email": "not-an-email"}, "Αυτό δεν μοιάζει με διεύθυνση email"),
        ({"email": ""}, "Γράψτε τη διεύθυνση email σας."),
        ({"language": "de"}, "Διαλέξτε μία από τις γλώσσες που προσφέρονται."),
    ],
)
def test_bad_input_shows_the_form_again_with_a_translated_error(
    client, django_capture_on_commit_callbacks, data, message
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url("waitlist_join", language="el"),
            {"email": "ana@example.com", "language": "el", "website": "", **data},
        )

    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert 'aria-invalid="true"' in html
    assert '<figure class="demo-table">' in html  # the whole page, not the fragment
    assert WaitlistEntry.objects.count() == 0
    assert mail.outbox == []


def test_the_signup_endpoint_only_takes_posts(client):
    assert client.get(url("waitlist_join")).status_code == 405


def test_the_thanks_page_asks_to_check_the_inbox(client):
    response = client.get(url("waitlist_thanks", language="el"))

    assert response.status_code == 200
    assert "ελέγξτε τα εισερχόμενά σας" in response.content.decode()


# Confirming


def test_opening_the_link_does_not_confirm_pressing_the_button_does(
    client, django_capture_on_commit_callbacks
):
    signed_up(client, django_capture_on_commit_callbacks, language="el")
    link = path_of(confirm_link(mail.outbox[0]))

    shown = client.get(link)

    assert shown.status_code == 200
    assert '<form method="post">' in shown.content.decode()
    assert "Επιβεβαίωση της θέσης μου" in shown.content.decode()
    assert WaitlistEntry.objects.get().status == Status.PENDING

    confirmed = client.post(link)

    assert confirmed.status_code == 200
    assert "Είστε στη λίστα" in confirmed.content.decode()
    entry = WaitlistEntry.objects.get()
    assert entry.status == Status.CONFIRMED
    assert entry.confirmed_at is not None


def test_confirming_twice_changes_nothing_more(client):
    entry = WaitlistEntryFactory()
    link = url("waitlist_confirm", tokens.confirm_token(entry.pk))
    client.post(link)
    first_confirmed_at = WaitlistEntry.objects.get().confirmed_at

    again = client.post(link)

    assert again.status_code == 200
    assert WaitlistEntry.objects.get().confirmed_at == first_confirmed_at
    assert "already on the list" in client.get(link).content.decode()


def test_the_confirmation_post_needs_the_csrf_token():
    entry = WaitlistEntryFactory()
    client = Client(enforce_csrf_checks=True)

    response = client.post(url("waitlist_confirm", tokens.confirm_token(entry.pk)))

    assert response.status_code == 403
    assert WaitlistEntry.objects.get().status == Status.PENDING


def test_the_confirmation_link_works_for_three_days_then_expires(
    client, django_capture_on_commit_callbacks
):
    with time_machine.travel("2026-03-01 12:00:00+00:00", tick=False) as traveller:
        signed_up(client, django_capture_on_commit_callbacks, language="fr")
        link = path_of(confirm_link(mail.outbox[0]))

        traveller.shift(tokens.CONFIRM_MAX_AGE - timedelta(minutes=1))
        assert client.get(link).status_code == 200

        traveller.shift(timedelta(minutes=2))
        shown = client.get(link)
        posted = client.post(link)

    assert shown.status_code == posted.status_code == 410
    assert "Ce lien a expiré" in posted.content.decode()
    assert WaitlistEntry.objects.get().status == Status.PENDING


def flip_last(token: str) -> str:
    """Change the token's last character, whatever it is."""
    return token[:-1] + ("B" if token.endswith("A") else "A")


@pytest.mark.parametrize(
    "token",
    [
        pytest.param(lambda entry: flip_last(tokens.confirm_token(entry.pk)), id="bad signature"),
        pytest.param(
            lambda entry: tokens.confirm_token(entry.pk).replace(str(entry.pk), "999", 1),
            id="other entry",
        ),
        pytest.param(lambda entry: tokens.unsubscribe_token(entry.pk), id="unsubscribe token"),
        pytest.param(lambda entry: "garbage", id="garbage"),
    ],
)
def test_a_tampered_confirmation_link_changes_nothing(client, token):
    entry = WaitlistEntryFactory()
    link = url("waitlist_confirm", token(entry), language="el")

    shown = client.get(link)
    posted = client.post(link)

    assert shown.status_code == posted.status_code == 400
    assert "σύνδεσμος δεν λειτουργεί" in posted.content.decode()
    assert WaitlistEntry.objects.get().status == Status.PENDING


def test_a_confirmation_link_cannot_undo_an_unsubscribe(client):
    entry = WaitlistEntryFactory(status=Status.UNSUBSCRIBED, unsubscribed_at=timezone.now())

    response = client.post(url("waitlist_confirm", tokens.confirm_token(entry.pk)))

    assert response.status_code == 400
    assert WaitlistEntry.objects.get().status == Status.UNSUBSCRIBED


# Unsubscribing


def test_mail_apps_unsubscribe_with_one_post_and_no_csrf_token(
    client, django_capture_on_commit_callbacks
):
    signed_up(client, django_capture_on_commit_callbacks)
    link = path_of(unsubscribe_link(mail.outbox[0]))
    mail_app = Client(enforce_csrf_checks=True)

    response = mail_app.post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 200
    entry = WaitlistEntry.objects.get()
    assert entry.status == Status.UNSUBSCRIBED
    assert entry.unsubscribed_at is not None


def test_opening_the_unsubscribe_link_only_shows_a_button(client):
    entry = WaitlistEntryFactory(status=Status.CONFIRMED, language="fr")

    response = client.get(
        url("waitlist_unsubscribe", tokens.unsubscribe_token(entry.pk), language="fr")
    )

    assert response.status_code == 200
    assert "Se désabonner" in response.content.decode()
    assert WaitlistEntry.objects.get().status == Status.CONFIRMED


def test_the_unsubscribe_link_never_expires(client):
    with time_machine.travel("2026-01-01 00:00:00+00:00", tick=False) as traveller:
        entry = WaitlistEntryFactory(status=Status.CONFIRMED)
        link = url("waitlist_unsubscribe", tokens.unsubscribe_token(entry.pk))
        traveller.shift(timedelta(days=400))

        response = client.post(link)

    assert response.status_code == 200
    assert WaitlistEntry.objects.get().status == Status.UNSUBSCRIBED


def test_a_tampered_unsubscribe_link_changes_nothing(client):
    entry = WaitlistEntryFactory(status=Status.CONFIRMED)
    link = url("waitlist_unsubscribe", tokens.confirm_token(entry.pk))

    response = client.post(link)

    assert response.status_code == 400
    assert WaitlistEntry.objects.get().status == Status.CONFIRMED


def test_no_email_goes_to_an_address_that_left_before_the_task_ran(client):
    entry = WaitlistEntryFactory(status=Status.UNSUBSCRIBED)

    sent = emails.waitlist_email_send(entry_id=entry.pk, kind=emails.CONFIRM)

    assert sent is False
    assert mail.outbox == []


# Admin


@pytest.fixture
def staff_client(client, admin_user):
    client.force_login(admin_user)
    return client


def admin_url(name, *args):
    with translation.override("en"):
        return reverse(f"admin:{name}", args=args)


CHANGELIST = "lobby_waitlistentry_changelist"


def test_staff_search_the_waitlist_by_email(staff_client):
    WaitlistEntryFactory(email="ana@example.com")
    WaitlistEntryFactory(email="bob@example.com")

    html = staff_client.get(admin_url(CHANGELIST), {"q": "ana@"}).content.decode()

    assert "ana@example.com" in html
    assert "bob@example.com" not in html


def test_staff_filter_the_waitlist_by_status_language_and_date(staff_client):
    with time_machine.travel("2026-02-10 09:00:00+00:00", tick=False):
        WaitlistEntryFactory(email="old@example.com", language="el", status=Status.CONFIRMED)
    WaitlistEntryFactory(email="greek@example.com", language="el", status=Status.CONFIRMED)
    WaitlistEntryFactory(email="french@example.com", language="fr", status=Status.CONFIRMED)
    WaitlistEntryFactory(email="pending@example.com", language="el")
    changelist = admin_url(CHANGELIST)

    by_status = staff_client.get(
        changelist, {"status__exact": "confirmed", "language__exact": "el"}
    )
    by_month = staff_client.get(changelist, {"created_at__year": "2026", "created_at__month": "2"})

    assert by_status.status_code == by_month.status_code == 200
    assert by_status.context["cl"].result_count == 2
    listed = {entry.email for entry in by_status.context["cl"].result_list}
    assert listed == {"old@example.com", "greek@example.com"}
    assert [e.email for e in by_month.context["cl"].result_list] == ["old@example.com"]


def test_staff_export_the_selected_entries_as_csv(staff_client):
    chosen = WaitlistEntryFactory(
        email="=cmd@example.com", status=Status.CONFIRMED, confirmed_at=timezone.now()
    )
    WaitlistEntryFactory(email="left-out@example.com")

    response = staff_client.post(
        admin_url(CHANGELIST), {"action": "export_csv", "_selected_action": [chosen.pk]}
    )

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="waitlist-')
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["email", "language", "status", "created_at", "confirmed_at"]
    assert rows[1][:3] == ["'=cmd@example.com", "en", "confirmed"]
    assert rows[1][3] == chosen.created_at.isoformat()
    assert rows[1][4] == chosen.confirmed_at.isoformat()
    assert len(rows) == 2


def test_staff_invite_confirmed_entries_and_skip_the_others(
    staff_client, django_capture_on_commit_callbacks
):
    confirmed = WaitlistEntryFactory(
        email="yes@example.com", status=Status.CONFIRMED, language="el"
    )
    pending = WaitlistEntryFactory(email="pending@example.com")
    gone = WaitlistEntryFactory(email="gone@example.com", status=Status.UNSUBSCRIBED)

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(
            admin_url(CHANGELIST),
            {"action": "send_invitations", "_selected_action": [confirmed.pk, pending.pk, gone.pk]},
            follow=True,
        )

    assert response.status_code == 200
    invitation = Invitation.objects.get()
    assert (invitation.email, invitation.language, invitation.inviter) == (
        "yes@example.com",
        "el",
        None,
    )
    confirmed.refresh_from_db()
    assert confirmed.status == Status.INVITED
    assert confirmed.invited_at is not None
    assert WaitlistEntry.objects.get(pk=pending.pk).status == Status.PENDING
    assert WaitlistEntry.objects.get(pk=gone.pk).status == Status.UNSUBSCRIBED
    shown = [str(message) for message in response.context["messages"]]
    assert shown == [
        "Sent 1 invitation.",
        "Skipped 2 entries: only confirmed addresses can be invited.",
    ]
    assert [message.to for message in mail.outbox] == [["yes@example.com"]]


def test_an_invited_entry_is_not_invited_twice(staff_client):
    entry = WaitlistEntryFactory(status=Status.CONFIRMED)
    for _ in range(2):
        staff_client.post(
            admin_url(CHANGELIST), {"action": "send_invitations", "_selected_action": [entry.pk]}
        )

    assert Invitation.objects.count() == 1


def test_players_who_are_not_staff_are_kept_out_of_the_waitlist_admin(client):
    player = User.objects.create_user(email="player@example.com", password=PASSWORD)
    entry = WaitlistEntryFactory(status=Status.CONFIRMED)
    client.force_login(player)

    listing = client.get(admin_url(CHANGELIST))
    action = client.post(
        admin_url(CHANGELIST), {"action": "send_invitations", "_selected_action": [entry.pk]}
    )

    for response in (listing, action):
        assert response.status_code == 302
        assert "/login/" in response["Location"]
    assert Invitation.objects.count() == 0
    assert WaitlistEntry.objects.get().status == Status.CONFIRMED


def test_staff_without_waitlist_permissions_are_refused(client):
    clerk = User.objects.create_user(email="clerk@example.com", password="pw", is_staff=True)
    entry = WaitlistEntryFactory(status=Status.CONFIRMED)
    client.force_login(clerk)

    listing = client.get(admin_url(CHANGELIST))
    action = client.post(
        admin_url(CHANGELIST), {"action": "send_invitations", "_selected_action": [entry.pk]}
    )

    assert listing.status_code == action.status_code == 403
    assert Invitation.objects.count() == 0


def test_staff_who_may_only_view_can_export_but_not_invite(client):
    clerk = User.objects.create_user(email="clerk@example.com", password="pw", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_waitlistentry"))
    entry = WaitlistEntryFactory(status=Status.CONFIRMED)
    client.force_login(clerk)

    export = client.post(
        admin_url(CHANGELIST), {"action": "export_csv", "_selected_action": [entry.pk]}
    )
    invite = client.post(
        admin_url(CHANGELIST), {"action": "send_invitations", "_selected_action": [entry.pk]}
    )

    assert export["Content-Type"].startswith("text/csv")
    assert invite.status_code == 302  # back to the list: the action is not offered
    assert Invitation.objects.count() == 0
    assert WaitlistEntry.objects.get().status == Status.CONFIRMED
