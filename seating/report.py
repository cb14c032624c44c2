"""The check report: every rule with target, achieved value, bound and worst players, plus
pictures as inline SVG (meeting matrix, winds and areas per player, countries met).

All text that comes from the organizer (event, country, area and place names) is escaped:
the template is rendered with autoescape, and the SVG builders escape their labels.
"""

from __future__ import annotations

from html import escape

import jinja2
import numpy as np

from .event import WIND_NAMES, Event

WIND_COLOURS = {"E": "#d62728", "S": "#2ca02c", "W": "#1f77b4", "N": "#9467bd"}
AREA_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
                "#ff9da7", "#9c755f", "#bab0ac"]


def _rects(cells: dict[str, list[tuple[float, float, float, float]]]) -> str:
    """One <path> per colour, made of rectangles (x, y, w, h): compact for big grids."""
    parts = []
    for colour, boxes in cells.items():
        if boxes:
            d = "".join(f"M{x:g} {y:g}h{w:g}v{h:g}h{-w:g}z" for x, y, w, h in boxes)
            parts.append(f'<path fill="{colour}" d="{d}"/>')
    return "".join(parts)


def meeting_matrix_svg(event: Event, meet: np.ndarray, common: np.ndarray) -> str:
    """Players in country order; a cell per pair, grid lines between delegations."""
    P = event.players
    cell = max(1.0, min(4.0, 640.0 / P))
    margin = 40
    size = P * cell
    country = event.country_of
    compat = country[:, None] == country[None, :]
    cats = {
        "#1b7837": (meet == 1) & ~compat,
        "#d73027": meet >= 2,
        "#fdae61": (meet > 0) & compat & (meet < 2),
        "#f6e8c3": (meet == 0) & ~compat & (common <= 2),
        "#c7eae5": (meet == 0) & ~compat & (common > 2),
        "#bdbdbd": (meet == 0) & compat,
    }
    cells = {}
    for colour, mask in cats.items():
        np.fill_diagonal(mask, False)
        ys, xs = np.nonzero(mask)
        cells[colour] = [(margin + x * cell, margin + y * cell, cell, cell) for x, y in zip(xs, ys)]
    lines = []
    labels = []
    start = 0
    for code, n in event.countries:
        pos = margin + start * cell
        lines.append(f"M{pos:g} {margin}v{size:g}M{margin} {pos:g}h{size:g}")
        if n * cell >= 7:
            mid = margin + (start + n / 2) * cell
            labels.append(f'<text x="{margin - 3}" y="{mid + 3:g}" text-anchor="end" '
                          f'font-size="8">{escape(code)}</text>')
        start += n
    width = margin + size + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{width:g}" '
            f'viewBox="0 0 {width:g} {width:g}" role="img" aria-label="meeting matrix">'
            + _rects(cells)
            + f'<path stroke="#555" stroke-width="0.4" fill="none" d="{"".join(lines)}"/>'
            + "".join(labels) + "</svg>")


def strips_svg(event: Event, values: np.ndarray, colours: dict[int, str], days: bool = True,
               label_every: int = 1) -> str:
    """One row per player, one cell per hanchan, coloured by value; day breaks marked."""
    P, H = values.shape
    cw, ch = 14, 6
    left = 60
    top = 14
    cells: dict[str, list] = {c: [] for c in colours.values()}
    for p in range(P):
        for h in range(H):
            colour = colours.get(int(values[p, h]))
            if colour:
                cells[colour].append((left + h * cw, top + p * ch, cw - 1, ch - 1))
    names = event.place_names
    text = [f'<text x="{left - 3}" y="{top + p * ch + ch - 1}" text-anchor="end" '
            f'font-size="6">{escape(names[p])}</text>' for p in range(0, P, label_every)]
    heads = [f'<text x="{left + h * cw + cw / 2:g}" y="{top - 4}" text-anchor="middle" '
             f'font-size="7">{h + 1}</text>' for h in range(H)]
    breaks = []
    if days:
        at = 0
        for d in event.days[:-1]:
            at += d
            x = left + at * cw - 0.5
            breaks.append(f"M{x:g} {top - 2}v{P * ch + 2}")
    width = left + H * cw + 10
    height = top + P * ch + 6
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img">' + _rects(cells)
            + f'<path stroke="#000" stroke-width="1" d="{"".join(breaks)}"/>'
            + "".join(heads) + "".join(text) + "</svg>")


