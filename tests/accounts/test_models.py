"""The user's names and the display-name rules."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from accounts.validators import normalize_display_name, validate_display_name
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_table_name_is_the_display_name():
    assert UserFactory(display_name="Eleni").table_name == "Eleni"


def test_a_player_without_display_name_never_shows_the_email():
    user = UserFactory(display_name=None, email="secret@example.com")

    with translation.override("el"):
        assert user.table_name == f"Παίκτης {user.pk}"
    assert "secret" not in user.table_name


@pytest.mark.parametrize("name", ["Eleni", "Κώστας", "Jean-Luc", "a.b_c", "Player 7", "abc"])
def test_good_names(name):
    validate_display_name(name)


@pytest.mark.parametrize("name", ["ab", "a@b", "tab\tname", "...", "_-_", "Δ!", "<b>x</b>"])
def test_bad_names(name):
    with pytest.raises(ValidationError):
        validate_display_name(name)


def test_names_are_trimmed_and_single_spaced():
    assert normalize_display_name("  Kyria \t  Eleni ") == "Kyria Eleni"


def test_the_model_refuses_a_bad_name_too():
    user = UserFactory.build(display_name="no!")

    with pytest.raises(ValidationError) as error:
        user.full_clean(exclude=["password"])

    assert "display_name" in error.value.message_dict


def test_the_model_refuses_a_name_taken_in_another_case():
    UserFactory(display_name="Eleni")
    user = UserFactory.build(display_name="ELENI")

    with translation.override("en"), pytest.raises(ValidationError) as error:
        user.full_clean(exclude=["password"])

    assert error.value.messages == ["This display name is taken."]
