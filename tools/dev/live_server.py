"""Shared set-up of the live dev scripts (`live*.py`): a throwaway server and a checklist.

Dev tools, not tests: each script starts daphne in embedded mode on a free port with a
scratch SQLite database (the browser tests' `base_env`), drives it with Playwright and
prints one line per check.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.browser.conftest import _free_port, base_env  # noqa: E402

failures = []


def start_server(work: Path):
    """Migrate a scratch database in `work` and start daphne; returns (env, base_url, process, log file).
    The caller waits for the port (`_wait_for_port`) and terminates the process."""
    env = base_env(DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", OKEY_BOT_DELAY="0.3",
                   OKEY_BOT_STEP_DELAY="0.1", OKEY_NEXT_ROUND_DELAY="3")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    port = _free_port()
    log = open(work / "server.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "okeysite.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return env, f"http://127.0.0.1:{port}", server, log


def make_shell(env):
    """shell(code) -> stdout of `manage.py shell -c code` against the script's server database."""
    def shell(code):
        return subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                              check=True, capture_output=True, text=True).stdout.strip()
    return shell


def check(name, cond, detail=""):
    """Print one check; a failed one is remembered in `failures`."""
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else f"  {detail}"))
    if not cond:
        failures.append(name)


def wait_until_up(base: str, server) -> None:
    """Block until the server started by `start_server` answers on its port."""
    from tests.browser.conftest import _wait_for_port

    _wait_for_port(int(base.rsplit(":", 1)[1]), server)
