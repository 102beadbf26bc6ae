"""Make a staff user who can log in at once, for development: no prompt, no email to verify."""

import os
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from accounts.services import staff_user_ensure

DEFAULT_EMAIL = "admin@example.com"
DEFAULT_DISPLAY_NAME = "Staff"


class Command(BaseCommand):
    help = (
        "Create (or update) a staff superuser whose email address is verified, without prompts. "
        "Email and password come from the options or from DEV_SUPERUSER_EMAIL and "
        "DEV_SUPERUSER_PASSWORD. Refused when DEBUG is off: use createsuperuser there."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--email", default=os.environ.get("DEV_SUPERUSER_EMAIL", ""))
        parser.add_argument("--password", default=os.environ.get("DEV_SUPERUSER_PASSWORD", ""))
        parser.add_argument("--display-name", default=DEFAULT_DISPLAY_NAME)

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("devsuperuser is for development (DEBUG=1); use createsuperuser.")
        email = User.objects.normalize_email((options["email"] or DEFAULT_EMAIL).strip())
        password = options["password"]
        if not password:
            raise CommandError("Give a password: --password or DEV_SUPERUSER_PASSWORD.")
        try:
            user, created = staff_user_ensure(
                email=email, password=password, display_name=options["display_name"]
            )
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None
        verb = "Created" if created else "Updated"
        message = f"{verb} staff user {user.email}; log in at /en/admin/"
        self.stdout.write(self.style.SUCCESS(message))
