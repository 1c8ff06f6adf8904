// End-to-end smoke of the built site in WebKit, Safari's engine: Debian's WebKitGTK
// (`webkit2gtk-driver`, WebKit 2.50) driven through WebDriver, the W3C protocol over plain
// HTTP and JSON (node's fetch; no client library). Starts WebKitWebDriver on a free port,
// which starts MiniBrowser in automation mode; MiniBrowser is a GTK window, so run this
// under `xvfb-run -a`, and as root with WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1.
// Checks, one line each: home renders its lesson cards; a lesson player steps forward;
// the quiz (lab.html) checks an answer; the lesson builder (lab.html) renders, its Redis
// console answers and Run opens its draft in the player. Fails on any page error: a
// collector installed after each page load records uncaught errors, rejected promises and
// console.error (WebKitGTK's WebDriver has no log endpoint and no BiDi), and the app's
// crash panel must stay hidden.
// Usage: node tests/e2e/webkit.cjs <app-url> [screenshot.png]
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');

const [url, shot] = process.argv.slice(2);
if (!url) {
  console.error('usage: node tests/e2e/webkit.cjs <app-url> [screenshot.png]');
  process.exit(2);
}
const base = url.replace(/index\.html$/, '').replace(/\/?$/, '/');

// Debian ships MiniBrowser with libwebkit2gtk-4.1-0, outside PATH.
function miniBrowser() {
  if (process.env.WEBKIT_MINIBROWSER) return process.env.WEBKIT_MINIBROWSER;
  for (const dir of fs.readdirSync('/usr/lib').filter((d) => d.endsWith('-linux-gnu'))) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0', 'webkitgtk-6.0']) {
      const path = `/usr/lib/${dir}/${api}/MiniBrowser`;
      if (fs.existsSync(path)) return path;
    }
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

class Session {
  constructor(root) { this.root = root; this.id = null; }
  async call(method, path, body) {
    const res = await fetch(`${this.root}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error || res.status}: ${json.value?.message || ''}`);
    return json.value;
  }
  cmd(method, path, body) { return this.call(method, `/session/${this.id}${path}`, body); }
  async start(binary) {
    const value = await this.call('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary, args: ['--automation'] },
        },
      },
    });
    this.id = value.sessionId;
    return value.capabilities;
  }
  go(to) { return this.cmd('POST', '/url', { url: to }); }
  run(script, ...args) { return this.cmd('POST', '/execute/sync', { script, args }); }
  async find(selector) {
    const found = await this.cmd('POST', '/elements', { using: 'css selector', value: selector });
    return found.length ? found[0][ELEMENT] : null;
  }
  async click(selector) {
    const el = await this.find(selector);
    if (!el) throw new Error(`no element ${selector} to click`);
    await this.cmd('POST', `/element/${el}/click`, {});
  }
  async type(selector, text) {
    const el = await this.find(selector);
    if (!el) throw new Error(`no element ${selector} to type into`);
    await this.cmd('POST', `/element/${el}/value`, { text });
  }
  // Polls a script (a function body) until it returns something truthy.
  async until(what, script, timeout = 30000, ...args) {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await this.run(script, ...args).catch(() => null);
      if (value) return value;
      if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
      await sleep(100);
    }
  }
  // Records uncaught errors, rejected promises and console.error from now on, in this
  // document (a load of another page starts a new one: call it again there).
  collect() {
    return this.run(`
      if (window.__wkErrors) return;
      const seen = window.__wkErrors = [];
      // WebKit's Error.stack lacks the name and message: print both.
      const text = (x) => String(x) + (x && x.stack ? ' at ' + x.stack.split('\\n')[0] : '');
      addEventListener('error', (e) => seen.push('page error: ' + (e.error ? text(e.error) : e.message)));
      addEventListener('unhandledrejection', (e) => seen.push('unhandled rejection: ' + text(e.reason)));
      const original = console.error;
      console.error = function (...a) { seen.push('console error: ' + a.map(String).join(' ')); return original.apply(this, a); };`);
  }
  async errors(where) {
    const seen = (await this.run('return window.__wkErrors || ["the error collector is gone (the page was reloaded)"]')) || [];
    const crash = await this.run(`const p = document.getElementById('crash-panel');
      return p && !p.hidden ? p.textContent : null;`);
    if (crash) seen.push(`the crash panel shows: ${crash.slice(0, 300)}`);
    return seen.map((e) => `${where}: ${e}`);
  }
}

