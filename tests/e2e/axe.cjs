// axe-core on every view of the built site, in the light and the dark theme, at 1280x800:
// the main page's (home, a player before and after its outcome, an embed, not found, a
// link that cannot be read), the lab's (quiz, the quiz after a wrong answer, comparison,
// export, handout, the lesson builder), the explorer's (explorer, schedule search) and a
// course package's pages (a chapter, the quiz) as an LMS launches them. Fails on any
// serious or critical finding; prints the moderate and minor ones.
// Usage: node tests/e2e/axe.cjs <app-url> <site-url>
'use strict';
const fs = require('fs');
const { chromium } = require('playwright-core');

const [appUrl, siteUrl] = process.argv.slice(2);
if (!appUrl || !siteUrl) {
  console.error('usage: node tests/e2e/axe.cjs <app-url> <site-url>');
  process.exit(2);
}

// [name, address, what to do before the check]
const VIEWS = [
  ['home', `${appUrl}#/`],
  ['player, outcome kept back', `${appUrl}#/s/gc-pause-unfenced`],
  ['player, whole run', `${appUrl}#/s/gc-pause-fenced?v=1&t=40000`],
  ['player, failover', `${appUrl}#/s/failover-duplicate-token?reveal=1&t=7000`],
  ['embed', `${appUrl}#/s/gc-pause-fenced?v=1&embed=1&t=32000`],
  ['not found', `${appUrl}#/no-such-view`],
  ['unreadable link', `${appUrl}#/s/gc-pause-fenced?ttl=soon`],
  ['quiz', `${appUrl}lab.html#/quiz`],
  ['quiz, answered wrong', `${appUrl}lab.html#/quiz?q=1`, async (page) => {
    const options = await page.$$('[data-testid=quiz-option]');
    await options[0].check();
    await page.click('[data-testid=quiz-check]').catch(() => page.click('button:has-text("Check")'));
  }],
  ['comparison', `${appUrl}lab.html#/compare/gc-pause-unfenced`],
  ['export', `${appUrl}lab.html#/export/gc-pause-fenced`],
  ['handout', `${appUrl}lab.html#/handout/gc-pause-fenced`],
  ['lesson builder', `${appUrl}lab.html#/sandbox`],
  ['lesson builder, a copy of a lesson', `${appUrl}lab.html#/sandbox?edit=gc-pause-fenced`],
  ['explorer', `${appUrl}explore.html#/explore`],
  ['schedule search', `${appUrl}explore.html#/break/gc-pause-fenced`],
  ['course chapter', `${siteUrl}lms12/chapter-1.html`],
  ['course quiz', `${siteUrl}lms12/quiz.html`],
];

(async () => {
  const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const problems = [];
  let checked = 0;
  try {
    for (const colorScheme of ['light', 'dark']) {
      // axe is injected as a script: the pages' Content-Security-Policy would refuse it.
      const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width: 1280, height: 800 } });
      for (const [name, address, before] of VIEWS) {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(address, { waitUntil: 'load' });
        // Every page renders into <main>; give the wasm its time to start.
        await page.waitForSelector('main > *', { timeout: 20000 }).catch(() => errors.push('nothing rendered in <main>'));
        if (before) await before(page);
        await page.waitForTimeout(400);
        await page.evaluate(axeSource);
        const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
          .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ') })));
        for (const v of found) {
          const line = `${name} (${colorScheme}): ${v.id}, ${v.impact}, ${v.nodes} element(s): ${v.where}`;
          if (v.impact === 'serious' || v.impact === 'critical') problems.push(line);
          else console.log(`note: ${line}`);
        }
        for (const e of errors) problems.push(`${name} (${colorScheme}): ${e}`);
        checked += 1;
        await page.close();
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  if (problems.length) {
    console.error(`axe: ${problems.length} serious or critical finding(s) over ${checked} views:\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log(`axe: ${checked} views (${VIEWS.length} in each theme), no serious or critical finding`);
})().catch((e) => { console.error(e); process.exit(1); });
