// Drive headless Debian Chromium (via puppeteer-core) to load a Chrome
// trace-event JSON in the offline Perfetto UI and take a screenshot.
// usage: node perfetto_shot.js URL OUT.png [WIDTH HEIGHT]
const puppeteer = require('puppeteer-core');
const [url, out, W = '1600', H = '900'] = process.argv.slice(2);
const width = parseInt(W, 10), height = parseInt(H, 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--hide-scrollbars',
           '--font-render-hinting=none', `--window-size=${width},${height}`],
    defaultViewport: { width, height, deviceScaleFactor: 1 },
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error('[pageerror]', e.message));
    page.on('console', (m) => { if (m.type() === 'error') console.error('[console]', m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) console.error('[http]', r.status(), r.url()); });
    await page.goto(url, { waitUntil: 'load', timeout: 60000 });
    // Wait until the trace processor has loaded the trace and tracks exist.
    await page.waitForFunction(() => {
      const g = window.globals;
      if (!g || !g.state) return false;
      const engines = Object.values(g.state.engines || {});
      return engines.length > 0 && engines.every((e) => e.ready) &&
             Object.keys(g.state.tracks || {}).length > 0;
    }, { timeout: 60000, polling: 250 });
    // Let the track list settle (tracks are added in batches).
    let prev = -1;
    for (let i = 0; i < 40; i++) {
      const n = await page.evaluate(() => Object.keys(window.globals.state.tracks).length);
      if (n === prev) break;
      prev = n; await sleep(500);
    }
    // Expand every process group and zoom to the whole trace.
    const info = await page.evaluate(() => {
      const g = window.globals, A = window.Actions;
      let expanded = 0;
      for (const [id, grp] of Object.entries(g.state.trackGroups || {})) {
        if (grp.collapsed) { g.dispatch(A.toggleTrackGroupCollapsed({ trackGroupId: id })); expanded++; }
      }
      // Whole trace (this is also the UI's default view; made explicit here).
      const tt = g.state.traceTime;
      const fl = g.frontendLocalState;
      try {
        fl.updateVisibleTime(new fl.visibleWindowTime.constructor(tt.startSec, tt.endSec));
      } catch (e) { console.error('zoom-to-fit failed: ' + e); }
      return { groups: Object.keys(g.state.trackGroups || {}).length, expanded,
               tracks: Object.keys(g.state.tracks).length, traceTime: tt,
               visible: [fl.visibleWindowTime.start, fl.visibleWindowTime.end] };
    });
    console.error('[perfetto_shot]', JSON.stringify(info));
    await sleep(Number(process.env.SETTLE_MS || 3000));   // let canvases redraw
    await page.screenshot({ path: out, type: 'png' });
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
