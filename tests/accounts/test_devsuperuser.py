"""`manage.py devsuperuser`: a staff user who can log in at once, made without a prompt."""

import pytest
from allauth.account.models import EmailAddress
from django.core.management import CommandError, call_command

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "staff-Table-2024"


@pytest.fixture(autouse=True)
def development(settings):
    settings.DEBUG = True


def test_the_staff_user_is_verified_and_logs_in_to_the_admin(client, capsys):
    call_command("devsuperuser", "--email", "Staff@Example.com", "--password", PASSWORD)

    user = User.objects.get(email__iexact="staff@example.com")
    assert (user.is_staff, user.is_superuser, user.is_active) == (True, True, True)
    address = EmailAddress.objects.get(user=user)
    assert (address.verified, address.primary) == (True, True)
    assert "Created staff user" in capsys.readouterr().out
    login = client.post(
        "/en/accounts/login/?next=/en/admin/", {"login": user.email, "password": PASSWORD}
    )
    assert login["Location"] == "/en/admin/"
    assert client.get("/en/admin/").status_code == 200


def test_email_and_password_can_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("DEV_SUPERUSER_EMAIL", "ops@example.com")
    monkeypatch.setenv("DEV_SUPERUSER_PASSWORD", PASSWORD)

    call_command("devsuperuser")

    assert User.objects.get(email="ops@example.com").check_password(PASSWORD)


def test_running_it_again_updates_the_same_user(capsys):
    existing = UserFactory(email="staff@example.com", display_name="Andreas", verified=False)

    call_command("devsuperuser", "--email", "staff@example.com", "--password", PASSWORD)

    user = User.objects.get()
    assert (user.pk, user.is_superuser) == (existing.pk, True)
    assert user.check_password(PASSWORD)
    assert user.display_name == "Andreas"
    assert EmailAddress.objects.get(user=user).verified
    assert "Updated staff user" in capsys.readouterr().out


def test_a_password_is_required():
    with pytest.raises(CommandError, match="password"):
        call_command("devsuperuser", "--email", "staff@example.com")

    assert not User.objects.exists()


def test_it_refuses_to_run_in_production(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG"):
        call_command("devsuperuser", "--password", PASSWORD)

    assert not User.objects.exists()


def test_a_display_name_taken_is_refused_cleanly():
    UserFactory(display_name="Staff")

    with pytest.raises(CommandError, match=r"(?i)display name"):
        call_command("devsuperuser", "--email", "new@example.com", "--password", PASSWORD)

    assert not User.objects.filter(email="new@example.com").exists()
