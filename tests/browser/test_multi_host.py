"""The scaled set-up on three machines, built on this one with Linux network namespaces:
a database host (a PostgreSQL cluster and a Redis of its own, listening on the host's
address only), and two web hosts, each running deploy/supervisord.conf (two daphne, a
Celery worker and beat), behind nginx with deploy/nginx.conf (only its EDIT lines
changed). Two players play an online match through nginx in Chromium; mid-round every
process of the web host that holds a table socket is killed with SIGKILL, as a machine
that dies. The pages reconnect through nginx to the other host, its worker and beat play
on, the match finishes and every round verifies (`manage.py verify_round`).

Nothing runs on a web host's 127.0.0.1: anything in the code that assumed a local
database, Redis or daphne would fail here."""
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import expect

from bench.stack import site_env
from tests.browser.conftest import ARTIFACTS, register, shot, start_online_match

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
NET = 100 + os.getpid() % 150  # 10.77.NET.0/24, a subnet of this run's own
FRONT, DB, WEB1, WEB2 = (f"10.77.{NET}.{last}" for last in (1, 2, 3, 4))
FRONT_PORT = 8080

pytestmark = pytest.mark.skipif(shutil.which("nginx") is None or os.geteuid() != 0,
                                reason="needs root (ip netns) and nginx: `make test` installs nginx")


def sh(*argv):
    subprocess.run(argv, check=True, capture_output=True)


