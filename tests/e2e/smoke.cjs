// End-to-end check of the built site in Debian's headless Chromium: opens it from a
// sub-path, walks home -> scenario -> sandbox (on lab.html) -> unknown route (back on the
// main page), switches language (the pack is
// fetched from the site), and embeds it in an iframe on a host page: the allowed host gets
// `ready` and `step` and can seek; a host on another origin gets nothing and cannot.
// Fails on any console error, page error or failed request.
// Usage: node tests/e2e/smoke.cjs <app-url> <screenshot.png> <host-url> <other-origin-host-url>
'use strict';
const { chromium } = require('playwright-core');
const { openBomb } = require('./bomb.cjs');

const [url, shot, hostUrl, otherHostUrl] = process.argv.slice(2);
if (!url || !shot || !hostUrl || !otherHostUrl) {
  console.error('usage: node tests/e2e/smoke.cjs <app-url> <screenshot.png> <host-url> <other-origin-host-url>');
  process.exit(2);
}
const seek = (t) => JSON.stringify({ protocol: 'fencing-playground', version: 1, type: 'seek', t_ms: t });

(async () => {
  const problems = [];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--enable-precise-memory-info', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The one 404 allowed: a link to a lesson that does not exist. The page's script starts
    // a lesson's fetch from its link before the app (and its catalogue) has loaded, so it
    // cannot know; the app then says "not found". Anything else missing is a failure.
    const expected404 = (url) => url.endsWith('/scenarios/no-such-lesson.lesson');
    page.on('console', (msg) => { if (msg.type() === 'error' && !expected404(msg.location().url || '')) problems.push(`console error: ${msg.text()}`); });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => { if (res.status() >= 400 && !(res.status() === 404 && expected404(res.url()))) problems.push(`HTTP ${res.status()}: ${res.url()}`); });

    // Until the bundle runs, the page says it is loading (in its three languages); the app
    // replaces that line when it mounts.
    const served = await (await page.request.get(url)).text();
    if (!served.includes('class="boot"') && !served.includes('class=boot')) problems.push('index.html has no loading line for the time its bundle downloads');
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid=home]', { timeout: 15000 });
    if (await page.locator('.boot').count() !== 0) problems.push('the loading line stays after the app mounted');
    const cards = await page.locator('[data-testid=scenario-card]').count();
    if (cards < 1) problems.push('home view shows no scenario cards');
    const heading = await page.locator('.brand').innerText();
    if (!heading.includes('Fencing Token Playground')) problems.push(`unexpected header: ${heading}`);
    await page.screenshot({ path: shot, fullPage: true });

    await page.click('[data-testid=scenario-card][data-id=gc-pause-fenced] a');
    await page.waitForSelector('[data-testid=player][data-id=gc-pause-fenced]', { timeout: 5000 });
    // A learner's view keeps the outcome back until the first prompt; the instructor's
    // switch shows the whole run, A's rejected write included.
    const early = await page.locator('[data-testid=event][data-kind=write-rejected]').count();
    if (early !== 0) problems.push(`gc-pause-fenced shows its rejected write before the prompt (${early})`);
    await page.click('[data-testid=reveal]');
    const rejected = await page.locator('[data-testid=event][data-kind=write-rejected]').count();
    if (rejected !== 1) problems.push(`expected one rejected write in gc-pause-fenced, saw ${rejected}`);
    // The main page carries only the catalogue index: the lesson came baked, from
    // scenarios/<id>.lesson (fence bake), and the page fetched no JSON lesson to parse.
    const lessons = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/scenarios/')));
    if (!lessons.some((n) => n.endsWith('scenarios/gc-pause-fenced.lesson'))) problems.push(`the lesson was not fetched from scenarios/gc-pause-fenced.lesson (fetched: ${lessons.join(', ')})`);
    if (lessons.some((n) => n.endsWith('.json'))) problems.push(`the main page fetched a JSON lesson: ${lessons.join(', ')}`);

    // JSON and Mermaid exports live on the lab page, for the same run.
    await page.click('[data-testid=export-more]');
    await page.waitForSelector('[data-testid=export-page] [data-testid=export-json]', { timeout: 15000 });
    if (!page.url().includes('lab.html#/export/gc-pause-fenced')) problems.push(`the export page opened at ${page.url()}`);
    // The embed snippet opens the same scenario in embed mode, on the main page.
    const snippet = await page.locator('[data-testid=embed-snippet]').inputValue();
    if (!/^<iframe src="[^"]*\/#\/s\/gc-pause-fenced\?[^"]*embed=1/.test(snippet)) problems.push(`unexpected embed snippet: ${snippet}`);
    // The SVG file renders on its own: namespace and styles inside, no black unstyled blocks.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-svg]')]);
    const svg = require('fs').readFileSync(await download.path(), 'utf8');
    const blank = await browser.newPage();
    const look = await blank.evaluate(async (text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
      const img = new Image();
      img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let black = 0, painted = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] < 128) continue;
        painted++;
        if (data[i] < 30 && data[i + 1] < 30 && data[i + 2] < 30) black++;
      }
      return { width: canvas.width, black: black / Math.max(painted, 1), painted };
    }, svg);
    await blank.close();
    if (look.error || !(look.width > 300) || look.black > 0.02) problems.push(`the saved SVG does not render on its own: ${JSON.stringify(look)}`);
    await page.goBack();
    await page.waitForSelector('[data-testid=player][data-id=gc-pause-fenced]', { timeout: 15000 });

    // The built page carries a Content-Security-Policy; a violation is a console error above.
    const csp = await page.evaluate(() => document.querySelector('meta[http-equiv=Content-Security-Policy]')?.content || '');
    if (!csp.includes("object-src 'none'") || !csp.includes("script-src 'self' 'wasm-unsafe-eval' 'sha256-")) {
      problems.push(`missing or loose Content-Security-Policy: ${csp}`);
    }

    // The sandbox lives on lab.html (its own bundle): the main page hands the route over,
    // under the same kind of policy, and the consoles answer.
    await page.evaluate(() => { location.hash = '#/sandbox'; });
    await page.waitForSelector('[data-testid=sandbox]', { timeout: 15000 });
    // The sandbox keeps its open draft in the address (#/sandbox?sz=...).
    if (!/lab\.html#\/sandbox(\?|$)/.test(page.url())) problems.push(`the sandbox opened at ${page.url()}, not lab.html#/sandbox`);
    const labCsp = await page.evaluate(() => document.querySelector('meta[http-equiv=Content-Security-Policy]')?.content || '');
    if (!labCsp.includes("object-src 'none'") || !labCsp.includes("script-src 'self' 'wasm-unsafe-eval' 'sha256-")) {
      problems.push(`missing or loose Content-Security-Policy on lab.html: ${labCsp}`);
    }
    // The format's documentation the sandbox links to is on the site.
    const formatHref = await page.locator('[data-testid=sandbox-format]').evaluate((a) => a.href);
    const formatDoc = await page.request.get(formatHref);
    const formatText = await formatDoc.text();
    if (formatDoc.status() !== 200 || !formatText.includes('scenario format')) problems.push(`the format documentation at ${formatHref} did not load`);
    if (!formatText.includes('Content-Security-Policy" content="default-src \'none\'')) problems.push('the format documentation has no Content-Security-Policy');
    await page.fill('[data-testid=redis-input]', 'INCR fence');
    await page.press('[data-testid=redis-input]', 'Enter');
    await page.locator('[data-testid=redis-log]').filter({ hasText: '(integer) 1' }).waitFor({ timeout: 5000 });

    // An unknown route on the lab goes back to the main page, which explains it.
    await page.evaluate(() => { location.hash = '#/bogus'; });
    await page.waitForSelector('[data-testid=not-found]', { timeout: 15000 });
    if (page.url().includes('lab.html')) problems.push(`not-found stayed on ${page.url()}`);

    // Language packs are separate files, fetched when chosen.
    await page.evaluate(() => { location.hash = '#/'; });
    await page.selectOption('[data-testid=lang]', 'id');
    await page.waitForFunction(() => document.querySelector('[data-testid=nav-quiz]')?.textContent === 'Kuis', null, { timeout: 5000 });
    await page.selectOption('[data-testid=lang]', 'vi');
    await page.waitForFunction(() => document.querySelector('[data-testid=nav-explore]')?.textContent === 'Khám phá rủi ro', null, { timeout: 5000 });

    // Embedding: the listed origin talks with the player.
    const appOrigin = new URL(url).origin;
    const embedUrl = `${url}#/s/gc-pause-fenced?v=1&embed=1&origins=${encodeURIComponent(appOrigin)}`;
    await page.goto(`${hostUrl}?src=${encodeURIComponent(embedUrl)}`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.received.some((m) => String(m.data).includes('"type":"ready"')), null, { timeout: 15000 });
    await page.waitForFunction(() => window.received.some((m) => String(m.data).includes('"type":"step"')), null, { timeout: 5000 });
    await page.evaluate((msg) => document.getElementById('frame').contentWindow.postMessage(msg, '*'), seek(31500));
    const frame = page.frameLocator('#frame');
    await frame.locator('[data-testid=clock]').filter({ hasText: '31.500 s' }).waitFor({ timeout: 5000 });
    // Issue 29, item 7: a flood of seeks is applied as one (the last), not one render each.
    const stepsBefore = await page.evaluate(() => window.received.filter((m) => String(m.data).includes('"type":"step"')).length);
    await page.evaluate(() => {
      const target = document.getElementById('frame').contentWindow;
      for (let i = 0; i < 10000; i++) {
        const t = i % 2 === 0 ? 1000 : 31000;
        target.postMessage(JSON.stringify({ protocol: 'fencing-playground', version: 1, type: 'seek', t_ms: i === 9999 ? 32500 : t }), '*');
      }
    });
    await frame.locator('[data-testid=clock]').filter({ hasText: '32.500 s' }).waitFor({ timeout: 15000 })
      .catch(() => problems.push('after 10,000 seeks the player did not show the last one'));
    await page.waitForTimeout(300);
    const flood = await page.evaluate((n) => window.received.filter((m) => String(m.data).includes('"type":"step"')).length - n, stepsBefore);
    if (flood > 100) problems.push(`10,000 seeks were applied one by one (${flood} step messages)`);
    // Issue 29, item 8: an unknown id gets an error message and the player stays, still
    // listening; a known one then loads.
    const load = (id) => JSON.stringify({ protocol: 'fencing-playground', version: 1, type: 'load-scenario', id });
    await page.evaluate((msg) => document.getElementById('frame').contentWindow.postMessage(msg, '*'), load('no-such-lesson'));
    await page.waitForFunction(() => window.received.some((m) => String(m.data).includes('"type":"error","reason":"unknown-scenario","id":"no-such-lesson"')), null, { timeout: 5000 })
      .catch(() => problems.push('an unknown load-scenario id got no error message'));
    if (await frame.locator('[data-testid=player][data-id=gc-pause-fenced]').count() !== 1) problems.push('an unknown load-scenario id left the player');
    await page.evaluate((msg) => document.getElementById('frame').contentWindow.postMessage(msg, '*'), load('clock-jump'));
    await frame.locator('[data-testid=player][data-id=clock-jump]').waitFor({ timeout: 10000 })
      .catch(() => problems.push('after an unknown id, load-scenario no longer worked'));
    // An embed opened on an unknown id still takes load-scenario.
    await page.goto(`${hostUrl}?src=${encodeURIComponent(embedUrl.replace('gc-pause-fenced', 'no-such-lesson'))}`, { waitUntil: 'load' });
    await page.frameLocator('#frame').locator('[data-testid=not-found]').waitFor({ timeout: 15000 });
    await page.waitForTimeout(300);
    await page.evaluate((msg) => document.getElementById('frame').contentWindow.postMessage(msg, '*'), load('clock-jump'));
    await page.frameLocator('#frame').locator('[data-testid=player][data-id=clock-jump]').waitFor({ timeout: 10000 })
      .catch(() => problems.push('an embed on "Not found" ignored load-scenario'));

    // A host on another origin receives nothing and cannot drive the player.
    await page.goto(`${otherHostUrl}?src=${encodeURIComponent(embedUrl)}`, { waitUntil: 'load' });
    const other = page.frameLocator('#frame');
    await other.locator('[data-testid=clock]').waitFor({ timeout: 15000 });
    await page.evaluate((msg) => document.getElementById('frame').contentWindow.postMessage(msg, '*'), seek(31500));
    await page.waitForTimeout(500);
    const otherClock = await other.locator('[data-testid=clock]').innerText();
    // Heights go to any parent (they say nothing about the learner); nothing else may.
    const leaked = await page.evaluate(() => window.received.filter((m) => {
      const text = typeof m.data === 'string' ? m.data : JSON.stringify(m.data);
      return !text.includes('"lti.frameResize"') && !/"context":"h5p","action":"(hello|prepareResize|resize)"/.test(text);
    }).length);
    if (otherClock !== '0.000 s') problems.push(`a host on another origin moved the player to ${otherClock}`);
    if (leaked !== 0) problems.push(`a host on another origin received ${leaked} messages beyond heights`);

    // The story under the controls is in view at 1280x800 at every step of every built-in
    // (the instructor's view, so no prompt stops the walk).
    const wide = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await wide.goto(`${url}#/`, { waitUntil: 'load' });
    await wide.waitForSelector('[data-testid=scenario-card]', { timeout: 15000 });
    const ids = await wide.evaluate(() => [...document.querySelectorAll('[data-testid=scenario-card]')].map((c) => c.dataset.id));
    let checked = 0;
    for (const id of ids) {
      await wide.evaluate((h) => { location.hash = h; }, `#/s/${id}?v=1&reveal=1`);
      await wide.waitForSelector(`[data-testid=player][data-id="${id}"]`, { timeout: 15000 });
      const steps = await wide.evaluate(() => +document.querySelector('[data-testid=step-count]').textContent.split(' of ')[1].trim());
      for (let step = 0; step <= steps; step++) {
        const low = await wide.evaluate(() => {
          const n = document.querySelector('[data-testid=narration]');
          return n ? Math.round(n.getBoundingClientRect().top + 24) : 9999;
        });
        if (low > 800) { problems.push(`${id} step ${step}: the narration is below the fold (${low} px)`); break; }
        checked++;
        if (step < steps) await wide.click('[data-testid=step-forward]');
      }
    }
    await wide.close();
    // A lesson opened from its link is fetched once, by the page's script before the wasm
    // has started (the app takes that fetch over), and plays.
    {
      const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const lessons = [];
      fresh.on('request', (req) => { if (req.url().endsWith('.lesson')) lessons.push(req.url()); });
      await fresh.goto(`${url}#/s/delayed-write`, { waitUntil: 'load' });
      await fresh.waitForSelector('[data-testid=player][data-id=delayed-write]', { timeout: 15000 });
      if (lessons.length !== 1 || !lessons[0].endsWith('/scenarios/delayed-write.lesson')) {
        problems.push(`a lesson's link fetched ${JSON.stringify(lessons)}, not its lesson once`);
      }
      await fresh.close();
    }
    // Issue 30, item 13: the compare view's shared clock reads on one line ("0.000 s"; it
    // wrapped to "0.000 / s"), on a desktop and on a phone.
    for (const width of [1280, 390]) {
      const view = await browser.newPage({ viewport: { width, height: 800 } });
      await view.goto(`${url}lab.html#/compare/gc-pause-unfenced`, { waitUntil: 'load' });
      await view.waitForSelector('[data-testid=compare] [data-testid=clock]', { timeout: 15000 });
      const lines = await view.evaluate(() => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('[data-testid=compare] [data-testid=clock]'));
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      if (lines !== 1) problems.push(`the compare view's clock takes ${lines} lines at ${width} px`);
      await view.close();
    }
    // A phone: no sideways scrolling of the page, no timeline label under 11 px.
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    for (const hash of ['#/s/gc-pause-fenced?v=1&t=40000', '#/s/dlq-threshold?v=1&t=20000&lang=vi', '#/', '#/s/gc-pause-fenced?v=1&embed=1']) {
      await phone.goto(`${url}${hash}`, { waitUntil: 'load' });
      await phone.waitForSelector('[data-testid=app]', { timeout: 15000 });
      await phone.waitForTimeout(300);
      const fit = await phone.evaluate(() => {
        const small = [...document.querySelectorAll('.swimlanes text')]
          .map((t) => ({ text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a }))
          .filter((t) => t.px < 11);
        return { width: document.documentElement.scrollWidth, small: small.slice(0, 3) };
      });
      if (fit.width > 360) problems.push(`${hash} at 360 px scrolls sideways (${fit.width} px)`);
      if (fit.small.length) problems.push(`${hash} at 360 px has timeline labels under 11 px: ${JSON.stringify(fit.small)}`);
    }
    await phone.close();
    // axe-core on what a learner sees (contrast included), desktop and phone, English and
    // Vietnamese: no violations.
    const axeSource = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const axeContext = await browser.newContext({ bypassCSP: true });
    for (const [hash, width, height] of [
      ['#/', 1280, 800],
      ['#/s/gc-pause-fenced?v=1&t=40000', 1280, 800],
      ['#/s/gc-pause-unfenced', 1280, 800],
      ['#/s/dlq-threshold?v=1&t=20000&lang=vi', 360, 740],
      ['lab.html#/quiz', 1280, 800],
      ['lab.html#/compare/gc-pause-unfenced', 1280, 800],
    ]) {
      const view = await axeContext.newPage({ viewport: { width, height } });
      await view.goto(`${url}${hash}`, { waitUntil: 'load' });
      await view.waitForSelector('[data-testid=app] main > *', { timeout: 15000 });
      await view.waitForTimeout(300);
      await view.evaluate(axeSource);
      const found = await view.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`));
      for (const v of found) problems.push(`axe on ${hash} at ${width}px: ${v}`);
      await view.close();
    }
    await axeContext.close();

    // A wasm trap is no panic: the Rust hook never runs, so the page's inline listener shows
    // the panel the app built hidden. An uncaught RuntimeError thrown from a task is what
    // the browser delivers when an event handler's call into wasm traps.
    const trapped = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await trapped.goto(`${url}#/s/gc-pause-fenced`, { waitUntil: 'load' });
    await trapped.waitForSelector('[data-testid=player]', { timeout: 15000 });
    if (await trapped.locator('[data-testid=crash-panel]').isVisible()) problems.push('the crash panel shows before anything went wrong');
    await trapped.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError('memory access out of bounds'); }));
    await trapped.waitForSelector('[data-testid=crash-panel]', { state: 'visible', timeout: 5000 }).catch(() => problems.push('a wasm trap did not show the crash panel'));
    const trapText = await trapped.locator('[data-testid=crash-panel] pre').innerText().catch(() => '');
    if (!trapText.includes('memory access out of bounds')) problems.push(`the crash panel does not name the trap: ${trapText}`);
    await trapped.close();

    // Issue 29, item 6: a link that inflates to 200 MB stops at the scenario limit instead.
    const bomb = await openBomb(browser, url.replace(/index\.html$/, '') + 'lab.html');
    if (!bomb.message.includes('too large')) problems.push(`the decompression bomb got: ${bomb.message}`);
    const MB = 1024 * 1024;
    if (bomb.wasmBytes < 0 || bomb.wasmBytes > 64 * MB) problems.push(`the decompression bomb left ${bomb.wasmBytes} B of wasm memory`);
    if (bomb.jsHeapBytes < 0 || bomb.jsHeapBytes > 64 * MB) problems.push(`the decompression bomb left ${bomb.jsHeapBytes} B of JS heap`);
    console.log(`e2e: the narration was in view at ${checked} steps of ${ids.length} built-ins at 1280x800; phones fit`);

    console.log(`e2e: home shows ${cards} scenarios; player, the CSP on both pages, the sandbox on lab.html, not-found, language packs and the iframe protocol work; screenshot ${shot}`);
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
