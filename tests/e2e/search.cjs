// "Try to break it" on web workers in real Chromium, on the built site.
// Usage: node tests/e2e/search.cjs <app-url> check
//   the gc-pause-fenced counterexample found on 2 workers, the same as on 1 and on the
//   page's thread; Cancel stops the workers part way; no main-thread task over 50 ms
//   while 2 workers search (exit 1 on a failure).
// Usage: node tests/e2e/search.cjs <app-url> bench [id...]
//   each built-in's default search on 2 workers: seconds, distinct schedules, schedules
//   per second, the longest main-thread task; prints numbers, asserts nothing.
//   With ids given it runs each on 1 and 2 workers; WORKERS=1,2,1,2 sets the counts and
//   their order (alternating rounds, for an A/B on a noisy machine).
const { chromium } = require('playwright-core');

async function open(page, url, id) {
  await page.goto(`${url}explore.html#/break/${id}`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid=break-start]', { timeout: 60000 });
  // The longest main-thread task from here on (Long Tasks API: tasks over 50 ms).
  await page.evaluate(() => {
    window.fpLongest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.fpLongest = Math.max(window.fpLongest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

async function search(page, workers) {
  await page.fill('[data-testid=break-workers]', String(workers));
  await page.dispatchEvent('[data-testid=break-workers]', 'change');
  const start = Date.now();
  await page.click('[data-testid=break-start]');
  await page.waitForSelector('[data-testid=break-found], [data-testid=break-none], [data-testid=break-failed]', { timeout: 600000 });
  const ms = Date.now() - start;
  const found = await page.$('[data-testid=break-found]');
  const failed = await page.$('[data-testid=break-failed]');
  const text = await page.textContent(found ? '[data-testid=break-found]' : failed ? '[data-testid=break-failed]' : '[data-testid=break-none]');
  const schedules = Number(((text.match(/([\d,]+) (?:distinct )?schedules/) || [0, "0"])[1]).replace(/,/g, ""));
  const longest = await page.evaluate(() => window.fpLongest);
  return { ms, found: !!found, failed: !!failed, text: text.trim(), schedules, longest };
}

(async () => {
  const [url, mode = 'check', ...ids] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ serviceWorkers: 'block' });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const fail = (why) => { console.error(`search: ${why}`); process.exitCode = 1; };

  if (mode === 'bench') {
    let list = ids;
    if (!list.length) {
      await page.goto(`${url}scenarios/index.json`).catch(() => {});
      list = require('child_process').execFileSync('target/release/fence', ['list']).toString().trim().split('\n').map((l) => l.split(/\s+/)[0]);
    }
    console.log('   built-in                               workers  seconds  schedules  per second  longest task');
    for (const id of list) {
      for (const workers of (process.env.WORKERS || (ids.length ? '1,2' : '2')).split(',').map(Number)) {
        await open(page, url, id);
        const r = await search(page, workers);
        const rate = r.schedules / (r.ms / 1000);
        console.log(`   ${id.padEnd(40)} ${String(workers).padStart(3)} ${(r.ms / 1000).toFixed(2).padStart(8)} ${String(r.schedules).padStart(10)} ${rate.toFixed(0).padStart(11)} ${r.longest.toFixed(0).padStart(9)} ms  ${r.found ? 'broken' : r.failed ? 'FAILED' : 'holds'}`);
      }
    }
  } else {
    const answers = {};
    for (const workers of [0, 1, 2]) {
      await open(page, url, 'gc-pause-fenced');
      const r = await search(page, workers);
      if (!r.found) fail(`${workers} worker(s): no counterexample: ${r.text}`);
      answers[workers] = await page.textContent('[data-testid=break-changes]');
      if (workers === 2) {
        if (r.longest > 50) fail(`a main-thread task took ${r.longest} ms while 2 workers searched`);
        const href = await page.getAttribute('[data-testid=break-open]', 'href');
        await page.goto(`${url}${href}`, { waitUntil: 'load' });
        await page.waitForSelector('[data-testid=verdict]', { timeout: 30000 });
        const body = await page.textContent('body');
        if (!body.includes("What changed: A's pause: 39.000 s -> 30.999 s")) fail('the player does not say what changed');
        if (!body.includes('no-stale-holder')) fail('the player does not say what broke');
      }
    }
    if (answers[1] !== answers[0] || answers[2] !== answers[0]) fail(`answers differ: ${JSON.stringify(answers)}`);
    // Cancel part way through a long search: the workers stop, the count stays.
    await open(page, url, 'watchdog-outlives-hang');
    await page.fill('[data-testid=break-workers]', '2');
    await page.dispatchEvent('[data-testid=break-workers]', 'change');
    await page.click('[data-testid=break-start]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=break-progress]')?.dataset.run || 0) > 0, null, { timeout: 60000 });
    await page.click('[data-testid=break-cancel]');
    const cancelled = await page.textContent('[data-testid=break-cancelled]');
    await page.waitForTimeout(500);
    if ((await page.textContent('[data-testid=break-cancelled]')) !== cancelled) fail('the count moved after Cancel');
    if (!(await page.isEnabled('[data-testid=break-start]'))) fail('Search is not available again after Cancel');
    if (!process.exitCode) console.log(`search: gc-pause-fenced broken the same way on the page's thread, 1 and 2 workers (${answers[2].trim()}); opened in the player; Cancel stopped the workers`);
  }
  if (errors.length) fail(errors.join('\n'));
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
