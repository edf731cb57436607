import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_home_page_serves(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Daily Sudoku" in response.content


@pytest.mark.integration
@pytest.mark.postgres
@pytest.mark.django_db
def test_the_suite_runs_on_postgresql_when_configured(postgres):
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


@pytest.mark.integration
def test_redis_answers(redis_url):
    import redis

    assert redis.Redis.from_url(redis_url).ping() is True


def test_the_settings_name_the_engines_tiers_in_its_order(settings):
    from puzzles.engine import TIERS

    assert settings.TIERS == TIERS
