"""Production configuration: `check --deploy` is clean and the environment is honoured."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import email_settings

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-Zq8$w!3xP0vL#9rT2yB6nM1cV4aS7dF0gH5jK8lQ",
    "ALLOWED_HOSTS": "pilotta.example",
    "DATABASE_URL": "postgres://pilotta@127.0.0.1:5432/pilotta",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "EMAIL_URL": "smtp+tls://mailer:secret@smtp.example:587",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {key: value for key, value in os.environ.items() if key not in PRODUCTION_ENV}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {**PRODUCTION_ENV, "SECRET_KEY": ""}

    result = run_manage("check", env=env)

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_complains_about_debug_without_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env={"DEBUG": "1"})

    assert result.returncode != 0


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("", {"EMAIL_BACKEND": "config.mail.EmailBackend"}),
        ("console://", {"EMAIL_BACKEND": "config.mail.EmailBackend"}),
        (
            "smtp+tls://user%40x:p%2Fw@mail.example:2525",
            {
                "EMAIL_HOST": "mail.example",
                "EMAIL_PORT": 2525,
                "EMAIL_HOST_USER": "user@x",
                "EMAIL_HOST_PASSWORD": "p/w",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
            },
        ),
        ("smtps://mail.example", {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True}),
    ],
)
def test_email_url_becomes_django_settings(url, expected):
    assert email_settings(url).items() >= expected.items()


def test_email_url_with_an_unknown_scheme_is_refused():
    with pytest.raises(ValueError, match="unknown scheme"):
        email_settings("carrier-pigeon://coop")
