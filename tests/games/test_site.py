"""The site around the tables: a plain 404 page and the DEBUG default (off unless asked)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_page_is_a_plain_404(client):
    response = client.get("/no-such-page/")
    body = response.content.decode()
    assert response.status_code == 404 and "Page not found" in body and "Back to the lobby" in body
    assert "URLconf" not in body


def test_debug_is_off_unless_asked():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "ALLOWED_HOSTS", "OKEY_SERVE_STATIC")}
    env.pop("REDIS_URL", None)  # embedded mode
    code = ("import okeysite.settings as s; "
            "print(s.DEBUG, s.ALLOWED_HOSTS, s.OKEY_SERVE_STATIC, s.EMAIL_BACKEND.rsplit('.', 2)[-2])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout.split(None, 1)
    assert out[0] == "False"
    assert out[1].strip() == "['localhost', '127.0.0.1', '[::1]'] True console"
