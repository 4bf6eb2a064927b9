"""A setting that is set but does not parse stops the start with its name, instead of
passing as the default (a "ture" in a deploy file once meant False)."""
import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from okeysite.env import env_bool, env_float, env_int, env_list

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("TRUE", True), (" yes ", True), ("on", True),
                                                  ("0", False), ("False", False), ("no", False), ("off", False),
                                                  ("", False)])
def test_booleans_read_both_ways(monkeypatch, value, expected):
    monkeypatch.setenv("OKEY_TEST_FLAG", value)
    assert env_bool("OKEY_TEST_FLAG", not expected) is expected


@pytest.mark.parametrize("value", ["ture", "2", "enabled", "y e s"])
def test_a_misspelt_boolean_is_refused_with_its_name(monkeypatch, value):
    monkeypatch.setenv("OKEY_TEST_FLAG", value)
    with pytest.raises(ImproperlyConfigured, match="OKEY_TEST_FLAG"):
        env_bool("OKEY_TEST_FLAG", False)


@pytest.mark.parametrize("value", ["5s", "one", "nan", "inf", "1,5"])
def test_a_bad_number_is_refused_with_its_name(monkeypatch, value):
    monkeypatch.setenv("OKEY_TEST_DELAY", value)
    with pytest.raises(ImproperlyConfigured, match="OKEY_TEST_DELAY"):
        env_float("OKEY_TEST_DELAY", 1.0)


@pytest.mark.parametrize("value", ["2.5", "ten", "3 4"])
def test_a_bad_count_is_refused_with_its_name(monkeypatch, value):
    monkeypatch.setenv("OKEY_TEST_COUNT", value)
    with pytest.raises(ImproperlyConfigured, match="OKEY_TEST_COUNT"):
        env_int("OKEY_TEST_COUNT", 1)


def test_unset_or_empty_values_take_the_default(monkeypatch):
    monkeypatch.delenv("OKEY_TEST_X", raising=False)
    assert (env_bool("OKEY_TEST_X", True), env_float("OKEY_TEST_X", 2.5), env_int("OKEY_TEST_X", 7)) == (True, 2.5, 7)
    monkeypatch.setenv("OKEY_TEST_X", " ")
    assert (env_float("OKEY_TEST_X", 2.5), env_int("OKEY_TEST_X", 7)) == (2.5, 7)
    monkeypatch.setenv("OKEY_TEST_X", " 0.25 ")
    assert env_float("OKEY_TEST_X", 2.5) == 0.25
    monkeypatch.setenv("OKEY_TEST_X", "a, ,b,")
    assert env_list("OKEY_TEST_X", "") == ["a", "b"]


def test_the_site_does_not_start_on_a_misspelt_setting():
    env = dict(os.environ, DEBUG="ture")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    run = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode != 0
    assert "DEBUG='ture' is not a boolean" in run.stderr
