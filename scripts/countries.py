"""Stage 1, countries: places, size classes, compatriot weights and bounds (seating.countries)."""

from seating import io
from seating.countries import compatriot_floor, compatriot_weights, size_classes
from seating.event import CLASS_NAMES, from_config


def main(smk):
    event = from_config(smk.params.event)
    log = io.Log(smk.log[0])
    sizes = event.delegation_sizes
    classes = size_classes(sizes)
    weights = compatriot_weights(sizes)
    floor = compatriot_floor(sizes, event.tables, event.hanchans, event.table_size)
    country = event.country_of
    rows = []
    for p, name in enumerate(event.place_names):
        c = country[p]
        rows.append([name, event.country_codes[c], name.split()[-1], sizes[c],
                     CLASS_NAMES[classes[c]], f"{weights[c]:.4f}"])
    io.write_rows(smk.output.places,
                  ["place", "country", "number", "delegation", "size_class", "compatriot_weight"],
                  rows)
    summary = {
        "players": event.players,
        "tables": event.tables,
        "countries": len(sizes),
        "size_classes": {CLASS_NAMES[k]: {"countries": int((classes == k).sum()),
                                          "players": int(sizes[classes == k].sum())}
                         for k in range(3)},
        "compatriot_meetings_bound": {event.country_codes[c]: int(floor[c])
                                      for c in range(len(sizes)) if floor[c]},
    }
    io.write_json(smk.output.summary, summary)
    log(f"countries: {event.players} places in {len(sizes)} delegations, "
        f"{event.tables} tables; classes "
        + ", ".join(f"{k} {v['players']}" for k, v in summary["size_classes"].items()))


io.run_stage(main, snakemake)  # noqa: F821
