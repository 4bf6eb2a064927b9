"""CPU and memory of processes from /proc (no psutil): process trees, servers found by
name, the whole machine.

CPU is counted in clock ticks of user + system time. A process tree's figure is the root's
own time, its reaped children's time (``cutime``/``cstime``) and every live descendant's
time, so the prefork children of a Celery worker count, and PostgreSQL backends that have
exited are still in the postmaster's ``cutime``. CPU % is per core (200 % = both cores of
a 2-core machine).
"""
from __future__ import annotations

import asyncio
import os
import time

_TICK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            text = fh.read()
    except OSError:
        return None
    # the command name is in parentheses and may contain spaces: split after it
    end = text.rfind(")")
    return [text[text.find("(") + 1:end]] + text[end + 2:].split()


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields:
                kids.setdefault(int(fields[2]), []).append(int(name))  # field 4 of stat: ppid
    return kids


def _tree(root: int, kids: dict[int, list[int]]) -> list[int]:
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def tree_usage(root: int, kids: dict[int, list[int]] | None = None) -> tuple[float, int]:
    """``(cpu_seconds, rss_bytes)`` of ``root`` and its descendants now: CPU since each
    started (reaped children included), resident memory summed. (0, 0) if ``root`` is gone."""
    kids = _children_map() if kids is None else kids
    ticks, rss = 0, 0
    # this process is the parent of every server it started: count only its own time
    pids = [root] if root == os.getpid() else _tree(root, kids)
    for pid in pids:
        fields = _stat(pid)
        if not fields:
            continue
        # stat fields 14-17: utime stime cutime cstime. A live child is counted by its own
        # times and a reaped one in its parent's cutime/cstime, so nothing counts twice.
        ticks += int(fields[12]) + int(fields[13])
        if pid != os.getpid():
            ticks += int(fields[14]) + int(fields[15])
        rss += int(fields[22]) * _PAGE  # field 24: rss in pages
    return ticks / _TICK, rss


def pids_named(command: str) -> list[int]:
    """Pids whose command name (``/proc/PID/stat`` comm) is ``command`` and whose parent is
    not also called so: the roots of e.g. the ``postgres`` or ``redis-server`` trees."""
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields and fields[0] == command:
                found[int(name)] = int(fields[2])
    return [pid for pid, parent in found.items() if parent not in found]


def machine_ticks() -> tuple[int, int]:
    """``(busy, total)`` CPU ticks of the whole machine since boot (/proc/stat)."""
    with open("/proc/stat") as fh:
        values = [int(v) for v in fh.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return sum(values) - idle, sum(values)


def loadavg() -> list[float]:
    """The 1, 5 and 15-minute load averages."""
    with open("/proc/loadavg") as fh:
        return [float(v) for v in fh.read().split()[:3]]


class Meter:
    """Measures named process trees over a window: ``start()``, ``sample()`` now and then
    (peak RSS), ``stop()``; then ``report()`` gives per name cpu %, cpu seconds, RSS and peak
    RSS (MB), and the machine's busy % and load averages."""

    def __init__(self, roots: dict[str, int]):
        self.roots = dict(roots)
        self.first: dict[str, float] = {}
        self.last: dict[str, float] = {}
        self.rss: dict[str, int] = {}
        self.peak: dict[str, int] = {}
        self.t0 = self.t1 = 0.0
        self.machine0 = self.machine1 = (0, 0)
        self.load0: list[float] = []
        self.load1: list[float] = []

    def _read(self) -> dict[str, tuple[float, int]]:
        kids = _children_map()
        return {name: tree_usage(pid, kids) for name, pid in self.roots.items()}

    def start(self) -> None:
        self.t0 = time.monotonic()
        self.machine0 = machine_ticks()
        self.load0 = loadavg()
        for name, (cpu, rss) in self._read().items():
            self.first[name] = self.last[name] = cpu
            self.rss[name] = self.peak[name] = rss

    def sample(self) -> None:
        for name, (cpu, rss) in self._read().items():
            if rss:
                self.last[name] = max(self.last.get(name, 0.0), cpu)
                self.rss[name] = rss
                self.peak[name] = max(self.peak.get(name, 0), rss)

    def stop(self) -> None:
        self.sample()
        self.t1 = time.monotonic()
        self.machine1 = machine_ticks()
        self.load1 = loadavg()

    def report(self) -> dict:
        wall = max(self.t1 - self.t0, 1e-9)
        procs = {}
        for name in self.roots:
            cpu = self.last.get(name, 0.0) - self.first.get(name, 0.0)
            procs[name] = {"cpu_percent": round(100.0 * cpu / wall, 1), "cpu_seconds": round(cpu, 2),
                           "rss_mb": round(self.rss.get(name, 0) / 2**20, 1),
                           "peak_rss_mb": round(self.peak.get(name, 0) / 2**20, 1)}
        busy = self.machine1[0] - self.machine0[0]
        total = max(self.machine1[1] - self.machine0[1], 1)
        return {"seconds": round(wall, 2), "processes": procs,
                "machine_busy_percent": round(100.0 * busy / total * (os.cpu_count() or 1), 1),
                "cores": os.cpu_count(), "loadavg_start": self.load0, "loadavg_end": self.load1}


async def hold_window(meter: Meter, seconds: float) -> tuple[float, float]:
    """Hold a measurement window of ``seconds``: start ``meter``, sample it every second,
    stop it. Returns the window's ``(start, end)`` in ``time.perf_counter`` seconds."""
    meter.start()
    start = time.perf_counter()
    end = start + seconds
    while True:
        left = end - time.perf_counter()
        if left <= 0:
            break
        await asyncio.sleep(min(1.0, left))
        await asyncio.to_thread(meter.sample)  # reading /proc takes milliseconds: off the loop
    end = time.perf_counter()
    meter.stop()
    return start, end
