"""The readable tables of ``python -m bench.live_tables`` (the JSON file has every figure)."""
from __future__ import annotations


def _ms(summary: dict, key: str) -> str:
    value = summary.get(key)
    return "-" if value is None else (f"{value:,.0f}" if value >= 100 else f"{value:.1f}")


def _pair(summary: dict) -> str:
    return f"{_ms(summary, 'p50')} / {_ms(summary, 'p99')}"


def _ratio(value) -> str:
    return "-" if value is None else f"{value:,.1f}x"


def _counts(counter: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items(), key=lambda kv: -kv[1])) or "none"


def _machine(meter: dict) -> str:
    load0 = " ".join(f"{x:.2f}" for x in meter["loadavg_start"])
    load1 = " ".join(f"{x:.2f}" for x in meter["loadavg_end"])
    return (f"machine: loadavg {load0} -> {load1}; all processes busy {meter['machine_busy_percent']:.0f} % "
            f"of {100 * meter['cores']} %")


def _processes(title: str, meter: dict) -> list[str]:
    lines = [f"  {title:<40} {'cpu %':>7} {'rss MB':>8} {'peak':>8}"]
    for name, p in meter["processes"].items():
        lines.append(f"  {name:<40} {p['cpu_percent']:>7.1f} {p['rss_mb']:>8.1f} {p['peak_rss_mb']:>8.1f}")
    return lines


def tables_block(r: dict) -> str:
    """One K's figures as text."""
    p, b = r["product"], r.get("bare")
    lat, blat = p["latency"], (b["latency"] if b else {})
    lines = [f"== {r['mode']} · K={r['tables']} tables x H={r['humans']} humans · pace {r['pace']} · "
             f"{r['seconds']:.0f} s window after {r['warmup']:.0f} s warm-up · {', '.join(r['rulesets'])} ==",
             _machine(p["meter"]),
             f"  {'latency (ms)':<34} {'product p50 / p99':>18} {'bare p50 / p99':>16} {'product/bare p50 / p99':>24}"]
    names = {"ack": "action -> ack", "own": "action -> own snapshot", "others": "action -> other humans' snapshot"}
    for key, label in names.items():
        ratio = r["ratios"].get(key, {})
        lines.append(f"  {label:<34} {_pair(lat[key]):>18} {_pair(blat.get(key, {})):>16} "
                     f"{_ratio(ratio.get('p50')) + ' / ' + _ratio(ratio.get('p99')):>24}")
    t = p["throughput"]
    lines.append(f"  throughput: {t['versions_per_s']:,.1f} versions/s seen ({t['versions_advanced_per_s']:,.1f} "
                 f"advanced), {t['snapshots_per_s']:,.1f} snapshots/s, {t['actions_per_s']:,.1f} actions/s acked "
                 f"({t['actions_sent_per_s']:,.1f} sent), {t['http_requests_per_s']:,.1f} page requests/s; "
                 f"{lat['acked']} actions measured "
                 f"({lat['refused']} refused, {lat['unanswered']} unanswered), samples: others "
                 f"{lat['others']['n']}, lost snapshots {lat['lost']}")
    if b:
        bt = b["throughput"]
        lines.append(f"  bare load: {b['rate_per_table']:.2f} frames/s per table of {b['size']} bytes -> "
                     f"{bt['snapshots_per_s']:,.1f} snapshots/s; lost {blat['lost']}; closes {_counts(b['closes'])}")
    e = p["events"]
    lines.append(f"  tables: started {e.get('tables_started', 0)}, matches finished {e.get('tables_finished', 0)}, "
                 f"stalled {e.get('tables_stalled', 0)}, lost socket {e.get('tables_lost_socket', 0)}; "
                 f"reconnects {e.get('reconnects', 0)}; set-up {p['setup_seconds']:.1f} s; "
                 f"set-up failures: {_counts(p['setup_failures'])}")
    lines.append(f"  error frames: {_counts(p['errors'])}; unexpected closes: {_counts(p['closes'])}")
    lines.append(f"  median snapshot {p['snapshot_bytes']} bytes; load-generator loop lag p50/p99 "
                 f"{_pair(p['loop_lag'])} ms (bare run {_pair(b['loop_lag']) if b else '-'} ms)")
    db = p.get("database")
    if db:
        versions = t["versions_advanced_per_s"] or 0
        per_version = f" ({db['xact_commit_per_s'] / versions:.1f} per version)" if versions else ""
        lines.append(f"  database: {db['xact_commit_per_s']:,.1f} commits/s{per_version}, "
                     f"{db['tup_returned_per_s']:,.0f} rows returned/s; this run's share of the server's "
                     f"commits {100 * (db['share_of_server_xact'] or 0):.0f} % (the postgres CPU row counts all)")
    cost = r.get("cpu_per_version")
    if cost:
        floor = (f"; floor {cost['floor_ms']:.2f} ms (bench.floor, this run) -> "
                 f"{cost['ratio_to_floor']:.2f}x the floor" if "floor_ms" in cost else "; no floor measured (--floor)")
        lines.append(f"  CPU per version: {cost['total_ms']:.2f} ms (servers {cost['servers_ms']:.2f}, this database's "
                     f"backends {cost['db_ms']:.2f}, redis {cost['redis_ms']:.2f}){floor}")
    if p["exited"]:
        lines.append(f"  PROCESSES THAT EXITED DURING THE RUN: {', '.join(p['exited'])}")
    lines += _processes("processes, product window", p["meter"])
    if b:
        lines += _processes("processes, bare window", b["meter"])
        lines.append("  " + _machine(b["meter"]))
    return "\n".join(lines)


def lobby_block(r: dict) -> str:
    """One lobby size's figures as text."""
    lines = [f"== {r['mode']} · lobby: {r['sockets']} sockets ({r['connected']} got the first list, "
             f"connected one after the other in {r.get('connect_seconds', 0):.1f} s, "
             f"{r.get('connect_server_cpu_ms_per_socket', 0):.2f} ms of server CPU each) · "
             f"{len(r['changes'])} changes ==", _machine(r["meter"]),
             f"  change reaches a socket, p50 / p99: {_pair(r['per_socket'])} ms; reaches every socket "
             f"(per change) p50 / p99: {_pair(r['all_sockets'])} ms; missing {r['missing']}"]
    lines.append(f"  {'change':<8} {'table':>6} {'POST ms':>8} {'socket p50':>11} {'p99':>8} {'all ms':>8} "
                 f"{'xact_commit':>12} {'tup_returned':>13}")
    for c in r["changes"]:
        pg = c["pg"] or {}
        lines.append(f"  {c['kind']:<8} {c['table']:>6} {c['post_ms']:>8.1f} {_ms(c['per_socket'], 'p50'):>11} "
                     f"{_ms(c['per_socket'], 'p99'):>8} {c['all_ms'] if c['all_ms'] is not None else '-':>8} "
                     f"{pg.get('xact_commit', '-'):>12} {pg.get('tup_returned', '-'):>13}")
    if r["xact_commit_per_change"] is None:
        lines.append("  (database work: SQLite has no counters; run with --db postgres)")
    lines += _processes("processes", r["meter"])
    return "\n".join(lines)
