#!/usr/bin/env bash
# Render the published pages as a person sees them, with headless Chromium (Debian: chromium).
#
#   benchmarks/screenshot.sh results/<event> [out-dir]
#
# Writes <page>.png (the top of the page on screen, A4-wide) and <page>.pdf (every printed A4
# page) for chart.html, tables.html and, after a draw, cards.html and tables-names.html, into
# out-dir (default: results/<event>/screenshots). PAGES="chart cards" limits the pages.
# Exits 3 when Chromium is not installed.
set -euo pipefail

results=${1:?usage: benchmarks/screenshot.sh results/<event> [out-dir]}
out=${2:-$results/screenshots}
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [[ -z $browser ]]; then
    echo "screenshot: Chromium not found (apt-get install chromium)" >&2
    exit 3
fi
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

render() {  # render <page> <flag...>
    local page=$1
    shift
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --hide-scrollbars "$@" "file://$(realpath "$results/$page.html")" >/dev/null 2>&1
}

for page in ${PAGES:-chart tables cards tables-names}; do
    [[ -f $results/$page.html ]] || continue
    render "$page" --window-size=900,1270 --screenshot="$(realpath "$out")/$page.png"
    render "$page" --no-pdf-header-footer --print-to-pdf="$(realpath "$out")/$page.pdf"
    echo "screenshot: $out/$page.png $out/$page.pdf"
done
