// The decompression bomb of issue 29: a `sz=` link of about 200 KB that inflates to 200 MB
// of zeros. Opens it in a fresh page and reports what it cost: the message the page gave,
// and the wasm memory and JS heap afterwards (Chromium's performance.memory, precise with
// --enable-precise-memory-info). The e2e check asserts on it; the benchmark prints it.
'use strict';
const zlib = require('zlib');

const INFLATED_BYTES = 200 * 1024 * 1024;

function bombHash() {
  const bytes = zlib.deflateRawSync(Buffer.alloc(INFLATED_BYTES), { level: 9 });
  return { hash: `#/s?v=1&sz=${bytes.toString('base64url')}`, linkBytes: bytes.length };
}

// Returns { message, wasmBytes, jsHeapBytes, linkBytes, ms }.
async function openBomb(browser, labUrl) {
  const { hash, linkBytes } = bombHash();
  const page = await browser.newPage();
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => { window.fpWasm = e.detail.wasm; });
  });
  const start = Date.now();
  await page.goto(`${labUrl}${hash}`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid=invalid-link]', { timeout: 30000 });
  const ms = Date.now() - start;
  const found = await page.evaluate(() => ({
    message: document.querySelector('[data-testid=invalid-link]').innerText,
    wasmBytes: window.fpWasm ? window.fpWasm.memory.buffer.byteLength : -1,
    jsHeapBytes: performance.memory ? performance.memory.usedJSHeapSize : -1,
  }));
  await page.close();
  return { ...found, linkBytes, ms };
}

module.exports = { openBomb, INFLATED_BYTES };
