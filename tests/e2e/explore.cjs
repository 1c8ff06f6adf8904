// The risk explorer in real Chromium: runs N trials per point on W web workers (0: on the
// page's own thread, in slices), and reports the wall time, the number of main-thread long
// tasks (> 50 ms) while it ran, and the longest one.
// Usage: node tests/e2e/explore.cjs <app-url> <trials-per-point> [workers] [screenshot.png]
const { chromium } = require('playwright-core');

(async () => {
  const [url, trials, workers = '0', shot] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}explore.html#/explore`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid=explore]');
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push({ at: Math.round(e.startTime - (window.runStart || 0)), ms: Math.round(e.duration) }); })
      .observe({ type: 'longtask', buffered: false });
  });
  await page.fill('[data-testid=explore-trials]', String(trials));
  await page.dispatchEvent('[data-testid=explore-trials]', 'change');
  await page.fill('[data-testid=explore-workers]', String(workers));
  await page.dispatchEvent('[data-testid=explore-workers]', 'change');
  const start = Date.now();
  await page.evaluate(() => { window.runStart = performance.now(); });
  await page.click('[data-testid=explore-run]');
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=explore-count]');
    if (!c) return false;
    const [done, total] = c.textContent.match(/\d+/g).map(Number);
    return total > 0 && done === total;
  }, null, { timeout: 600000, polling: 200 });
  const ms = Date.now() - start;
  const tasks = await page.evaluate(() => window.longTasks);
  const rows = await page.locator('[data-testid=explore-row]').count();
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  console.log(`explorer, ${workers === '0' ? "the page's thread" : `${workers} worker(s)`}: ${trials} trials x ${rows} points in ${ms} ms; long tasks (>50 ms): ${tasks.length}, longest ${Math.max(0, ...tasks.map((t) => t.ms))} ms${tasks.length ? ` (at ${tasks.map((t) => t.at).join(', ')} ms after Run)` : ''}`);
  if (errors.length) { console.error(errors.join('\n')); process.exitCode = 1; }
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