def wait_for(address, port, timeout=60.0, proc=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{proc.args[:6]} exited with {proc.returncode}")
        try:
            with socket.create_connection((address, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on {address}:{port}")


def refuses(address, port, timeout=10.0):
    """True once nothing listens on address:port any more (within `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((address, port), timeout=1).close()
        except OSError:
            return True
        time.sleep(0.1)
    return False


class Hosts:
    """A bridge on this machine (the front host: nginx and the browsers, at FRONT) and one
    network namespace per other host, each with its own loopback and one address."""

    def __init__(self):
        self.bridge = f"okbr{NET}"
        self.names = {"db": f"okdb{NET}", "web1": f"okweb1n{NET}", "web2": f"okweb2n{NET}"}
        self.addresses = {"db": DB, "web1": WEB1, "web2": WEB2}

    def up(self):
        self.down()
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        sh("ip", "addr", "add", f"{FRONT}/24", "dev", self.bridge)
        sh("ip", "link", "set", self.bridge, "up")
        for host, ns in self.names.items():
            outside, inside = f"v{NET}{host}", f"v{NET}{host}i"
            sh("ip", "netns", "add", ns)
            sh("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
            sh("ip", "link", "set", inside, "netns", ns)
            sh("ip", "link", "set", outside, "master", self.bridge, "up")
            sh("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
            sh("ip", "netns", "exec", ns, "ip", "addr", "add", f"{self.addresses[host]}/24", "dev", inside)
            sh("ip", "netns", "exec", ns, "ip", "link", "set", inside, "up")

    def run(self, host, argv, log, env=None):
        """Start `argv` on `host` (as root), output to `log`. Returns the Popen."""
        return subprocess.Popen(["ip", "netns", "exec", self.names[host], *argv], cwd=ROOT, env=env,
                                stdout=open(log, "wb"), stderr=subprocess.STDOUT)

    def pids(self, host):
        return subprocess.run(["ip", "netns", "pids", self.names[host]], capture_output=True, text=True).stdout.split()

    def kill(self, host):
        """SIGKILL every process of `host`, as a machine that dies, until none is left (a
        process started meanwhile dies too). Returns how many were killed."""
        killed = set()
        deadline = time.monotonic() + 10
        while (pids := self.pids(host)) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                    killed.add(pid)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)
        return len(killed)

    def down(self):
        for host, ns in self.names.items():
            if subprocess.run(["ip", "netns", "pids", ns], capture_output=True).returncode == 0:
                self.kill(host)
                subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)


def nginx_site(static_root):
    """deploy/nginx.conf with its EDIT lines pointed at this machine's hosts."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    upstream = re.search(r"upstream okeysite_web \{\n((?:    server .*\n)+)", text)
    assert upstream, "deploy/nginx.conf: no upstream block of server lines"
    servers = "".join(f"    server {web}:{port} max_fails=1 fail_timeout=5s;\n"
                      for web in (WEB1, WEB2) for port in (8000, 8001))
    text = text.replace(upstream.group(1), servers)
    for old, new in (("    listen 80;\n", f"    listen {FRONT}:{FRONT_PORT};\n"),
                     ("    server_name okey.example.com;\n", f"    server_name {FRONT};\n"),
                     ("alias /srv/okeysite/staticfiles/;", f"alias {static_root}/;")):
        assert old in text, f"deploy/nginx.conf no longer has {old.strip()!r}"
        text = text.replace(old, new)
    return text


@pytest.fixture
def three_hosts():
    """The three hosts with everything running; yields (site URL, environment, Hosts, run dir)."""
    run = Path(tempfile.mkdtemp(prefix="okeysite-hosts-"))
    run.chmod(0o755)  # the database host's server runs as postgres
    hosts = Hosts()
    procs = []
    try:
        hosts.up()
        # the database host: PostgreSQL and Redis on its address only
        pgdata = run / "pgdata"
        pgdata.mkdir()
        shutil.chown(pgdata, "postgres", "postgres")
        pg_bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))[-1]).parent
        sh("runuser", "-u", "postgres", "--", str(pg_bin / "initdb"), "-D", str(pgdata), "-U", "postgres",
           "-A", "trust", "--no-sync")
        with open(pgdata / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all 10.77.{NET}.0/24 trust\n")
        procs.append(hosts.run("db", ["runuser", "-u", "postgres", "--", str(pg_bin / "postgres"), "-D", str(pgdata),
                                      "-c", f"listen_addresses={DB}", "-c", f"unix_socket_directories={pgdata}",
                                      "-c", "fsync=off", "-c", "synchronous_commit=off"], run / "postgres.log"))
        procs.append(hosts.run("db", ["redis-server", "--bind", DB, "--port", "6379", "--save", "",
                                      "--appendonly", "no", "--protected-mode", "no"], run / "redis.log"))
        wait_for(DB, 5432, proc=procs[0])
        wait_for(DB, 6379, proc=procs[1])
        with psycopg.connect(f"postgres://postgres@{DB}:5432/postgres", autocommit=True) as conn:
            conn.execute('CREATE DATABASE "okeysite"')

        static = run / "static"
        env = site_env(f"redis://{DB}:6379/0", f"postgres://postgres@{DB}:5432/okeysite",
                       ALLOWED_HOSTS=FRONT, OKEY_TRUSTED_PROXY_COUNT="1", OKEY_STATIC_ROOT=str(static),
                       OKEY_SERVE_STATIC="0", OKEY_PORT_PREFIX="800", OKEY_BOT_DELAY="0.05",
                       OKEY_BOT_STEP_DELAY="0.02", OKEY_NEXT_ROUND_DELAY="3", OKEY_SEED_WINDOW="3")
        for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)

        # the web hosts: deploy/supervisord.conf, daphne on the host's own address
        for web in ("web1", "web2"):
            (run / web).mkdir()
            web_env = {**env, "OKEY_RUN_DIR": str(run / web), "OKEY_BIND": hosts.addresses[web]}
            supervisord = [str(BIN / "supervisord"), "-n", "-c", str(ROOT / "deploy" / "supervisord.conf")]
            procs.append(hosts.run(web, supervisord, run / f"{web}-supervisord.out", env=web_env))
        for web in ("web1", "web2"):
            for port in (8000, 8001):
                wait_for(hosts.addresses[web], port, timeout=90)

        # the front host: nginx with deploy/nginx.conf
        (run / "okeysite-nginx.conf").write_text(nginx_site(static))
        (run / "nginx.conf").write_text(
            f"user root;\ndaemon off;\npid {run}/nginx.pid;\nerror_log {run}/nginx-error.log info;\n"
            "events { worker_connections 1024; }\n"
            f"http {{\n  include /etc/nginx/mime.types;\n  access_log {run}/nginx-access.log;\n"
            f"  client_body_temp_path {run}/nginx-body;\n  proxy_temp_path {run}/nginx-proxy;\n"
            f"  include {run}/okeysite-nginx.conf;\n}}\n")
        sh("nginx", "-t", "-c", str(run / "nginx.conf"), "-p", str(run))
        nginx = subprocess.Popen(["nginx", "-c", str(run / "nginx.conf"), "-p", str(run)],
                                 stdout=open(run / "nginx.out", "wb"), stderr=subprocess.STDOUT)
        procs.append(nginx)
        wait_for(FRONT, FRONT_PORT, proc=nginx)
        yield f"http://{FRONT}:{FRONT_PORT}", env, hosts, run
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        hosts.down()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        ARTIFACTS.mkdir(exist_ok=True)
        for log in list(run.glob("*.log")) + list(run.glob("web*/*.log")):
            shutil.copy(log, ARTIFACTS / f"multi-host-{str(log.relative_to(run)).replace('/', '-')}")
        shutil.rmtree(run, ignore_errors=True)


