"""Z-cyclic whist seeds: check every seeds/whist/<P>.txt, rebuild those a construction
reaches, write one table (seating.whist)."""

from seating import io, whist


def main(smk):
    log = io.Log(smk.log[0])
    rows = whist.seed_table(list(smk.input.seeds), smk.params.build_seconds)
    io.write_json(smk.output.json, rows)
    io.write_rows(
        smk.output.csv,
        list(whist.TABLE_COLUMNS),
        [[row[c] for c in whist.TABLE_COLUMNS] for row in rows],
    )
    io.write_text(smk.output.html, whist.seed_table_html(rows))
    good = sum(row["check"] == "valid" for row in rows)
    log(
        f"whist seeds: {good} of {len(rows)} valid; "
        f"{sum(row['rebuilt'] == 'valid' for row in rows)} rebuilt by a construction or the search"
    )


io.run_stage(main, snakemake)  # noqa: F821
