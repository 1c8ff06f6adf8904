// The player on a phone (390 x 844, touch), in real Chromium on the built site (issue 30):
// at every step of two lessons, taken by tapping, the cursor's moment and the lane names
// are inside the visible part of the timeline, the step controls are on screen (also right
// after a prediction is answered), every control measures at least 44 x 44 px, and no
// keyboard hint is shown. Saves a screenshot of each lesson mid-way for a person to look at.
// Usage: node tests/e2e/phone.cjs <app-url> <screenshot-dir>
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const LESSONS = ['gc-pause-unfenced', 'failover-duplicate-token'];

// What the page shows at this step, measured in the page.
const measure = (page) => page.evaluate(() => {
  const rect = (el) => el && el.getBoundingClientRect();
  const box = rect(document.querySelector('[data-testid=timeline-scroll]'));
  const namesEl = document.querySelector('.timeline .lane-names');
  const names = rect(namesEl);
  const cursor = rect(document.querySelector('[data-testid=swimlanes] line.cursor'));
  const forward = rect(document.querySelector('[data-testid=step-forward]'));
  const labels = [...document.querySelectorAll('.timeline .lane-names .lane-label')].map((t) => rect(t));
  // Every control a finger may need, as the page lays it out; marks on the drawing are
  // left out: the step controls and the event log do what a tap on a mark does.
  const small = [];
  const controls = document.querySelectorAll('button, select, summary, input:not([type=hidden]), .site-nav a, label:has(> input[type=checkbox])');
  for (const el of controls) {
    if (el.matches('label > input[type=checkbox]')) continue; // its label is the target
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.width < 43.5 || r.height < 43.5) small.push(`${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') || el.textContent.trim().slice(0, 20)}] ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  const hint = document.querySelector('.keys-hint');
  return {
    box: box && { left: box.left, right: box.right },
    names: names && { left: names.left, right: names.right, shown: getComputedStyle(namesEl).display !== 'none' },
    cursorX: cursor && cursor.left,
    labelsInside: labels.length > 0 && labels.every((l) => box && l.left >= box.left - 1 && l.right <= box.right + 1),
    forward: forward && { top: forward.top, bottom: forward.bottom },
    viewport: innerHeight,
    small,
    keysHint: !!hint && hint.offsetParent !== null,
    step: document.querySelector('[data-testid=step-count]')?.textContent || '',
    prompt: !!document.querySelector('[data-testid=prompt-option]'),
  };
});

(async () => {
  const [url, shots] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, serviceWorkers: 'block' });
  const problems = [];
  const summary = [];
  for (const id of LESSONS) {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`${id}: page error ${e.message}`));
    await page.goto(`${url}#/s/${id}`);
    await page.waitForSelector('[data-testid=player] [data-testid=swimlanes]');
    const small = new Set();
    let steps = 0;
    let predictions = 0;
    let shot = false;
    for (let guard = 0; guard < 200; guard++) {
      const m = await measure(page);
      m.small.forEach((s) => small.add(s));
      const where = `${id} ${m.step}`;
      if (!m.box || !m.names || !m.names.shown) { problems.push(`${where}: no timeline box or pinned lane names`); break; }
      if (!(m.cursorX >= m.names.right - 1 && m.cursorX <= m.box.right)) problems.push(`${where}: the cursor (x ${m.cursorX.toFixed(0)}) is outside the visible picture (${m.names.right.toFixed(0)} to ${m.box.right.toFixed(0)})`);
      if (!m.labelsInside) problems.push(`${where}: a lane name is outside the box`);
      if (!m.forward || m.forward.top < 0 || m.forward.bottom > m.viewport) problems.push(`${where}: the step controls are off screen`);
      if (m.keysHint) problems.push(`${where}: a keyboard hint is shown on a touch screen`);
      if (!shot && steps >= 6) {
        await page.screenshot({ path: path.join(shots, `phone-${id}.png`) });
        shot = true;
      }
      if (m.prompt) {
        // Answer, then go on: the controls must be at hand without scrolling back.
        await page.locator('[data-testid=prompt-option]').first().tap();
        await page.locator('[data-testid=prompt-continue]').tap();
        predictions += 1;
        const after = await measure(page);
        if (!after.forward || after.forward.top < 0 || after.forward.bottom > after.viewport) problems.push(`${where}: after the prediction the step controls are off screen`);
        continue;
      }
      const forward = page.locator('[data-testid=step-forward]');
      if (await forward.isDisabled()) break;
      await forward.tap();
      steps += 1;
    }
    const [done, total] = ((await page.textContent('[data-testid=step-count]')) || '').match(/\d+/g).map(Number);
    if (done !== total || steps === 0) problems.push(`${id}: stopped at step ${done} of ${total}`);
    for (const s of small) problems.push(`${id}: a control smaller than 44 x 44 px: ${s}`);
    summary.push(`${id}: ${steps} steps tapped, ${predictions} prediction(s) answered`);
    await page.close();
  }
  await browser.close();
  if (problems.length) {
    for (const p of problems.slice(0, 40)) console.error(`phone: ${p}`);
    process.exit(1);
  }
  console.log(`phone (390 x 844, touch): ${summary.join('; ')}; at every step the cursor and the lane names were in view and the step controls on screen; every control at least 44 x 44 px`);
})().catch((e) => { console.error(`phone: ${e.stack || e}`); process.exit(1); });
