"""Production settings: no start without a secret key of its own, the embedded default needs
no variable at all, and the README's production environment passes `check --deploy` with
no warning left."""
import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def manage(*argv, **env):
    """`manage.py argv` outside the test run (no PYTEST_VERSION): the environment is `env`
    alone, plus PATH and HOME. Returns the CompletedProcess."""
    base = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    return subprocess.run([sys.executable, "manage.py", *argv], cwd=ROOT, env=dict(base, **env),
                          capture_output=True, text=True, timeout=120)


def test_production_refuses_to_start_without_a_secret_key():
    done = manage("check", REDIS_URL="redis://127.0.0.1:6379/0")
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr


def test_the_old_public_default_key_is_refused_everywhere():
    done = manage("check", SECRET_KEY="insecure-dev-key-change-me-okeysite-embedded-mode")
    assert done.returncode != 0
    assert "public value" in done.stderr


def test_debug_and_the_embedded_default_start_with_a_local_key_kept_out_of_git():
    assert manage("check").returncode == 0  # `make run`: no variable at all
    assert manage("check", REDIS_URL="redis://127.0.0.1:6379/0", DEBUG="1").returncode == 0
    key_file = ROOT / "var" / "secret_key"
    assert len(key_file.read_text().strip()) >= 50
    assert key_file.stat().st_mode & 0o077 == 0  # its owner's only
    ignored = subprocess.run(["git", "check-ignore", "-q", str(key_file)], cwd=ROOT)
    assert ignored.returncode == 0


def readme_production_block():
    """The README's production example: ({variable: value} of its exports, the command)."""
    block = re.search(r"<!-- production-env -->\s*```sh\n(.*?)```", README, re.S).group(1)
    env, command = {}, None
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["export"]:
            env.update(word.split("=", 1) for word in words[1:])
        elif words:
            command = words
    return env, command


def test_the_readme_production_example_passes_check_deploy_with_no_warning():
    env, command = readme_production_block()
    assert command == [".venv/bin/python", "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    assert env["SECRET_KEY"].startswith("$(")  # the operator's own key, read from where it is kept
    env["SECRET_KEY"] = secrets.token_urlsafe(64)
    done = manage(*command[2:], **env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_two_embedded_sites_on_one_checkout_keep_their_own_login_counters(tmp_path):
    # Several embedded servers at once (a test run's) must not count each other's sign-ups
    # from 127.0.0.1 against one shared limit.
    token = secrets.token_hex(8)
    script = ("import sys; from django.core.cache import cache; key = 'counter-' + sys.argv[-1]; "
              "cache.add(key, 0); print(cache.incr(key))")

    def count(site):
        done = manage("shell", "-c", script.replace("sys.argv[-1]", repr(token)),
                      DATABASE_URL=f"sqlite:///{tmp_path / site}.sqlite3")
        assert done.returncode == 0, done.stderr
        return int(done.stdout.split()[-1])

    assert [count("first"), count("first"), count("second"), count("first")] == [1, 2, 1, 3]