def open_table_sockets(run, web):
    """How many table sockets the daphne processes of `web` accepted and still hold (from
    their access logs)."""
    count = 0
    for log in (run / web).glob("web-*.log"):
        text = log.read_text(errors="replace")
        count += len(re.findall(r'"WSCONNECT /ws/table/', text)) - len(re.findall(r'"WSDISCONNECT /ws/table/', text))
    return count


def manage(env, *args):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def table_state(table):
    """{version, finished, rounds} of `table`, read on the database host directly (fast
    enough to catch a round in the middle)."""
    with psycopg.connect(f"postgres://postgres@{DB}:5432/okeysite", autocommit=True) as conn:
        version = conn.execute("SELECT version FROM games_game WHERE table_id = %s", [table]).fetchone()
        match = conn.execute("SELECT id, finished FROM games_match WHERE table_id = %s", [table]).fetchone()
        rounds = [r for (r,) in conn.execute("SELECT id FROM games_round WHERE match_id = %s ORDER BY index",
                                              [match[0]])] if match else []
    return {"version": version[0] if version else 0, "finished": bool(match and match[1]), "rounds": rounds}


def test_a_match_through_nginx_finishes_on_the_other_host_when_one_dies(browser, three_hosts):
    url, env, hosts, run = three_hosts
    pages = {}
    for name in ("northhost", "southhost"):
        pages[name] = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        register(pages[name], url, name)
    host, guest = pages["northhost"], pages["southhost"]
    # static files come from nginx's disk (collectstatic); no daphne serves them here
    favicon = host.request.get(f"{url}/static/favicon.svg")
    assert favicon.status == 200 and favicon.headers["server"].startswith("nginx")
    assert favicon.body() == (ROOT / "static" / "favicon.svg").read_bytes()

    table = start_online_match(host, guest, "southhost", url, "15")

    # one human move through nginx, then both players let the computer play their seats
    # (as after two timeouts) so that the round ends in seconds
    mover = None
    for _ in range(300):
        mover = next((p for p in pages.values() if p.locator("#turn-status.my-turn").count()), None)
        if mover is not None or table_state(table)["version"] > 2:
            break
        time.sleep(0.05)
    if mover is not None and mover.locator("#discard-btn").count():
        before = table_state(table)["version"]
        mover.locator("#rack .tile").last.click()
        mover.click("#discard-btn")
        for _ in range(100):
            if table_state(table)["version"] > before:
                break
            time.sleep(0.05)
    with psycopg.connect(f"postgres://postgres@{DB}:5432/okeysite", autocommit=True) as conn:
        conn.execute("UPDATE games_seat SET autoplay = true WHERE table_id = %s AND user_id IS NOT NULL", [table])

    # mid-round, a few computer moves later, the web host holding a table socket dies
    base = table_state(table)["version"]
    for _ in range(1200):
        state = table_state(table)
        if state["version"] >= base + 4 or state["finished"]:
            break
        time.sleep(0.05)
    assert not state["finished"], "the round ended before the host could be killed"
    doomed = max(("web1", "web2"), key=lambda web: open_table_sockets(run, web))
    assert open_table_sockets(run, doomed) > 0, "no table socket on either web host"
    killed_at = table_state(table)["version"]
    assert hosts.kill(doomed) >= 4  # supervisord, two daphne, the worker, beat
    # a killed process leaves the namespace's process list a moment before the kernel has
    # closed its last file: its listening socket may answer one more connect
    for port in (8000, 8001):
        assert refuses(hosts.addresses[doomed], port), f"{doomed}:{port} still listens after the kill"

    # the other host plays the match to its end, and the pages follow it through nginx
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        state = table_state(table)
        if state["finished"]:
            break
        time.sleep(0.5)
    assert state["finished"], f"the match did not finish after the kill (version {state['version']})"
    assert state["version"] > killed_at
    for name, page in pages.items():
        expect(page.locator("#match-over")).to_be_visible(timeout=30_000)
        shot(page, f"multi-host-{name}")
    survivor = "web2" if doomed == "web1" else "web1"
    assert open_table_sockets(run, survivor) > 0, "no page reconnected to the surviving host"

    for round_id in state["rounds"]:
        said = manage(env, "verify_round", str(round_id))
        assert said.returncode == 0 and "verified" in said.stdout, said.stdout + said.stderr
    for page in pages.values():
        page.context.close()
