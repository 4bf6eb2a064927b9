"""Settings read from the environment. A value that is set but does not parse stops the
process at start with ImproperlyConfigured naming the variable: a typo in a deploy file
("ture", "5s") must not pass as the default."""
import os

from django.core.exceptions import ImproperlyConfigured

TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off", "")


def _set(name):
    value = os.environ.get(name)
    return None if value is None else value.strip()


def env_bool(name, default):
    """`name` from the environment as a bool ("1", "true", "yes", "on" / "0", "false",
    "no", "off" or empty, any case); `default` when unset. Raises ImproperlyConfigured on
    anything else."""
    value = _set(name)
    if value is None:
        return default
    if value.lower() in TRUE:
        return True
    if value.lower() in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use one of {', '.join(TRUE + FALSE[:-1])})")


def env_list(name, default):
    """`name` from the environment (else `default`, str) as a comma-separated list of
    non-empty strings."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_float(name, default):
    """`name` from the environment as a finite float (seconds for the OKEY_* timing knobs);
    `default` when unset or empty. Raises ImproperlyConfigured when it does not parse."""
    value = _set(name)
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ImproperlyConfigured(f"{name}={value!r} is not a finite number")
    return number


def env_int(name, default):
    """`name` from the environment as an int (counts, such as pool sizes); `default` when
    unset or empty. Raises ImproperlyConfigured when it is not a whole number."""
    value = _set(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
