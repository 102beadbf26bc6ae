"""The /healthz endpoint."""

from unittest import mock

import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_when_everything_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"


def test_healthz_answers_503_and_names_the_database_when_it_is_down(client):
    with mock.patch(
        "config.health.connection.cursor", side_effect=OperationalError("connection refused")
    ):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"] == "error: OperationalError"
    assert body["checks"]["channel_layer"] == "ok"


def test_healthz_answers_503_when_the_channel_layer_is_down(client):
    with mock.patch("config.health.get_channel_layer", return_value=None):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"].startswith("error")


def test_healthz_checks_the_broker_when_one_is_configured(client, settings):
    settings.CELERY_EMBEDDED_WORKER = False
    with mock.patch("config.health.check_broker", side_effect=ConnectionError("down")):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["broker"] == "error: ConnectionError"


def test_healthz_accepts_only_get(client):
    assert client.post("/healthz").status_code == 405
