"""What a developer reads on the console: emails decoded, and each log line once."""
# ruff: noqa: RUF001 - the emails are in Greek, whose letters look like Latin ones.

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from django.core.mail import EmailMultiAlternatives

from config.mail import EmailBackend

ROOT = Path(__file__).resolve().parent.parent
GREEK_SUBJECT = "Επιβεβαιώστε τη διεύθυνσή σας στο Pilotta.io"
LINK = "http://127.0.0.1:8000/el/accounts/confirm-email/Mg:1tqK/"


def test_a_greek_email_is_printed_decoded_with_its_text_body():
    body = f"Γεια σας,\n\nπατήστε εδώ:\n\n{LINK}\n" + "κείμενο " * 200
    message = EmailMultiAlternatives(
        GREEK_SUBJECT,
        body,
        "Pilotta.io <hello@pilotta.io>",
        ["ελένη@example.com"],
        headers={"List-Unsubscribe": "<http://127.0.0.1:8000/el/waitlist/unsubscribe/x/>"},
    )
    message.attach_alternative(f'<p><a href="{LINK}">Επιβεβαίωση</a></p>', "text/html")
    stream = io.StringIO()

    sent = EmailBackend(stream=stream).send_messages([message])

    printed = stream.getvalue()
    assert sent == 1
    assert f"Subject: {GREEK_SUBJECT}\n" in printed
    assert "To: ελένη@example.com\n" in printed
    assert "List-Unsubscribe: <http://127.0.0.1:8000/el/waitlist/unsubscribe/x/>" in printed
    assert f"\n{LINK}\n" in printed
    assert "κείμενο " * 200 in printed
    # Nothing is encoded for the wire, and the HTML part is named rather than printed.
    assert "=?utf-8?" not in printed
    assert "Content-Transfer-Encoding" not in printed
    assert "<p>" not in printed
    assert "text/html" in printed


LOG_PROBE = textwrap.dedent(
    """
    import logging, django
    django.setup()
    logging.getLogger("django.channels.server").info("HTTP GET /probe/ 200")
    logging.getLogger("django.utils.autoreload").info("watching for changes")
    logging.getLogger("games.probe").info("a line of our own")
    """
)


def test_each_log_line_is_printed_once_with_debug_on():
    env = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "LOG_LEVEL"}}
    env |= {"DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)}

    result = subprocess.run(
        [sys.executable, "-c", LOG_PROBE], env=env, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
    assert result.stderr.count("HTTP GET /probe/ 200") == 1, result.stderr
    assert result.stderr.count("watching for changes") == 1, result.stderr
    assert result.stderr.count("a line of our own") == 1, result.stderr