def countries_svg(event: Event, met: np.ndarray, target: int | None) -> str:
    """Countries met per player as bars, players in country order, with the target line."""
    P = len(met)
    bw = max(1.0, min(6.0, 720.0 / P))
    top, height, left = 10, 160, 30
    peak = max(int(met.max()), target or 0, 1)
    scale = height / peak
    bars = [(left + p * bw, top + height - met[p] * scale, max(bw - 0.3, 0.5), met[p] * scale)
            for p in range(P)]
    low = int(met.min())
    cells = {"#4e79a7": [b for b, m in zip(bars, met) if m > low],
             "#e15759": [b for b, m in zip(bars, met) if m == low]}
    ticks = "".join(
        f'<text x="{left - 3}" y="{top + height - v * scale + 3:g}" text-anchor="end" '
        f'font-size="8">{v}</text>' for v in range(0, peak + 1, max(1, peak // 5)))
    line = ""
    if target:
        y = top + height - target * scale
        line = (f'<path stroke="#000" stroke-dasharray="3 2" d="M{left} {y:g}h{P * bw:g}"/>'
                f'<text x="{left + P * bw + 2:g}" y="{y + 3:g}" font-size="8">target {target}'
                "</text>")
    width = left + P * bw + 60
    full = top + height + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{full}"'
            f' viewBox="0 0 {width:g} {full}" role="img">' + _rects(cells) + ticks
            + line + "</svg>")


def _rules(event: Event, f: dict, targets: dict) -> list[dict]:
    """The rows of the rules table: spec wording, target, achieved, bound, verdict."""
    def row(section, rule, key, target, achieved, bound="", ok=None, worst=""):
        return {"section": section, "rule": rule, "key": key, "target": target,
                "achieved": achieved, "bound": bound,
                "ok": ok if ok is not None else achieved == target, "worst": worst}

    worst = f["worst"]
    fmt = "; ".join
    rows = [
        row("Who you play against", "Never the same opponent twice", "repeat_meetings", 0,
            f["repeat_meetings"], f["repeat_meetings_bound"],
            f["repeat_meetings"] <= f["repeat_meetings_bound"]),
        row("Who you play against", "Meetings spread evenly over the pairs (when repeats are "
            "unavoidable)", "pairs_outside_fair",
            f"0 pairs outside {f['pair_meetings_fair'][0]}–{f['pair_meetings_fair'][1]} "
            "meetings", f"{f['pairs_outside_fair']} pairs outside (pairs meet "
            f"{f['pair_meetings_min']}–{f['repeat_pairs_max_meetings']} times)",
            "", f["pairs_outside_fair"] == 0),
        row("Who you play against", "No compatriots at your table", "compatriot_meetings",
            f["compatriot_meetings_bound"], f["compatriot_meetings"],
            f["compatriot_meetings_bound"],
            f["compatriot_meetings"] <= f["compatriot_meetings_bound"],
            fmt(f"{c} {v['meetings']} (bound {v['bound']})"
                for c, v in f["compatriot_meetings_by_country"].items())),
        row("Who you play against", "A common opponent with everyone you never meet",
            "unlinked_pairs", 0, f["unlinked_pairs"],
            f["unlinked_pairs_bound"], f["unlinked_pairs"] <= f["unlinked_pairs_bound"]),
        row("Who you play against", "Fewest common opponents of a pair that never meets",
            "indirect_min", f"≥ {targets.get('indirect', 1)}",
            "–" if f["indirect_min"] is None else f"{f['indirect_min']} "
            f"({f['indirect_min_pairs']} pairs)",
            f"≤ {f['indirect_ceiling']}",
            f["indirect_min"] is None or f["indirect_min"] >= targets.get("indirect", 1),
            fmt(f"{a}–{b}: {c}" for a, b, c in worst["indirect"])),
        row("Who you play against", "As many countries as possible, worst-off first",
            "countries_met_min", f"≥ {targets.get('countries', 0)}",
            f"min {f['countries_met_min']}, mean {f['countries_met_mean']}, "
            f"max {f['countries_met_max']}",
            f"mean ≤ {f['countries_met_mean_ceiling']}",
            f["countries_met_min"] >= targets.get("countries", 0),
            fmt(f"{n}: {v}" for n, v in worst["countries_met"])),
        row("Who you play against", "A fair small/medium/large mix every day",
            "day_mix_max_excess", "0 outside [floor, ceil] of the fair share",
            f"{f['day_mix_outside']} counts outside, {f['day_mix_two_off']} of them 2 or more off, "
            f"at most {f['day_mix_max_excess']} off",
            "", f["day_mix_outside"] == 0),
        row("Who you play against", "Over the event the mix evens out", "total_mix_max_excess",
            "0 outside [floor, ceil] of the fair share",
            f"{f['total_mix_outside']} counts outside, {f['total_mix_two_off']} of them 2 or more "
            f"off, at most {f['total_mix_max_excess']} off",
            "", f["total_mix_outside"] == 0),
        row("Who you play against", "Not the same country in two consecutive hanchans",
            "back_to_back_country", f["back_to_back_country_bound"], f["back_to_back_country"],
            f["back_to_back_country_bound"],
            f["back_to_back_country"] <= f["back_to_back_country_bound"],
            fmt(f"{n}: {v}" for n, v in worst["back_to_back_country"] if v)),
    ]
    if f.get("wind_count_bad") is not None:
        k = event.table_size  # as many winds as seats (E S W at tables of 3)
        counts = f"Each wind ⌊h/{k}⌋ or ⌈h/{k}⌉ times" + (", E+S and W+N within 1" if k == 4
                                                          else "")
        rows += [
            row("Your starting wind", counts, "wind_count_bad", 0, f["wind_count_bad"]),
            row("Your starting wind", "Every day balanced", "day_wind_bad", 0, f["day_wind_bad"]),
            row("Your starting wind", "Not the same wind in consecutive hanchans",
                "consecutive_same_wind", 0, f["consecutive_same_wind"]),
            row("Your starting wind",
                f"Fair at every cut: counts within 1 after each hanchan not a multiple of {k}",
                "prefix_wind_bad", 0, f["prefix_wind_bad"]),
            row("Your starting wind", "Winds spread out (same wind two hanchans apart)",
                "wind_two_apart", "few", f["wind_two_apart"], "", True),
        ]
    rows += [
        row("Where you sit", "A different table in every hanchan", "table_repeats",
            f["table_repeats_bound"], f["table_repeats"], f["table_repeats_bound"],
            f["table_repeats"] <= f["table_repeats_bound"],
            fmt(f"{n}: {v}" for n, v in worst["table_repeats"] if v)),
        row("Where you sit", "Each area in proportion to its size over the event",
            "area_max_deviation", "< 1", f["area_max_deviation"],
            f["area_max_deviation_bound"], f["area_max_deviation"] < 1),
        row("Where you sit", "… and, as far as possible, on each day", "area_day_max_deviation",
            "< 1", f["area_day_max_deviation"], "", f["area_day_max_deviation"] < 1),
        row("Where you sit", "… counts off a day's share (player, day, area)",
            "area_day_outside", 0, f["area_day_outside"], "", f["area_day_outside"] == 0,
            fmt(f"{n}: {v}" for n, v in worst["area_day_outside"] if v)),
        row("Where you sit", "A different area from one hanchan to the next where possible",
            "consecutive_same_area", f"≈ {f['consecutive_same_area_bound']}",
            f["consecutive_same_area"], f"≥ {f['consecutive_same_area_bound']}",
            f["consecutive_same_area"] <= f["consecutive_same_area_bound"]),
    ]
    return rows


def render(event: Event, seating: np.ndarray, figures: dict, template: str,
           targets: dict | None = None, extra: dict | None = None,
           runs: dict | None = None) -> str:
    """The report as one self-contained HTML page.

    runs: the goals stage's summary of independent searches (shown when there are several).
    """
    from .check import meetings

    targets = targets or {}
    meet = meetings(seating, event.players)
    adj = (meet > 0).astype(np.int64)
    common = adj @ adj
    pictures = {"matrix": meeting_matrix_svg(event, meet, common)}
    if figures.get("_winds") is not None:
        colours = {i: WIND_COLOURS[w] for i, w in enumerate(WIND_NAMES[: event.table_size])}
        pictures["winds"] = strips_svg(event, figures["_winds"], colours)
    area_colours = {a: AREA_COLOURS[a % len(AREA_COLOURS)] for a in range(len(event.areas))}
    pictures["areas"] = strips_svg(event, figures["_area"], area_colours)
    pictures["countries"] = countries_svg(event, figures["_met_countries"],
                                          targets.get("countries"))
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    page = env.from_string(template)
    return page.render(
        event=event,
        f=figures,
        rules=_rules(event, figures, targets),
        pictures={k: jinja2.utils.markupsafe.Markup(v) for k, v in pictures.items()},
        wind_colours=WIND_COLOURS,
        area_legend=[(name, area_colours[a]) for a, name in enumerate(event.area_names)],
        extra=extra or {},
        runs=runs if runs and len(runs.get("runs", [])) > 1 else None,
    )
