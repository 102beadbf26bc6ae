from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    # allauth calls its own section "Accounts": ours holds the players and their friends.
    verbose_name = _("Players and friends")

    def ready(self) -> None:
        from accounts import signals  # noqa: F401 - connects the receivers
