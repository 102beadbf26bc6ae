"""Every catalog is fully translated and its compiled .mo matches the .po."""

import gettext
from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE_DIR = Path(settings.BASE_DIR) / "locale"
TRANSLATED_LANGUAGES = ["el", "fr"]
CATALOGS = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def test_every_language_has_a_catalog():
    languages = {path.parts[-3] for path in CATALOGS}

    assert {"el", "en", "fr"} <= languages


@pytest.mark.parametrize("po_path", CATALOGS, ids=lambda path: "/".join(path.parts[-3:]))
def test_catalog_has_no_untranslated_or_fuzzy_entry(po_path):
    language = po_path.parts[-3]
    catalog = polib.pofile(str(po_path))

    fuzzy = [entry.msgid for entry in catalog.fuzzy_entries() if not entry.obsolete]
    assert fuzzy == []
    if language in TRANSLATED_LANGUAGES:
        assert [entry.msgid for entry in catalog.untranslated_entries()] == []


@pytest.mark.parametrize("po_path", CATALOGS, ids=lambda path: "/".join(path.parts[-3:]))
def test_compiled_catalog_matches_its_source(po_path, tmp_path):
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} is missing: run compilemessages"
    expected = tmp_path / "expected.mo"
    polib.pofile(str(po_path)).save_as_mofile(str(expected))

    with mo_path.open("rb") as committed, expected.open("rb") as fresh:
        committed_catalog = gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]
        fresh_catalog = gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]

    # msgfmt drops POT-Creation-Date from the header; the messages themselves must match.
    committed_catalog.pop("", None)
    fresh_catalog.pop("", None)
    assert committed_catalog == fresh_catalog, f"{mo_path} is stale: run compilemessages"
