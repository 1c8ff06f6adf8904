// New deploys and the service worker, in real Chromium on a copy of the built site that the
// check redeploys under the page (issue 29, item 5):
// - a new deploy is offered: reloading and opening a new tab keep the running version and
//   show "a new version is ready", and its button switches every open page to the new one
//   and leaves one cache;
// - a deploy whose file list names a missing file fails to install and leaves no cache
//   behind (on every visit), and the running version goes on working with no offer.
// Usage: node tests/e2e/update.cjs <built-site-dir>
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { chromium } = require('playwright-core');

const PREFIX = 'fencing-playground-';

// A static server with no HTTP caching, so the browser asks for sw.js on every navigation.
function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json' };
  const server = http.createServer((req, res) => {
    let file = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (file.endsWith(path.sep) || file.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Writes the site's sw.js as another deploy would: a new version, and optionally a file
// list that names one more file.
function redeploy(site, version, extraFile) {
  const file = path.join(site, 'sw.js');
  let worker = fs.readFileSync(file, 'utf8');
  worker = worker.replace(/const VERSION = '[^']*';/, `const VERSION = '${version}';`);
  if (extraFile) worker = worker.replace(/const FILES = \[/, `const FILES = [${JSON.stringify(extraFile)}, `);
  fs.writeFileSync(file, worker);
}

const cacheKeys = (page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('fencing-playground-')).sort());

async function controlled(page) {
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 20000 });
}

// Asks the browser to look for a new worker now and waits until that attempt has ended:
// installed (waiting) or failed (redundant).
const checkForUpdate = (page) => page.evaluate(async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  // A reload may already have started one.
  let worker = registration.installing;
  if (!worker) {
    const found = new Promise((resolve) => registration.addEventListener('updatefound', () => resolve(registration.installing), { once: true }));
    await registration.update().catch(() => {});
    worker = await Promise.race([found, new Promise((r) => setTimeout(() => r(null), 5000))]);
  }
  if (!worker) return 'none';
  if (worker.state === 'installed' || worker.state === 'redundant') return worker.state;
  return new Promise((resolve) => worker.addEventListener('statechange', () => {
    if (worker.state === 'installed' || worker.state === 'redundant') resolve(worker.state);
  }));
});

(async () => {
  const [built] = process.argv.slice(2);
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'fp-update-'));
  fs.cpSync(built, site, { recursive: true });
  const server = await serve(site);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const problems = [];
  const errors = [];
  const watch = (page) => page.on('pageerror', (e) => errors.push(e.message));
  try {
    const page = await context.newPage();
    watch(page);
    await page.goto(`${base}#/s/gc-pause-fenced`);
    await page.waitForSelector('[data-testid=player]', { timeout: 20000 });
    await controlled(page);
    const first = await cacheKeys(page);
    if (first.length !== 1) problems.push(`first visit: caches ${JSON.stringify(first)}`);
    if (await page.locator('[data-testid=update-ready]').isVisible()) problems.push('first visit: a new version was offered with none deployed');

    // Deploy 2. The running page is offered it without a reload; a reload and a new tab keep
    // the running version (a page never mixes two deploys' files) and offer it too.
    redeploy(site, 'deploy2deploy2aa');
    const installed = await checkForUpdate(page);
    if (installed !== 'installed') problems.push(`deploy 2: the new worker ended ${installed}, not installed`);
    await page.waitForSelector('[data-testid=update-ready]', { timeout: 5000 }).catch(() => problems.push('deploy 2: the open page was not offered the new version'));
    await page.reload();
    await page.waitForSelector('[data-testid=player]', { timeout: 20000 });
    await page.waitForSelector('[data-testid=update-ready]', { timeout: 5000 }).catch(() => problems.push('deploy 2: after a reload, no offer'));
    const other = await context.newPage();
    watch(other);
    await other.goto(`${base}lab.html#/quiz`);
    await other.waitForSelector('[data-testid=quiz]', { timeout: 20000 });
    await other.waitForSelector('[data-testid=update-ready]', { timeout: 5000 }).catch(() => problems.push('deploy 2: a new tab was not offered the new version'));
    const both = await cacheKeys(page);
    if (both.length !== 2 || !both.includes(`${PREFIX}deploy2deploy2aa`)) problems.push(`deploy 2 waiting: caches ${JSON.stringify(both)}`);
    const offer = (await page.locator('[data-testid=update-ready]').textContent()) || '';
    if (!/new version/i.test(offer)) problems.push(`deploy 2: the offer reads ${JSON.stringify(offer)}`);

    // The learner accepts: the page reloads under the new worker, the old cache goes, and the
    // other tab (now under the new worker too) is offered a reload.
    const reloaded = page.waitForNavigation({ timeout: 20000 });
    await page.click('[data-testid=update-reload]');
    await reloaded;
    await page.waitForSelector('[data-testid=player]', { timeout: 20000 });
    const script = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL || '');
    const after = await cacheKeys(page);
    if (JSON.stringify(after) !== JSON.stringify([`${PREFIX}deploy2deploy2aa`])) problems.push(`accepted: caches ${JSON.stringify(after)}`);
    if (!script.endsWith('/sw.js')) problems.push(`accepted: controller ${script}`);
    if (await page.locator('[data-testid=update-ready]').isVisible()) problems.push('accepted: the reloaded page still offers an update');
    await other.waitForSelector('[data-testid=update-ready]', { timeout: 5000 }).catch(() => problems.push('accepted: the other tab, switched under it, was not asked to reload'));
    await other.close();

    // Deploy 3 names a file that is not there: its install fails on every visit, each time
    // deleting the cache it began, and deploy 2 goes on serving with no offer.
    redeploy(site, 'deploy3deploy3bb', 'not-deployed.js');
    for (const visit of [1, 2]) {
      const ended = await checkForUpdate(page);
      if (ended !== 'redundant') problems.push(`broken deploy, visit ${visit}: the install ended ${ended}`);
      const keys = await cacheKeys(page);
      if (JSON.stringify(keys) !== JSON.stringify([`${PREFIX}deploy2deploy2aa`])) problems.push(`broken deploy, visit ${visit}: caches ${JSON.stringify(keys)}`);
      await page.reload();
      await page.waitForSelector('[data-testid=player]', { timeout: 20000 });
    }
    if (await page.locator('[data-testid=update-ready]').isVisible()) problems.push('broken deploy: a reload was offered to a version that cannot install');
    if (errors.length) problems.push(`page errors: ${errors.slice(0, 3).join(' | ')}`);
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
    fs.rmSync(site, { recursive: true, force: true });
  }
  if (problems.length) {
    for (const p of problems) console.error(`update: ${p}`);
    process.exit(1);
  }
  console.log('update: a new deploy was offered to the open page, after a reload and in a new tab; accepting it switched both tabs and left one cache; a deploy naming a missing file failed to install twice and left no cache');
})().catch((e) => { console.error(`update: ${e.stack || e}`); process.exit(1); });