(async () => {
  const binary = miniBrowser();
  if (!binary) { console.error('webkit: no MiniBrowser found (Debian: apt-get install webkit2gtk-driver)'); process.exit(1); }
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.error('webkit: no display; run under xvfb-run -a'); process.exit(1);
  }
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let driverLog = '';
  driver.stdout.on('data', (d) => { driverLog += d; });
  driver.stderr.on('data', (d) => { driverLog += d; });
  let driverFailed = null;
  driver.on('error', (e) => { driverFailed = e; });
  const wd = new Session(`http://127.0.0.1:${port}`);
  const problems = [];
  let passed = 0;
  const check = async (name, body) => {
    const start = Date.now();
    try {
      const detail = await body();
      console.log(`webkit: ok   ${name}${detail ? ` (${detail})` : ''} [${Date.now() - start} ms]`);
      passed++;
    } catch (err) {
      console.log(`webkit: FAIL ${name}: ${err.message}`);
      problems.push(`${name}: ${err.message}`);
    }
  };
  try {
    for (let i = 0; ; i++) {
      if (driverFailed) throw new Error(`WebKitWebDriver did not start: ${driverFailed.message}`);
      if (await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false)) break;
      if (i > 100) throw new Error('WebKitWebDriver did not answer within 10 s');
      await sleep(100);
    }
    const caps = await wd.start(binary);
    await wd.cmd('POST', '/window/rect', { width: 1280, height: 800 }).catch(() => {});
    const ua = await wd.run('return navigator.userAgent');
    console.log(`webkit: ${caps.browserName} ${caps.browserVersion} (${binary}), ${ua}`);

    // (a) Home: the app mounts over the loading line and lists the lessons.
    await check('home renders the lesson cards', async () => {
      await wd.go(base);
      await wd.until('the home view', 'return !!document.querySelector("[data-testid=home]")');
      await wd.collect();
      const cards = await wd.run('return document.querySelectorAll("[data-testid=scenario-card]").length');
      if (!(cards >= 1)) throw new Error('no lesson cards');
      if (await wd.run('return document.querySelectorAll(".boot").length')) throw new Error('the loading line stays after the app mounted');
      const brand = await wd.run('return document.querySelector(".brand")?.textContent || ""');
      if (!brand.includes('Fencing Token Playground')) throw new Error(`unexpected header: ${brand}`);
      if (shot) fs.writeFileSync(shot, Buffer.from(await wd.cmd('GET', '/screenshot'), 'base64'));
      return `${cards} cards`;
    });
    problems.push(...await wd.errors('home').catch((e) => [`home: ${e.message}`]));

    // (b) A player: opened from its card (a real click), stepping forward moves the step
    // counter and the clock.
    await check('a lesson player steps forward', async () => {
      await wd.click('[data-testid=scenario-card][data-id=gc-pause-fenced] a');
      await wd.until('the gc-pause-fenced player', 'return !!document.querySelector("[data-testid=player][data-id=gc-pause-fenced]")');
      const read = () => wd.run(`return [document.querySelector('[data-testid=step-count]')?.textContent,
        document.querySelector('[data-testid=clock]')?.textContent]`);
      const [steps0, clock0] = await read();
      if (!steps0) throw new Error('no step counter');
      // Two steps: the first event may sit at 0 ms, so only the second need move the clock.
      const step = async (from) => {
        await wd.click('[data-testid=step-forward]');
        await wd.until(`the step counter to leave "${from}"`, 'return document.querySelector("[data-testid=step-count]")?.textContent !== arguments[0]', 5000, from)
          .catch(() => { throw new Error(`the step counter stayed at "${from}"`); });
        return (await read())[0];
      };
      await step(await step(steps0));
      const [steps2, clock2] = await read();
      if (clock2 === clock0) throw new Error(`the clock stayed at ${clock0} after two steps`);
      return `"${steps0}" -> "${steps2}", ${clock0} -> ${clock2}`;
    });
    problems.push(...await wd.errors('player').catch((e) => [`player: ${e.message}`]));

    // (c) The quiz, on lab.html (the main page hands the route over): choose, check, verdict.
    await check('the quiz checks an answer', async () => {
      await wd.run('location.hash = "#/quiz"');
      await wd.until('the quiz on lab.html', 'return location.pathname.endsWith("lab.html") && !!document.querySelector("[data-testid=quiz-prompt]")');
      await wd.collect();
      const prompt = await wd.run('return document.querySelector("[data-testid=quiz-prompt]").textContent.trim()');
      if (!prompt) throw new Error('the question is empty');
      await wd.click('[data-testid=quiz-option]');
      await wd.until('Check to be enabled', 'return document.querySelector("[data-testid=quiz-check]")?.disabled === false', 5000);
      await wd.click('[data-testid=quiz-check]');
      const verdict = await wd.until('the verdict', 'return document.querySelector("[data-testid=quiz-feedback] strong")?.textContent', 5000);
      return `"${prompt.slice(0, 40)}…": ${verdict}`;
    });
    problems.push(...await wd.errors('quiz').catch((e) => [`quiz: ${e.message}`]));

    // (d) The lesson builder, on lab.html: it renders, its Redis console answers, and Run
    // opens the draft (compressed into the link) in the player.
    await check('the lesson builder renders and runs', async () => {
      await wd.run('location.hash = "#/sandbox"');
      await wd.until('the lesson builder', 'return !!document.querySelector("[data-testid=sandbox]")');
      await wd.collect();
      await wd.type('[data-testid=redis-input]', 'INCR fence\uE007');
      await wd.until('the Redis console to answer', 'return (document.querySelector("[data-testid=redis-log]")?.textContent || "").includes("(integer) 1")', 5000);
      await wd.until('Run to be enabled', 'return document.querySelector("[data-testid=sandbox-run]")?.disabled === false', 10000);
      await wd.click('[data-testid=sandbox-run]');
      await wd.until('the draft in the player', 'return /#\\/s\\?.*sz=/.test(location.hash) && !!document.querySelector("[data-testid=player]")', 10000);
      return 'console answered; Run opened the player';
    });
    problems.push(...await wd.errors('builder').catch((e) => [`builder: ${e.message}`]));
  } catch (err) {
    problems.push(`check failed: ${err.message}`);
  } finally {
    if (wd.id) await wd.call('DELETE', `/session/${wd.id}`).catch(() => {});
    driver.kill();
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`webkit: ${p}`);
    if (driverLog.trim()) console.error(`webkit: WebKitWebDriver said:\n${driverLog.trim().slice(-2000)}`);
    console.error(`webkit: ${passed} of 4 checks passed, ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`webkit: all 4 checks passed, no page errors`);
})();
