"""Rating-over-time chart as an inline SVG (no JavaScript, no image library).

`rating_svg(series)` draws one line per ruleset. Text inside the SVG is escaped.
"""
from django.utils.html import escape

from games.models import ruleset_name

COLOURS = {"okey51": "#1f6f43", "okey17": "#b0452b", "rami": "#2b5fb0"}
WIDTH, HEIGHT, PAD = 640, 220, 36


def rating_svg(series, title=""):
    """SVG markup (str) of ratings over time.

    Args: `series` — {ruleset: [(datetime, rating int points), ...]} oldest first; a series
    starts at the rating before the first match. `title` — accessible title text.
    Returns "" when no series has two points (nothing to draw).
    """
    series = {k: v for k, v in series.items() if len(v) >= 2}
    if not series:
        return ""
    times = [t.timestamp() for points in series.values() for t, _v in points]
    values = [v for points in series.values() for _t, v in points]
    t0, t1 = min(times), max(times)
    lo, hi = min(values), max(values)
    if hi - lo < 20:
        lo, hi = lo - 10, hi + 10
    span_t = (t1 - t0) or 1.0

    def x(index, count, when):
        # Evenly spaced by match when all happened in the same instant (tests, imports).
        if t1 == t0:
            return PAD + (WIDTH - 2 * PAD) * index / max(1, count - 1)
        return PAD + (WIDTH - 2 * PAD) * (when.timestamp() - t0) / span_t

    def y(value):
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - lo) / (hi - lo)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fbfcfb" stroke="#d8dfd9"/>',
    ]
    for value in (lo, (lo + hi) / 2, hi):
        yy = y(value)
        parts.append(f'<line x1="{PAD}" y1="{yy:.1f}" x2="{WIDTH - PAD}" y2="{yy:.1f}" stroke="#e3e8e4"/>')
        parts.append(f'<text x="4" y="{yy + 4:.1f}" font-size="11" fill="#5b6b60">{round(value)}</text>')
    legend_x = PAD
    for ruleset, points in sorted(series.items()):
        colour = COLOURS.get(ruleset, "#444")
        coords = " ".join(f"{x(i, len(points), t):.1f},{y(v):.1f}" for i, (t, v) in enumerate(points))
        parts.append(f'<polyline class="series-{escape(ruleset)}" fill="none" stroke="{colour}" '
                     f'stroke-width="2.5" points="{coords}"/>')
        last_t, last_v = points[-1]
        parts.append(f'<circle cx="{x(len(points) - 1, len(points), last_t):.1f}" cy="{y(last_v):.1f}" r="3.5" '
                     f'fill="{colour}"/>')
        parts.append(f'<rect x="{legend_x}" y="8" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{legend_x + 16}" y="18" font-size="12" fill="#222">'
                     f'{escape(ruleset_name(ruleset))}</text>')
        legend_x += 90
    parts.append("</svg>")
    return "".join(parts)
