// End-to-end check of the built site: opens it from a sub-path in Debian's headless
// Chromium, walks home -> scenario -> unknown route, and fails on any console error,
// page error or failed request. Usage: node tests/e2e/smoke.cjs <url> <screenshot.png>
'use strict';
const { chromium } = require('playwright-core');

const [url, shot] = process.argv.slice(2);
if (!url || !shot) {
  console.error('usage: node tests/e2e/smoke.cjs <url> <screenshot.png>');
  process.exit(2);
}

(async () => {
  const problems = [];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });

    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid=home]', { timeout: 15000 });
    const cards = await page.locator('[data-testid=scenario-card]').count();
    if (cards < 1) problems.push('home view shows no scenario cards');
    const heading = await page.locator('.brand').innerText();
    if (!heading.includes('Fencing Token Playground')) problems.push(`unexpected header: ${heading}`);
    await page.screenshot({ path: shot, fullPage: true });

    await page.click('[data-testid=scenario-card][data-id=gc-pause-fenced] a');
    await page.waitForSelector('[data-testid=player][data-id=gc-pause-fenced]', { timeout: 5000 });
    const rejected = await page.locator('[data-testid=event][data-kind=write-rejected]').count();
    if (rejected !== 1) problems.push(`expected one rejected write in gc-pause-fenced, saw ${rejected}`);

    await page.evaluate(() => { location.hash = '#/bogus'; });
    await page.waitForSelector('[data-testid=not-found]', { timeout: 5000 });

    console.log(`e2e: home shows ${cards} scenarios; player and not-found views render; screenshot ${shot}`);
  } catch (err) {
    problems.push(`check failed: ${err.message}`);
  } finally {
    await browser.close();
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`e2e: ${p}`);
    process.exit(1);
  }
})();
