"""The punctuation templates add themselves follows the language: French spaces its colon."""

import pytest
from django.template import Context, Template
from django.utils import translation

TEMPLATE = Template("{% load typography %}Eleni{% colon %} ♥")


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Eleni: ♥"), ("el", "Eleni: ♥"), ("fr", "Eleni\u00a0: ♥")],
)
def test_the_colon_tag_writes_the_colon_as_the_language_does(language, expected):
    with translation.override(language):
        assert TEMPLATE.render(Context()) == expected
