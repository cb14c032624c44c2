"""Reading and writing the files that pass between stages (CSV, JSON), atomically.

Every writer writes to a temporary file in the same folder and renames it into place, so a
killed run never leaves a half-written file under its final name.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from .event import WIND_NAMES, Event


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def load_yaml(text: str):
    """yaml.safe_load, but a key given twice in one mapping is a YAML error naming its line
    (yaml.safe_load and Snakemake keep the last one silently). Merge keys (<<) may still be
    overridden, as YAML means them."""
    import yaml

    class Strict(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            seen = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=deep)
                if isinstance(key, (str, int, float, bool)) or key is None:
                    if (type(key), key) in seen:  # 1 and True are different keys
                        raise yaml.constructor.ConstructorError(
                            None, None, f"key {key!r} is given twice", key_node.start_mark)
                    seen.add((type(key), key))
            return super().construct_mapping(node, deep=deep)

    return yaml.load(text, Loader=Strict)


class KeyGivenTwice(Exception):
    """A key given twice in one JSON object (not a ValueError, which means 'not JSON')."""


def _no_twice(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    twice = sorted({str(k) for k in keys if keys.count(k) > 1})
    if twice:
        raise KeyGivenTwice(f"key {twice[0]!r} is given twice")
    return dict(pairs)


def load_config(text: str):
    """An event file's text as Snakemake reads it (JSON first, else YAML), but a key given
    twice is refused: KeyGivenTwice (JSON) or a yaml.YAMLError naming its line."""
    try:
        return json.loads(text, object_pairs_hook=_no_twice)
    except ValueError:
        return load_yaml(text)


def one_line(error: Exception) -> str:
    """An input file's error as one line: where a YAML mistake is, what bytes are not UTF-8."""
    if isinstance(error, UnicodeDecodeError):
        return (f"not UTF-8 text (byte 0x{error.object[error.start]:02x} at byte "
                f"{error.start + 1}); save the file as UTF-8")
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None)
    if mark is not None and problem:
        return f"line {mark.line + 1}, column {mark.column + 1}: not valid YAML: {problem}"
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def write_text(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: str | Path, data) -> None:
    write_text(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def read_json(path: str | Path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_rows(path: str | Path, header: list[str], rows) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    write_text(path, buf.getvalue())


def read_rows(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# ---- places ---------------------------------------------------------------------------


def place_index(event: Event) -> dict[str, int]:
    return {name: i for i, name in enumerate(event.place_names)}


# ---- groups: plan[hanchan, group, seat] ----------------------------------------------


def write_groups(path, event: Event, plan: np.ndarray) -> None:
    """One row per place per hanchan: hanchan,group,seat,place (seat = planned wind)."""
    names = event.place_names
    winds = event.wind_names
    H, G, S = plan.shape
    rows = (
        (h + 1, g + 1, winds[s] if S <= len(winds) else s + 1, names[plan[h, g, s]])
        for h in range(H)
        for g in range(G)
        for s in range(S)
    )
    write_rows(path, ["hanchan", "group", "seat", "place"], rows)


def read_groups(path, event: Event) -> np.ndarray:
    index = place_index(event)
    winds = event.wind_names
    plan = np.full((event.hanchans, event.tables, event.table_size), -1, dtype=np.int64)
    for row in read_rows(path):
        seat = row["seat"]
        s = winds.index(seat) if seat in winds else int(seat) - 1
        plan[int(row["hanchan"]) - 1, int(row["group"]) - 1, s] = index[row["place"]]
    if (plan < 0).any():
        raise ValueError(f"{path}: some seats are empty")
    return plan


def keys_of(plan: np.ndarray) -> np.ndarray:
    """Seat key of every place in every hanchan: its seat index (the planned wind)."""
    H, G, S = plan.shape
    keys = np.empty((H, G * S), dtype=np.int64)
    for s in range(S):
        keys[np.arange(H)[:, None], plan[:, :, s]] = s
    return keys


# ---- seating: the published format ----------------------------------------------------

SEATING_HEADER = ["hanchan", "table", "wind", "place", "country", "area", "day"]


def write_seating(path, event: Event, seating: np.ndarray) -> None:
    """seating[hanchan, table, wind] = place; rows ordered by hanchan, table, wind."""
    names = event.place_names
    country_at = event.country_at
    codes = event.country_codes
    area_at = event.area_at
    areas = event.area_names
    day_of = event.day_of
    winds = event.wind_names
    H, T, S = seating.shape
    rows = (
        (h + 1, t + 1, winds[w], names[p], codes[country_at[h, p]], areas[area_at[h, t]],
         day_of[h] + 1)
        for h in range(H)
        for t in range(T)
        for w in range(S)
        for p in [seating[h, t, w]]
    )
    write_rows(path, SEATING_HEADER, rows)


def read_seating(path, event: Event) -> np.ndarray:
    index = place_index(event)
    seating = np.full((event.hanchans, event.tables, event.table_size), -1, dtype=np.int64)
    for row in read_rows(path):
        seating[int(row["hanchan"]) - 1, int(row["table"]) - 1,
                WIND_NAMES.index(row["wind"])] = index[row["place"]]
    if (seating < 0).any():
        raise ValueError(f"{path}: some seats are empty")
    return seating


def run_stage(main, smk) -> None:
    """Run a stage script's main(smk), then end the process at once.

    Every output is already written and renamed into place (write_text closes each file),
    so the interpreter's teardown is skipped: with numba and scipy loaded it takes 0.2-0.4 s,
    paid by each of the ten jobs of a run. An error raised by main ends the process as usual
    (traceback, exit status 1).
    """
    import sys

    main(smk)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


class Log:
    """Progress lines for a stage: to its log file and to the terminal."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text("", encoding="utf-8")

    def __call__(self, line: str) -> None:
        import sys

        print(line, file=sys.stderr, flush=True)
        if self.path:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
