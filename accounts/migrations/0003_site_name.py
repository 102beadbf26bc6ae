"""Name the site Pilotta.io: allauth's emails greet and sign with the site's name and domain."""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import migrations


def name_site(apps, schema_editor):
    Site = apps.get_model("sites", "Site")
    domain = urlsplit(settings.SITE_URL).netloc or "pilotta.io"
    Site.objects.update_or_create(
        pk=settings.SITE_ID, defaults={"domain": domain, "name": "Pilotta.io"}
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_invitations_friends_deletion"),
        ("sites", "0002_alter_domain_unique"),
    ]

    operations = [migrations.RunPython(name_site, migrations.RunPython.noop)]
