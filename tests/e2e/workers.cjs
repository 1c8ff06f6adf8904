// The risk explorer's web workers in real Chromium, on the built site: the same seed gives
// the same table on the page's own thread, on one worker and on two; Cancel stops every
// worker at once; a worker that cannot load is reported and the run can be started again.
// Usage: node tests/e2e/workers.cjs <app-url>
const { chromium } = require('playwright-core');

const table = (page) => page.$$eval('[data-testid=explore-row]', (rows) => rows.map((r) => r.textContent).join('\n'));

async function run(page, { workers, trials }) {
  for (const [id, value] of [['explore-workers', workers], ['explore-trials', trials], ['explore-values', '2000, 30000'], ['explore-seed', '11']]) {
    await page.fill(`[data-testid=${id}]`, String(value));
    await page.dispatchEvent(`[data-testid=${id}]`, 'change');
  }
  await page.click('[data-testid=explore-run]');
}

async function finished(page) {
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=explore-count]');
    if (!c) return false;
    const [done, total] = c.textContent.match(/\d+/g).map(Number);
    return total > 0 && done === total;
  }, null, { timeout: 120000, polling: 100 });
}

(async () => {
  const [url] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  // No service worker, so every request (a worker's script too) comes from the server.
  const page = await browser.newPage({ serviceWorkers: 'block' });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}explore.html#/explore`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid=explore]');
  const fail = (why) => { console.error(`workers: ${why}`); process.exitCode = 1; };

  // 25,000 trials per point: three chunks each, shared out among the workers.
  const tables = {};
  for (const workers of [0, 1, 2]) {
    await run(page, { workers, trials: 25000 });
    if (workers > 0) {
      const live = await page.getAttribute('[data-testid=explore]', 'data-workers');
      if (live !== String(workers)) fail(`${workers} worker(s) asked for, ${live} running`);
    }
    await finished(page);
    tables[workers] = await table(page);
    const live = await page.getAttribute('[data-testid=explore]', 'data-workers');
    if (live !== '0') fail(`${live} worker(s) still running after the run ended`);
  }
  if (!tables[0].includes('25000')) fail(`no table: ${tables[0]}`);
  if (tables[1] !== tables[0]) fail(`one worker differs from the page's thread:\n${tables[1]}\n${tables[0]}`);
  if (tables[2] !== tables[0]) fail(`two workers differ from the page's thread:\n${tables[2]}\n${tables[0]}`);

  // Cancel stops both workers at once, part way.
  await run(page, { workers: 2, trials: 1000000 });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=explore-count]')?.textContent.match(/\d+/)[0]) > 0, null, { timeout: 60000 });
  await page.click('[data-testid=explore-cancel]');
  const after = await page.getAttribute('[data-testid=explore]', 'data-workers');
  const count = await page.textContent('[data-testid=explore-count]');
  await page.waitForTimeout(500);
  const later = await page.textContent('[data-testid=explore-count]');
  if (after !== '0') fail(`${after} worker(s) still running after Cancel`);
  if (count !== later) fail(`the count moved after Cancel: ${count} -> ${later}`);
  if (!(await page.isEnabled('[data-testid=explore-run]'))) fail('Run is not available again after Cancel');

  // A worker whose script does not load is reported, and Run works again.
  await page.route('**/fencing-explore-worker_loader.js', (route) => route.fulfill({ status: 404, body: '' }));
  await run(page, { workers: 2, trials: 25000 });
  await page.waitForSelector('[data-testid=explore-error]', { timeout: 30000 });
  const message = await page.textContent('[data-testid=explore-error]');
  if (!/worker/i.test(message)) fail(`the failure says: ${message}`);
  if ((await page.getAttribute('[data-testid=explore]', 'data-workers')) !== '0') fail('workers left running after a failure');
  if (!(await page.isEnabled('[data-testid=explore-run]'))) fail('Run is not available again after a failure');
  await page.unroute('**/fencing-explore-worker_loader.js');

  if (errors.length) fail(errors.join('\n'));
  if (!process.exitCode) console.log(`workers: the same table on the page's thread, 1 and 2 workers; Cancel stopped both; a failed worker was reported`);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
