// End-to-end check of what course platforms rely on, in Debian's headless Chromium:
// a course page on another origin with two embeds (a player and the quiz) that receives
// `ready`, xAPI statements in H5P's envelope, H5P's resize handshake and Canvas's
// `lti.frameResize`, tells the two embeds apart by `frame=`, and has a seek it posted
// before the player was ready applied.
// Then both SCORM packages, unzipped under <site-dir>/lms12 and lms2004, in an LMS page
// whose run-time is scorm-again: the manifest lists every file and names its version; the
// quiz SCO reports status and score, suspends, and resumes from suspend_data; a chapter SCO
// completes when its scenarios were seen to their end.
// Usage: node tests/e2e/lms.cjs <app-url> <course-host-url-on-another-origin> <site-url> <site-dir>
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

// The quiz's size, read from the bank the pages are built from.
const QUESTIONS = JSON.parse(fs.readFileSync(path.join(__dirname, '../../static/quiz.json'), 'utf8')).questions.length;

const [url, courseUrl, siteUrl, siteDir] = process.argv.slice(2);
if (!url || !courseUrl || !siteUrl || !siteDir) {
  console.error('usage: node tests/e2e/lms.cjs <app-url> <course-host-url> <site-url> <site-dir>');
  process.exit(2);
}
const message = (body) => JSON.stringify({ protocol: 'fencing-playground', version: 1, ...body });

// Learning Locker's xAPI validator: each statement the playground sent, with what it says
// is wrong (nothing, for a valid one).
const validateXapi = require('@learninglocker/xapi-validation').default;
function checkStatements(statements, where, problems) {
  for (const statement of statements) {
    const warnings = validateXapi(statement);
    if (warnings.length) problems.push(`${where}: an invalid xAPI statement (${warnings.map((w) => w.path ? w.path.join('.') : JSON.stringify(w)).slice(0, 3).join('; ')}): ${JSON.stringify(statement).slice(0, 300)}`);
  }
  return statements.length;
}

async function twoEmbeds(browser, problems) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (err) => problems.push(`course page error: ${err.message}`));
  const hostOrigin = new URL(courseUrl).origin;
  const origins = encodeURIComponent(hostOrigin);
  const left = `${url}#/s/gc-pause-fenced?v=1&embed=1&frame=left&origins=${origins}`;
  const right = `${url}lab.html#/quiz?v=1&embed=1&frame=right&origins=${origins}`;
  const early = message({ type: 'seek', t_ms: 31500 });
  await page.goto(`${courseUrl}?left=${encodeURIComponent(left)}&right=${encodeURIComponent(right)}&early=${encodeURIComponent(early)}`);
  const frame = (name) => page.frameLocator(`#${name}`);
  // The seek posted on the frame's load, before the player existed, was kept and applied.
  await frame('left').locator('[data-testid=clock]').filter({ hasText: '31.500 s' }).waitFor({ timeout: 20000 });
  await frame('right').locator('[data-testid=quiz]').waitFor({ timeout: 20000 });
  const got = () => page.evaluate(() => window.received);
  const parsed = (m) => { try { return JSON.parse(m.text); } catch { return null; } };
  await page.waitForFunction(() => window.received.filter((m) => m.text.includes('"type":"ready"')).length >= 2, null, { timeout: 15000 });
  let all = (await got()).map((m) => ({ ...m, json: parsed(m) }));
  const ours = all.filter((m) => m.json && m.json.protocol === 'fencing-playground');
  const ready = ours.filter((m) => m.json.type === 'ready');
  const readyLeft = ready.find((m) => m.from === 'left');
  const readyRight = ready.find((m) => m.from === 'right');
  if (!readyLeft || readyLeft.json.frame !== 'left' || readyLeft.json.view !== 'scenario') problems.push(`ready from the player: ${JSON.stringify(readyLeft)}`);
  if (!readyRight || readyRight.json.frame !== 'right' || readyRight.json.view !== 'quiz' || readyRight.json.total !== QUESTIONS) problems.push(`ready from the quiz: ${JSON.stringify(readyRight)}`);
  // Every protocol message names the frame it came from.
  const mixed = ours.filter((m) => m.json.frame !== m.from);
  if (mixed.length) problems.push(`messages whose frame= does not match their source: ${mixed.slice(0, 2).map((m) => m.text).join(' ')}`);
  // Heights: H5P's handshake sized both frames, and Canvas's message came from both.
  await page.waitForFunction(() => window.h5pHeight.left > 300 && window.h5pHeight.right > 300, null, { timeout: 10000 })
    .catch(() => {});
  const heights = await page.evaluate(() => window.h5pHeight);
  if (!(heights.left > 300 && heights.right > 300)) problems.push(`H5P resize did not size both frames: ${JSON.stringify(heights)}`);
  const sizedLeft = await page.evaluate(() => document.getElementById('left').getBoundingClientRect().height);
  if (Math.abs(sizedLeft - heights.left) > 1) problems.push(`the left frame is ${sizedLeft} px high, H5P said ${heights.left}`);
  await page.waitForFunction(() => ['left', 'right'].every((side) => window.received.some((m) => m.from === side && m.text.includes('"subject":"lti.frameResize"'))), null, { timeout: 10000 })
    .catch(() => {});
  all = (await got()).map((m) => ({ ...m, json: parsed(m) }));
  for (const side of ['left', 'right']) {
    const canvas = all.filter((m) => m.from === side && m.json && m.json.subject === 'lti.frameResize' && m.json.height > 300);
    if (!canvas.length) problems.push(`no lti.frameResize from the ${side} frame`);
  }
  // Play for a second: steps come per event, not per 50 ms tick; resize only on a change.
  const before = (await got()).length;
  await frame('left').locator('[data-testid=play]').click();
  await page.waitForTimeout(1500);
  // (Play may have stopped by itself at a prediction prompt; the host's pause is harmless.)
  await page.evaluate((m) => document.getElementById('left').contentWindow.postMessage(m, '*'), message({ type: 'pause' }));
  const during = (await got()).slice(before).map((m) => ({ ...m, json: parsed(m) }));
  const steps = during.filter((m) => m.json && m.json.type === 'step').length;
  if (steps > 12) problems.push(`${steps} step messages in 1.5 s of play: one per tick?`);

  // The quiz: answer every question; each answer is a quiz-answered message and an xAPI
  // statement with the quiz as parent; the last one completes and grades it.
  const quiz = frame('right');
  for (let i = 0; i < QUESTIONS; i++) {
    await quiz.locator('[data-testid=quiz-option]').nth(i % 2).check();
    await quiz.locator('[data-testid=quiz-check]').click();
    if (i < QUESTIONS - 1) await quiz.locator('[data-testid=quiz-next]').click();
  }
  await page.waitForFunction(() => window.received.some((m) => m.text.includes('"type":"quiz-completed"')), null, { timeout: 10000 });
  all = (await got()).map((m) => ({ ...m, json: parsed(m) }));
  const answered = all.filter((m) => m.json && m.json.type === 'quiz-answered');
  const last = answered[answered.length - 1];
  if (answered.length !== QUESTIONS || !last || last.json.answered !== QUESTIONS || last.json.total !== QUESTIONS || last.json.attempt !== 1 || typeof last.json.choice !== 'number') {
    problems.push(`quiz-answered messages: ${answered.length}, last ${last && last.text}`);
  }
  const completed = all.find((m) => m.json && m.json.type === 'quiz-completed');
  const score = answered.filter((m) => m.json.correct).length;
  if (!completed || completed.json.score !== score || completed.json.total !== QUESTIONS || completed.json.passed !== (score * 100 >= QUESTIONS * 80)) {
    problems.push(`quiz-completed: ${completed && completed.text} (first answers right: ${score})`);
  }
  const statements = all.filter((m) => m.object && m.json && m.json.context === 'h5p' && m.json.action === 'xAPI').map((m) => m.json.statement);
  const verb = (s) => s.verb.id.split('/').pop();
  const answers = statements.filter((s) => verb(s) === 'answered');
  if (answers.length !== QUESTIONS) problems.push(`${answers.length} xAPI answered statements for ${QUESTIONS} answers`);
  const a = answers[0];
  if (a && !(a.object.definition.interactionType === 'choice' && a.result.response !== undefined && typeof a.result.success === 'boolean'
    && a.context.contextActivities.parent[0].id.endsWith('#/quiz') && a.actor.account && /^[0-9a-f-]{36}$/.test(a.id))) {
    problems.push(`an xAPI answer lacks its parts: ${JSON.stringify(a)}`);
  }
  const done = statements.find((s) => verb(s) === 'completed');
  const graded = statements.find((s) => verb(s) === (completed && completed.json.passed ? 'passed' : 'failed'));
  for (const s of [done, graded]) {
    if (!s || s.result.score.raw !== score || s.result.score.max !== QUESTIONS || s.result.score.min !== 0 || s.context.contextActivities) {
      problems.push(`xAPI completion without its score (or with a parent): ${JSON.stringify(s)}`);
    }
  }
  // Learning events carry learner data: none of them went anywhere but the listed origin
  // (this page), and the heights went to any parent.
  const elsewhere = all.filter((m) => m.origin !== new URL(url).origin);
  if (elsewhere.length) problems.push(`messages from an unexpected origin: ${elsewhere[0].origin}`);
  const firstRight = answered.filter((m) => m.json.correct).length;
  if (last && last.json.correct_count !== firstRight) problems.push(`correct_count ${last.json.correct_count}, first tries right ${firstRight}`);
  // A second answer to a question is practice: the message says so, and its statement
  // carries no success an LRS would count, only the attempt and whether it was right.
  const seen = (await got()).length;
  await quiz.locator('[data-testid=quiz-prev]').click();
  await quiz.locator('[data-testid=quiz-option]').first().check();
  await quiz.locator('[data-testid=quiz-check]').click();
  await page.waitForFunction((n) => window.received.slice(n).some((m) => m.object && m.text.includes('attempt":2')), seen, { timeout: 10000 })
    .catch(() => problems.push('no statement for a practice answer'));
  const later = (await got()).slice(seen).map((m) => ({ ...m, json: parsed(m) }));
  const practice = later.find((m) => m.json && m.json.type === 'quiz-answered');
  if (!practice || practice.json.attempt !== 2 || practice.json.first_try || practice.json.correct_count !== firstRight
    || practice.json.practice_count !== (practice.json.correct && !answered[QUESTIONS - 2].json.correct ? 1 : 0)) {
    problems.push(`a practice answer's message: ${practice && practice.text}`);
  }
  const retryStatement = later.filter((m) => m.object && m.json && m.json.action === 'xAPI').map((m) => m.json.statement)[0];
  const ext = retryStatement && retryStatement.result && retryStatement.result.extensions;
  if (!ext || ext['urn:fencing-playground:xapi:attempt'] !== 2 || 'success' in retryStatement.result
    || typeof ext['urn:fencing-playground:xapi:practice-correct'] !== 'boolean') {
    problems.push(`a practice answer's statement: ${JSON.stringify(retryStatement && retryStatement.result)}`);
  }
  // "Show me" in an embedded quiz opens the site's player in a new tab; the frame keeps
  // its quiz, and no message comes from the run in the tab.
  const show = quiz.locator('[data-testid=quiz-show]');
  const [target, href] = [await show.getAttribute('target'), await show.getAttribute('href')];
  if (target !== '_blank' || !/#\/s\//.test(href) || /embed=1|frame=|origins=/.test(href)) problems.push(`an embedded quiz's "Show me": target ${target}, ${href}`);
  const [tab] = await Promise.all([page.context().waitForEvent('page'), show.click()]);
  await tab.waitForSelector('[data-testid=player]', { timeout: 20000 });
  await tab.close();
  if (!(await quiz.locator('[data-testid=quiz]').count())) problems.push('"Show me" took the quiz out of its frame');
  const after = (await got()).slice(seen).map((m) => ({ ...m, json: parsed(m) }));
  const stray = after.filter((m) => m.json && (m.json.type === 'completed' || m.json.type === 'step' || (m.json.type === 'ready' && m.json.view === 'scenario')));
  if (stray.length) problems.push(`messages from the "Show me" run: ${stray.map((m) => m.text).join(' ')}`);
  // Every statement the quiz sent, the practice one too, as Learning Locker validates them.
  const everyStatement = (await got()).map((m) => ({ ...m, json: parsed(m) }))
    .filter((m) => m.object && m.json && m.json.action === 'xAPI').map((m) => m.json.statement);
  checkStatements(everyStatement, 'quiz', problems);
  await page.close();
  return `two embeds: ready, ${ours.length} protocol messages with their frame, H5P heights ${heights.left}/${heights.right}, lti.frameResize, ${statements.length} xAPI statements, quiz score ${score}/${QUESTIONS}, early seek applied`;
}

// A player watched to its end as a learner would, answering its prediction prompts: each
// prompt's answer and the scenario's completion are learning events, all valid xAPI, and
// `completed` comes only at the end the learner reached.
async function playerStatements(browser, problems) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (err) => problems.push(`player statements page error: ${err.message}`));
  const origins = encodeURIComponent(new URL(courseUrl).origin);
  const registration = '3f1d2c4b-5a69-4b78-8c9d-0e1f2a3b4c5d';
  const left = `${url}#/s/gc-pause-fenced?v=1&embed=1&frame=watched&registration=${registration}&origins=${origins}`;
  await page.goto(`${courseUrl}?left=${encodeURIComponent(left)}&right=about:blank`);
  const player = page.frameLocator('#left');
  await player.locator('[data-testid=player]').waitFor({ timeout: 20000 });
  let prompts = 0;
  for (let i = 0; i < 400; i++) {
    const [n, m] = (await player.locator('[data-testid=step-count]').innerText()).match(/\d+/g).map(Number);
    if (n === m) break;
    if (await player.locator('[data-testid=prompt]').count()) {
      await player.locator('[data-testid=prompt-option]').first().click();
      await player.locator('[data-testid=prompt-continue]').click();
      prompts++;
    } else {
      await player.locator('[data-testid=step-forward]').click();
    }
  }
  await page.waitForFunction(() => window.received.some((m) => m.text.includes('"type":"completed"')), null, { timeout: 10000 })
    .catch(() => problems.push('a player watched to its end sent no completed'));
  const received = await page.evaluate(() => window.received);
  const statements = received.filter((m) => m.object).map((m) => JSON.parse(m.text)).filter((j) => j.action === 'xAPI').map((j) => j.statement);
  const verbs = statements.map((s) => s.verb.id.split('/').pop());
  if (verbs.filter((v) => v === 'answered').length !== prompts || verbs.filter((v) => v === 'completed').length !== 1) {
    problems.push(`a watched player's statements: ${verbs.join(', ')} for ${prompts} prompts`);
  }
  const done = statements.find((s) => s.verb.id.endsWith('/completed'));
  if (done && !(done.object.id.endsWith('#/s/gc-pause-fenced') && done.result.completion === true && done.context.registration === registration)) {
    problems.push(`a scenario's completed statement: ${JSON.stringify(done)}`);
  }
  checkStatements(statements, 'player', problems);
  await page.close();
  return `player: ${prompts} prompts answered and the end reached, ${statements.length} valid xAPI statements (${[...new Set(verbs)].join(', ')})`;
}

// An embedded break-it challenge solved by placing a pause: its attempt is a
// challenge-attempted message and an xAPI statement Learning Locker accepts, with the
// design as the response and the score against par.
async function challengeStatements(browser, problems) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (err) => problems.push(`challenge embed page error: ${err.message}`));
  const origins = encodeURIComponent(new URL(courseUrl).origin);
  const registration = '6a1d2c4b-5a69-4b78-8c9d-0e1f2a3b4c5e';
  const left = `${url}lab.html#/challenge/outlast-the-watchdog?v=1&embed=1&frame=ch&registration=${registration}&origins=${origins}`;
  await page.goto(`${courseUrl}?left=${encodeURIComponent(left)}&right=about:blank`);
  const frame = page.frameLocator('#left');
  await frame.locator('[data-testid=challenge]').waitFor({ timeout: 20000 });
  await frame.locator('[data-testid=draft-at]').fill('5');
  await frame.locator('[data-testid=draft-for]').fill('30');
  await frame.locator('[data-testid=challenge-place]').click();
  await frame.locator('[data-testid=challenge-check]').click();
  await frame.locator('[data-testid=challenge-solved]').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => window.received.some((m) => m.text.includes('challenge-attempted')), null, { timeout: 10000 });
  const received = await page.evaluate(() => window.received);
  const attempted = received.filter((m) => !m.object).map((m) => { try { return JSON.parse(m.text); } catch { return null; } })
    .filter((j) => j && j.type === 'challenge-attempted');
  const a = attempted[0] || {};
  if (attempted.length !== 1 || a.frame !== 'ch' || a.solved !== true || a.response !== 'pause[.]A@5000+30000' || a.par !== 1 || a.spent !== 1) {
    problems.push(`challenge-attempted: ${JSON.stringify(attempted)}`);
  }
  const statements = received.filter((m) => m.object).map((m) => JSON.parse(m.text)).filter((j) => j.action === 'xAPI').map((j) => j.statement);
  const s = statements[0];
  if (statements.length !== 1 || !s.verb.id.endsWith('/answered') || !s.object.id.endsWith('#/challenge/outlast-the-watchdog')
    || s.object.definition.interactionType !== 'performance' || s.result.success !== true || s.result.response !== 'pause[.]A@5000+30000'
    || s.result.score.scaled !== 1 || s.context.registration !== registration) {
    problems.push(`a challenge's statement: ${JSON.stringify(statements)}`);
  }
  checkStatements(statements, 'challenge', problems);
  await page.close();
  return `challenge embed: a break solved with one pause, a challenge-attempted message and ${statements.length} valid xAPI statement (performance, score ${s && s.result.score.scaled})`;
}

// The cmi5 package's quiz AU, launched as a cmi5 LMS launches it, against a small LRS of
// our own (tests/e2e/lrs.cjs): the launch address read, the token fetched once,
// LMS.LaunchData read, then `initialized`, every answer, `completed` and `passed` or
// `failed` with the mastery score, and `terminated` last when the learner leaves, each
// with the registration, the session id and cmi5's categories, all valid xAPI. An AU
// launched without the LMS's parameters says it cannot report.
async function cmi5Quiz(browser, problems) {
  const registration = '0b6a2f58-9d1e-4c3b-a5f7-2e8d9c1b4a60';
  const actor = JSON.stringify({ objectType: 'Agent', account: { homePage: 'https://lms.example', name: 'learner-7' } });
  const xml = fs.readFileSync(path.join(siteDir, 'cmi5', 'cmi5.xml'), 'utf8');
  const au = [...xml.matchAll(/<au id="([^"]+)"[^>]*>[\s\S]*?<url>([^<]+)<\/url>/g)].find((m) => m[2] === 'quiz.html');
  if (!au || !/masteryScore="0.8"/.test(xml) || !/<courseStructure xmlns="https:\/\/w3id.org\/xapi\/profiles\/cmi5\/v1\/CourseStructure.xsd">/.test(xml)) {
    problems.push(`cmi5.xml: ${xml.slice(0, 300)}`);
    return 'cmi5: no quiz AU';
  }
  const activityId = au[1];
  const session = 'b7c1e2d3-0000-4000-8000-00000000cafe';
  const lrs = await require('./lrs.cjs').start({
    registration, activityId, actor,
    document: {
      contextTemplate: { contextActivities: { grouping: [{ id: 'urn:fencing-playground:course' }] }, extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': session } },
      launchMode: 'Normal', moveOn: 'CompletedAndPassed', masteryScore: 0.8, returnURL: `${siteUrl}lms.html`,
    },
  });
  const query = new URLSearchParams({ endpoint: `${lrs.base}/xapi/`, fetch: `${lrs.base}/fetch`, actor, registration, activityId });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (err) => problems.push(`cmi5 AU page error: ${err.message}`));
  await page.goto(`${siteUrl}cmi5/quiz.html?${query}`);
  await page.waitForSelector('[data-testid=quiz]', { timeout: 20000 });
  const verbOf = (s) => s.verb.id.split('/').pop();
  const until = async (what, test) => {
    for (let i = 0; i < 100 && !test(); i++) await page.waitForTimeout(100);
    if (!test()) problems.push(`cmi5: ${what} never reached the LRS (it has ${lrs.statements.map(verbOf).join(', ')})`);
  };
  await until('initialized', () => lrs.statements.some((s) => verbOf(s) === 'initialized'));
  const right = await answer(page.mainFrame(), QUESTIONS);
  await until('passed or failed', () => lrs.statements.some((s) => ['passed', 'failed'].includes(verbOf(s))));
  await page.goto('about:blank');
  await until('terminated', () => lrs.statements.some((s) => verbOf(s) === 'terminated'));
  const verbs = lrs.statements.map(verbOf);
  const defined = lrs.statements.filter((s) => verbOf(s) !== 'answered');
  const order = defined.map(verbOf).join(', ');
  const graded = right * 100 >= QUESTIONS * 80 ? 'passed' : 'failed';
  if (order !== `initialized, completed, ${graded}, terminated`) problems.push(`cmi5: defined statements in the order ${order} (expected initialized, completed, ${graded}, terminated)`);
  if (verbs[0] !== 'initialized' || verbs[verbs.length - 1] !== 'terminated') problems.push(`cmi5: statements ${verbs.join(', ')}`);
  if (verbs.filter((v) => v === 'answered').length !== QUESTIONS) problems.push(`cmi5: ${verbs.filter((v) => v === 'answered').length} answers for ${QUESTIONS} questions`);
  const category = (s) => ((s.context.contextActivities || {}).category || []).map((c) => c.id);
  for (const s of lrs.statements) {
    const where = `cmi5 ${verbOf(s)}`;
    if (s.context.registration !== registration) problems.push(`${where}: registration ${s.context.registration}`);
    if (s.context.extensions['https://w3id.org/xapi/cmi5/context/extensions/sessionid'] !== session) problems.push(`${where}: no session id`);
    if (JSON.stringify(s.actor) !== actor) problems.push(`${where}: actor ${JSON.stringify(s.actor)}`);
    const isDefined = verbOf(s) !== 'answered';
    if (isDefined && (s.object.id !== activityId || !category(s).includes('https://w3id.org/xapi/cmi5/context/categories/cmi5'))) problems.push(`${where}: object ${s.object.id}, categories ${category(s)}`);
    if (!isDefined && category(s).length) problems.push(`${where}: an answer carries cmi5's category`);
    const moveOn = ['completed', 'passed', 'failed'].includes(verbOf(s));
    if (moveOn !== category(s).includes('https://w3id.org/xapi/cmi5/context/categories/moveon')) problems.push(`${where}: moveon category ${category(s)}`);
  }
  const verdict = defined.find((s) => verbOf(s) === graded);
  if (verdict && !(verdict.result.success === (graded === 'passed') && Math.abs(verdict.result.score.scaled - right / QUESTIONS) < 0.0001
    && verdict.context.extensions['https://w3id.org/xapi/cmi5/context/extensions/masteryscore'] === 0.8 && /^PT/.test(verdict.result.duration))) {
    problems.push(`cmi5 ${graded}: ${JSON.stringify(verdict.result)} ${JSON.stringify(verdict.context.extensions)}`);
  }
  if (lrs.fetched !== 1 || lrs.launchDataReads !== 1) problems.push(`cmi5: the token was fetched ${lrs.fetched} times, the launch data read ${lrs.launchDataReads}`);
  problems.push(...lrs.problems.map((p) => `cmi5 LRS: ${p}`));
  // Launched without the LMS's parameters: the page says it cannot report.
  await page.goto(`${siteUrl}cmi5/quiz.html`);
  await page.locator('[data-testid=cmi5-problem]').waitFor({ timeout: 20000 })
    .catch(() => problems.push('cmi5: an AU launched without endpoint does not say it cannot report'));
  await page.close();
  await lrs.close();
  return `cmi5: quiz AU ${order}, ${QUESTIONS} answers, ${lrs.statements.length} statements valid and in order`;
}

// Every file the manifest lists is in the package, every file of the package is listed,
// and the manifest names the right version.
function checkManifest(dir, version, problems) {
  const xml = fs.readFileSync(path.join(dir, 'imsmanifest.xml'), 'utf8');
  const schema = (xml.match(/<schemaversion>([^<]*)<\/schemaversion>/) || [])[1];
  const want = version === '12' ? '1.2' : '2004 4th Edition';
  if (schema !== want) problems.push(`SCORM ${version}: schemaversion ${schema}, expected ${want}`);
  const namespace = version === '12' ? 'http://www.imsproject.org/xsd/imscp_rootv1p1p2' : 'http://www.imsglobal.org/xsd/imscp_v1p1';
  if (!xml.includes(`xmlns="${namespace}"`)) problems.push(`SCORM ${version}: the manifest's namespace is not ${namespace}`);
  const listed = new Set([...xml.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]));
  const present = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else present.push(path.relative(dir, p).split(path.sep).join('/')); } };
  walk(dir);
  for (const f of listed) if (!fs.existsSync(path.join(dir, f))) problems.push(`SCORM ${version}: the manifest lists ${f}, which is not in the package`);
  // The schema files the manifest names are in the package too (tests/e2e/manifest.py
  // validates against them); every other file is listed.
  for (const f of present) if (f !== 'imsmanifest.xml' && f !== 'metadata.xml' && !/\.(xsd|dtd)$/.test(f) && !listed.has(f)) problems.push(`SCORM ${version}: ${f} is in the package but not in the manifest`);
  const launches = [...xml.matchAll(/<resource [^>]*href="([^"]+)"/g)].map((m) => m[1]);
  if (!launches.includes('quiz.html') || !launches.includes('chapter-1.html') || launches.some((h) => /[?#]/.test(h))) {
    problems.push(`SCORM ${version}: launch files ${launches.join(', ')}`);
  }
  if (version === '12' && /completion_status|scaled_passing|adlcp_v1p3/.test(xml)) problems.push('SCORM 1.2: the manifest names 2004 elements');
  return listed.size;
}

async function lmsPage(browser, version, launch, resume, problems) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (err) => problems.push(`LMS page error: ${err.message}`));
  const query = new URLSearchParams({ version, launch });
  if (resume) query.set('resume', JSON.stringify(resume));
  await page.goto(`${siteUrl}lms.html?${query}`);
  return page;
}

// The learner answers the quiz from the question shown until `stop` questions have answers
// (or the end); returns how many of those were right.
async function answer(sco, stop) {
  let right = 0;
  for (;;) {
    const progress = await sco.locator('[data-testid=quiz-progress]').innerText();
    const answered = +progress.match(/answered (\d+)/)[1];
    if (answered >= stop) return right;
    await sco.locator('[data-testid=quiz-option]').nth(answered % 3 === 0 ? 1 : 0).check();
    await sco.locator('[data-testid=quiz-check]').click();
    if (await sco.locator('[data-testid=quiz-feedback].right').count()) right++;
    const next = sco.locator('[data-testid=quiz-next]');
    if (await next.isEnabled()) await next.click(); else return right;
  }
}

async function scormQuiz(browser, version, problems) {
  const v12 = version === '12';
  // An element's value as the LMS holds it; write-only ones (exit, session_time) as the SCO
  // last set them.
  const cmi = (page, e12, e2004) => page.evaluate(([a, b, is12]) => {
    const name = is12 ? a : b;
    const set = window.calls.filter((c) => (c[0] === 'LMSSetValue' || c[0] === 'SetValue') && c[1] === name).pop();
    if (/exit|session_time/.test(name)) return set ? String(set[2]) : 'never set';
    const get = (obj, dotted) => dotted.split('.').reduce((o, k) => (o == null ? o : o[k]), obj);
    return String(get(window.lmsApi.cmi, name.replace(/^cmi\./, '')));
  }, [e12, e2004, v12]);
  const dir = `lms${version}`;
  const files = checkManifest(path.join(siteDir, dir), version, problems);
  // First visit: three answers, then the learner leaves (the LMS closes the frame).
  let page = await lmsPage(browser, version, `${dir}/quiz.html`, null, problems);
  let sco = page.frameLocator('#sco');
  await sco.locator('[data-testid=quiz]').waitFor({ timeout: 20000 });
  const status0 = await cmi(page, 'cmi.core.lesson_status', 'cmi.completion_status');
  if (status0 !== 'incomplete') problems.push(`SCORM ${version}: status on start is ${status0}`);
  let right = await answer(sco, 3);
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish' || c[0] === 'Terminate'), null, { timeout: 5000 });
  const exit = await cmi(page, 'cmi.core.exit', 'cmi.exit');
  const time = await cmi(page, 'cmi.core.session_time', 'cmi.session_time');
  const suspend = await cmi(page, 'cmi.suspend_data', 'cmi.suspend_data');
  const location = await cmi(page, 'cmi.core.lesson_location', 'cmi.location');
  const firstJournaled = +(await cmi(page, 'cmi.interactions._count', 'cmi.interactions._count'));
  if (exit !== 'suspend') problems.push(`SCORM ${version}: exit ${exit} after leaving unfinished`);
  if (!(v12 ? /^\d{4}:\d{2}:\d{2}\.\d{2}$/ : /^PT\d+(\.\d+)?S$/).test(time)) problems.push(`SCORM ${version}: session time ${time}`);
  const calls = await page.evaluate(() => window.calls.map((c) => c[1]).filter((n) => typeof n === 'string' && n.startsWith('cmi.')));
  const foreign = calls.filter((n) => (v12 ? !/^cmi\.(core\.|suspend_data|interactions\.)/.test(n) : /^cmi\.(core|student_data)\./.test(n)));
  if (foreign.length) problems.push(`SCORM ${version}: elements of the other version: ${foreign.join(', ')}`);
  checkInteractions(await page.evaluate(() => window.calls), version, problems);
  await page.close();
  // Second visit: the LMS hands back what it kept; the learner finds three answers and
  // finishes the quiz.
  const resume = v12
    ? { core: { lesson_status: 'incomplete', lesson_location: location, entry: 'resume' }, suspend_data: suspend }
    : { completion_status: 'incomplete', location, entry: 'resume', suspend_data: suspend };
  page = await lmsPage(browser, version, `${dir}/quiz.html`, resume, problems);
  sco = page.frameLocator('#sco');
  await sco.locator('[data-testid=quiz]').waitFor({ timeout: 20000 });
  await sco.locator('[data-testid=quiz-progress]').filter({ hasText: 'answered 3' }).waitFor({ timeout: 5000 })
    .catch(async () => problems.push(`SCORM ${version}: after a resume the quiz shows "${await sco.locator('[data-testid=quiz-progress]').innerText()}"`));
  right += await answer(sco, QUESTIONS);
  await sco.locator('[data-testid=quiz-progress]').filter({ hasText: `answered ${QUESTIONS}` }).waitFor({ timeout: 5000 });
  const raw = await cmi(page, 'cmi.core.score.raw', 'cmi.score.raw');
  const expectPct = Math.round((right * 100) / QUESTIONS);
  const passed = right * 100 >= QUESTIONS * 80;
  if (+raw !== expectPct) problems.push(`SCORM ${version}: score ${raw}, expected ${expectPct} (${right} of ${QUESTIONS} right at the first try)`);
  const status = await cmi(page, 'cmi.core.lesson_status', 'cmi.success_status');
  // Every answer of this visit is journaled (this LMS page was handed no interactions of
  // the first visit, which journaled its own 3), so the per-question report has them.
  const journaled = await cmi(page, 'cmi.interactions._count', 'cmi.interactions._count');
  if (+journaled !== QUESTIONS - 3 || firstJournaled !== 3) problems.push(`SCORM ${version}: ${firstJournaled} and ${journaled} interactions for 3 and ${QUESTIONS - 3} answers`);
  if (status !== (passed ? 'passed' : 'failed')) problems.push(`SCORM ${version}: status ${status} for ${right} of ${QUESTIONS}`);
  if (!v12) {
    const completion = await cmi(page, '', 'cmi.completion_status');
    const scaled = await cmi(page, '', 'cmi.score.scaled');
    if (completion !== 'completed' || Math.abs(+scaled - right / QUESTIONS) > 0.0001) problems.push(`SCORM 2004: completion ${completion}, scaled ${scaled}`);
  }
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish' || c[0] === 'Terminate'), null, { timeout: 5000 });
  const finalExit = await cmi(page, 'cmi.core.exit', 'cmi.exit');
  if (finalExit !== (v12 ? '' : 'normal')) problems.push(`SCORM ${version}: exit "${finalExit}" after finishing`);
  await page.close();
  const relaunched = await scormRelaunch(browser, version, suspend, problems);
  return `SCORM ${version}: manifest lists ${files} files; quiz resumed from suspend_data, score ${raw} (${status}), ${journaled} interactions with responses, times and latency; ${relaunched}`;
}

// The challenges SCO in scorm-again: a fix-it failed once (the hint shows) and then solved;
// each attempt is a performance interaction the run-time accepts, with the design as the
// learner's response, and the solved one is kept in suspend_data and counted in progress.
async function scormChallenges(browser, version, problems) {
  const v12 = version === '12';
  const page = await lmsPage(browser, version, `lms${version}/challenges.html`, null, problems);
  const sco = page.frameLocator('#sco');
  await sco.locator('[data-testid=challenge-list]').waitFor({ timeout: 20000 });
  const cards = await sco.locator('[data-testid=challenge-card]').count();
  await sco.locator('[data-testid=challenge-card][data-id=fence-the-pause] h3 a').click();
  await sco.locator('[data-testid=challenge]').waitFor({ timeout: 20000 });
  await sco.locator('[data-testid=challenge-check]').click();
  await sco.locator('[data-testid=challenge-hint]').waitFor({ timeout: 60000 });
  await sco.locator('[data-testid=option-guard-lt]').check();
  await sco.locator('[data-testid=challenge-check]').click();
  await sco.locator('[data-testid=challenge-solved]').waitFor({ timeout: 60000 });
  const back = await sco.locator('[data-testid=course-back]').getAttribute('href');
  if (back !== '#/challenge') problems.push(`SCORM ${version} challenges: "back" leads to ${back}`);
  await page.waitForFunction(() => window.calls.filter((c) => /^cmi\.interactions\.1\.result$/.test(c[1])).length > 0, null, { timeout: 10000 });
  const calls = await page.evaluate(() => window.calls);
  const sets = calls.filter((c) => c[0] === 'LMSSetValue' || c[0] === 'SetValue');
  const refused = sets.filter((c) => String(c[c.length - 1]) !== 'true');
  if (refused.length) problems.push(`SCORM ${version} challenges: the run-time refused ${refused.map((c) => `${c[1]}=${c[2]}`).join(', ')}`);
  const field = (n, f) => (sets.filter((c) => c[1] === `cmi.interactions.${n}.${f}`).pop() || [])[2];
  const response = v12 ? 'student_response' : 'learner_response';
  const want = [
    [0, 'id', 'challenge-fence-the-pause'], [0, 'type', 'performance'], [0, response, 'guard-lt[.]false[,]watchdog[.]false'],
    [0, 'result', v12 ? 'wrong' : 'incorrect'], [1, response, 'guard-lt[.]true[,]watchdog[.]false'], [1, 'result', 'correct'],
  ];
  if (!v12) want.push([0, 'description', 'Fence the paused writer']);
  for (const [n, f, value] of want) {
    if (field(n, f) !== value) problems.push(`SCORM ${version} challenges: interactions.${n}.${f} is ${field(n, f)}, expected ${value}`);
  }
  const suspend = (sets.filter((c) => c[1] === 'cmi.suspend_data').pop() || [])[2] || '';
  if (!suspend.includes('"c":{"fence-the-pause":[1,1]}')) problems.push(`SCORM ${version} challenges: suspend_data ${suspend}`);
  let progress = '';
  if (!v12) {
    progress = (sets.filter((c) => c[1] === 'cmi.progress_measure').pop() || [])[2];
    if (Math.abs(+progress - 1 / cards) > 0.0001) problems.push(`SCORM 2004 challenges: progress ${progress} after 1 of ${cards}`);
  }
  await page.close();
  return `SCORM ${version} challenges: ${cards} listed; a fix failed with its hint then solved, 2 performance interactions accepted${progress ? `, progress ${progress}` : ''}, kept in suspend_data`;
}

// The first visit's interactions, as the run-time took them: none refused, the question
// as the first one's description (2004), option ids (letters) for the right and the
// chosen option, the time answered and the latency in the version's formats.
function checkInteractions(calls, version, problems) {
  const v12 = version === '12';
  const sets = calls.filter((c) => c[0] === 'LMSSetValue' || c[0] === 'SetValue');
  const refused = sets.filter((c) => String(c[c.length - 1]) !== 'true');
  if (refused.length) problems.push(`SCORM ${version}: the run-time refused ${refused.map((c) => `${c[1]}=${c[2]}`).join(', ')}`);
  const field = (f) => (sets.find((c) => c[1] === `cmi.interactions.0.${f}`) || [])[2];
  const first = JSON.parse(fs.readFileSync(path.join(__dirname, '../../static/quiz.json'), 'utf8')).questions[0];
  const want = {
    id: (v) => v === first.id,
    type: (v) => v === 'choice',
    'correct_responses.0.pattern': (v) => v === String.fromCharCode(97 + first.answer),
    [v12 ? 'student_response' : 'learner_response']: (v) => /^[a-z]$/.test(v),
    [v12 ? 'time' : 'timestamp']: (v) => (v12 ? /^\d\d:\d\d:\d\d\.\d\d$/ : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\dZ$/).test(v),
    latency: (v) => (v12 ? /^\d{4}:\d\d:\d\d\.\d\d$/ : /^PT\d+(\.\d+)?S$/).test(v),
  };
  if (!v12) want.description = (v) => v === first.prompt;
  for (const [name, ok] of Object.entries(want)) {
    if (!ok(field(name))) problems.push(`SCORM ${version}: interaction 0's ${name} is ${JSON.stringify(field(name))}`);
  }
  if (v12 && field('description') !== undefined) problems.push('SCORM 1.2: an interaction was given a description (a 2004 element)');
}

// Nobody stranded: a relaunch from a scenario (a "Show me" the learner left on) offers the
// way back to the quiz, which finds its answers; a "Show me" and back keeps the question
// and the answers; and the LMS's language preference opens the SCO in that language.
async function scormRelaunch(browser, version, suspend, problems) {
  const v12 = version === '12';
  const dir = `lms${version}`;
  const where = '#/s/gc-pause-fenced?v=1&t=31500';
  const resume = v12
    ? { core: { lesson_status: 'incomplete', lesson_location: where, entry: 'resume' }, suspend_data: suspend }
    : { completion_status: 'incomplete', location: where, entry: 'resume', suspend_data: suspend };
  let page = await lmsPage(browser, version, `${dir}/quiz.html`, resume, problems);
  let sco = page.frameLocator('#sco');
  await sco.locator('[data-testid=player]').waitFor({ timeout: 20000 });
  await sco.locator('[data-testid=course-back]').click();
  await sco.locator('[data-testid=quiz-progress]').filter({ hasText: 'answered 3' }).waitFor({ timeout: 5000 })
    .catch(() => problems.push(`SCORM ${version}: back from a relaunched scenario, the quiz lost its answers`));
  if (await sco.locator('[data-testid=course-back]').count()) problems.push(`SCORM ${version}: the quiz itself offers "back"`);
  // To the first question without an answer; answer it; "Show me"; back.
  for (let i = 0; i < 3; i++) await sco.locator('[data-testid=quiz-next]').click();
  const asked = await sco.locator('[data-testid=question]').getAttribute('data-id');
  await sco.locator('[data-testid=quiz-option]').first().check();
  await sco.locator('[data-testid=quiz-check]').click();
  await sco.locator('[data-testid=quiz-show]').click();
  await sco.locator('[data-testid=player]').waitFor({ timeout: 10000 });
  const location = await page.evaluate((is12) => (is12 ? window.lmsApi.cmi.core.lesson_location : window.lmsApi.cmi.location), v12);
  if (!location.startsWith('#/s/')) problems.push(`SCORM ${version}: the location after "Show me" is ${location}`);
  await sco.locator('[data-testid=course-back]').click();
  await sco.locator('[data-testid=quiz-progress]').filter({ hasText: 'answered 4' }).waitFor({ timeout: 5000 })
    .catch(() => problems.push(`SCORM ${version}: back from "Show me", the quiz lost an answer`));
  const back = await sco.locator('[data-testid=question]').getAttribute('data-id');
  if (back !== asked) problems.push(`SCORM ${version}: back from "Show me" at question ${back}, not ${asked}`);
  await page.close();
  // A first launch for a learner whose LMS keeps Vietnamese.
  const preference = v12 ? { student_preference: { language: 'vi' } } : { learner_preference: { language: 'vi' } };
  page = await lmsPage(browser, version, `${dir}/quiz.html`, preference, problems);
  sco = page.frameLocator('#sco');
  await sco.locator('[data-testid=quiz]').waitFor({ timeout: 20000 });
  const vi = JSON.parse(fs.readFileSync(path.join(__dirname, '../../static/i18n/vi.json'), 'utf8'));
  await sco.locator('[data-testid=quiz-check]').filter({ hasText: vi['quiz.check'] }).waitFor({ timeout: 10000 })
    .catch(() => problems.push(`SCORM ${version}: an LMS language preference of vi did not give Vietnamese`));
  const lang = await sco.locator('html').getAttribute('lang');
  if (lang !== 'vi') problems.push(`SCORM ${version}: the page's language is ${lang} under a vi preference`);
  await page.close();
  return 'relaunched from a scenario and back to the quiz, "Show me" and back, vi from the LMS';
}

async function scormChapter(browser, problems) {
  const page = await lmsPage(browser, '12', 'lms12/chapter-1.html', null, problems);
  const sco = page.frameLocator('#sco');
  await sco.locator('[data-testid=chapter]').waitFor({ timeout: 20000 });
  const ids = await sco.locator('[data-testid=chapter-scenario]').evaluateAll((els) => els.map((e) => e.dataset.id));
  for (const id of ids) {
    await sco.locator(`[data-testid=chapter-scenario][data-id="${id}"] a`).click();
    await sco.locator(`[data-testid=player][data-id="${id}"]`).waitFor({ timeout: 10000 });
    // As a learner: step on, answering each prediction prompt on the way.
    for (let i = 0; i < 400; i++) {
      const [n, m] = (await sco.locator('[data-testid=step-count]').innerText()).match(/\d+/g).map(Number);
      if (n === m) break;
      if (await sco.locator('[data-testid=prompt]').count()) {
        await sco.locator('[data-testid=prompt-option]').first().click();
        await sco.locator('[data-testid=prompt-continue]').click();
      } else {
        await sco.locator('[data-testid=step-forward]').click();
      }
    }
    await page.evaluate(() => { const f = document.getElementById('sco').contentWindow; f.location.hash = '#/'; });
    await sco.locator(`[data-testid=chapter-scenario][data-id="${id}"][data-done=true]`).waitFor({ timeout: 5000 });
  }
  const status = await page.evaluate(() => window.lmsApi.cmi.core.lesson_status);
  if (status !== 'completed') problems.push(`SCORM 1.2 chapter 1: status ${status} after all ${ids.length} scenarios`);
  await page.close();
  // Relaunched where the learner left, in a scenario: the way back to the chapter shows.
  for (const version of ['12', '2004']) {
    const where = `#/s/${ids[ids.length - 1]}?v=1&t=1000`;
    const resume = version === '12'
      ? { core: { lesson_status: 'incomplete', lesson_location: where, entry: 'resume' } }
      : { completion_status: 'incomplete', location: where, entry: 'resume' };
    const again = await lmsPage(browser, version, `lms${version}/chapter-1.html`, resume, problems);
    const frame = again.frameLocator('#sco');
    await frame.locator('[data-testid=player]').waitFor({ timeout: 20000 });
    // The way on stays inside the chapter: its last lesson leads nowhere further.
    const ways = await frame.locator('[data-testid=way-on] a').evaluateAll((as) => as.map((a) => a.dataset.testid + ' ' + a.getAttribute('href')));
    const outside = ways.filter((w) => !ids.some((id) => w.includes(`/s/${id}`)));
    if (outside.length || ways.some((w) => w.startsWith('next-lesson'))) problems.push(`SCORM ${version} chapter 1: the last lesson's way on leads ${ways.join(', ')}`);
    await frame.locator('[data-testid=course-back]').click();
    await frame.locator('[data-testid=chapter]').waitFor({ timeout: 5000 })
      .catch(() => problems.push(`SCORM ${version} chapter 1: relaunched in a scenario, no way back to the chapter`));
    await again.close();
  }
  return `SCORM 1.2 chapter 1: ${ids.length} scenarios seen to their end, ${status}; relaunched in a scenario, back to the chapter (1.2, 2004)`;
}

// A static server of the site, on a free port, that the check can stop.
function serve(dir) {
  const http = require('http');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json', '.txt': 'text/plain' };
  const server = http.createServer((req, res) => {
    let file = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (file.endsWith(path.sep) || file.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Load once, stop the server, and the player and the quiz still open: only the service
// worker can answer, with the HTTP cache disabled.
async function offline(browser, problems) {
  const server = await serve(path.join(siteDir, 'course/lesson/playground'));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(`${base}#/s/gc-pause-fenced`);
  await page.waitForSelector('[data-testid=player]', { timeout: 20000 });
  const cached = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) await new Promise((r) => setTimeout(r, 100));
    const keys = (await caches.keys()).filter((k) => k.startsWith('fencing-playground-'));
    const entries = keys.length ? (await (await caches.open(keys[0])).keys()).length : 0;
    return { active: !!registration.active, controlled: !!navigator.serviceWorker.controller, keys: keys.length, entries };
  });
  if (!cached.active || !cached.controlled || cached.keys !== 1 || cached.entries < 50) problems.push(`offline: the service worker did not take over: ${JSON.stringify(cached)}`);
  // close() waits for open connections, and the browser keeps them alive: end them too.
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await closed;
  const failed = [];
  page.on('requestfailed', (req) => failed.push(req.url()));
  await page.reload();
  await page.waitForSelector('[data-testid=player][data-id=gc-pause-fenced]', { timeout: 15000 });
  await page.goto(`${base}lab.html#/quiz`);
  await page.waitForSelector('[data-testid=quiz] [data-testid=quiz-option]', { timeout: 15000 });
  // A language pack, fetched for the first time while offline, comes from the cache too.
  await page.goto(`${base}#/?lang=vi`);
  await page.waitForFunction(() => document.querySelector('[data-testid=nav-explore]')?.textContent === 'Khám phá rủi ro' || document.querySelector('[data-testid=pack-failed]'), null, { timeout: 15000 });
  if (await page.locator('[data-testid=pack-failed]').count()) problems.push('offline: the Vietnamese pack did not load from the cache');
  if (failed.length) problems.push(`offline: requests failed: ${failed.slice(0, 3).join(' ')}`);
  await context.close();
  return `offline: ${cached.entries} files precached; with the server stopped the player, the quiz and a language pack opened`;
}

// The handout printed to PDF: pages, the story's text, and no controls; the player prints
// without its controls; a page that embeds the player prints the embed on its first page.
async function print(browser, problems) {
  const { execFileSync } = require('child_process');
  const tmp = fs.mkdtempSync(path.join(require('os').tmpdir(), 'handout-'));
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${url}lab.html#/handout/gc-pause-fenced`);
  await page.waitForSelector('[data-testid=handout] [data-testid=handout-story]', { timeout: 20000 });
  const stories = await page.locator('[data-testid=handout-story]').allInnerTexts();
  const pdf = path.join(tmp, 'handout.pdf');
  await page.pdf({ path: pdf, format: 'A4', printBackground: true });
  const pages = +execFileSync('pdfinfo', [pdf]).toString().match(/Pages:\s+(\d+)/)[1];
  const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString().replace(/\s+/g, ' ');
  if (pages < 1 || pages > stories.length + 2) problems.push(`the handout printed on ${pages} pages for ${stories.length} moments`);
  const words = (s) => s.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
  for (const story of stories) if (!text.includes(words(story))) problems.push(`the printed handout lacks "${words(story)}"`);
  if (text.includes('Print this handout')) problems.push('the printed handout shows its print button');
  const letter = path.join(tmp, 'handout-letter.pdf');
  await page.pdf({ path: letter, format: 'Letter' });
  const letterPages = +execFileSync('pdfinfo', [letter]).toString().match(/Pages:\s+(\d+)/)[1];
  // No printed text is smaller than 8 pt: each word's box is at least its font's size high.
  const smallest = (file) => Math.min(...[...execFileSync('pdftotext', ['-bbox', file, '-']).toString()
    .matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">/g)].map((m) => +m[2] - +m[1]));
  const tiny = smallest(pdf);
  if (!(tiny >= 8)) problems.push(`the handout prints text ${tiny.toFixed(1)} pt high (at least 8)`);
  // "Step through it yourself" opens the lesson at its start, so no prediction is skipped.
  const link = await page.locator('[data-testid=handout-link] a').getAttribute('href');
  if (/[?&]t=/.test(link)) problems.push(`the handout's link skips to a moment: ${link}`);
  // The worksheet: the predictions alone, the answers on a last page of their own.
  await page.locator('[data-testid=sheet-questions]').check();
  await page.waitForSelector('[data-testid=handout-key]', { timeout: 5000 });
  const asked = await page.locator('[data-testid=handout-question]').count();
  const sheet = path.join(tmp, 'worksheet.pdf');
  await page.pdf({ path: sheet, format: 'A4', printBackground: true });
  const sheetPages = +execFileSync('pdfinfo', [sheet]).toString().match(/Pages:\s+(\d+)/)[1];
  const last = execFileSync('pdftotext', ['-f', String(sheetPages), '-l', String(sheetPages), sheet, '-']).toString();
  const before = sheetPages > 1 ? execFileSync('pdftotext', ['-l', String(sheetPages - 1), sheet, '-']).toString() : '';
  if (asked < 1 || !/Teacher's key/.test(last) || /Teacher's key/.test(before) || /How it ends/.test(before)) {
    problems.push(`the worksheet: ${asked} predictions on ${sheetPages} pages; the key ${/Teacher's key/.test(last) ? 'last' : 'not last'}`);
  }
  for (const story of stories) if (before.replace(/\s+/g, ' ').includes(words(story))) problems.push(`the worksheet's questions show the story: "${words(story)}"`);
  // A later prediction starts a page of its own: its timeline would answer the earlier one.
  for (let n = 2; n <= asked; n++) {
    for (let p = 1; p < sheetPages; p++) {
      const onPage = execFileSync('pdftotext', ['-f', String(p), '-l', String(p), sheet, '-']).toString();
      if (onPage.includes(`Prediction ${n},`) && onPage.includes(`Prediction ${n - 1},`)) problems.push(`the worksheet prints predictions ${n - 1} and ${n} on one page`);
    }
  }
  const sheetTiny = smallest(sheet);
  if (!(sheetTiny >= 8)) problems.push(`the worksheet prints text ${sheetTiny.toFixed(1)} pt high`);
  // The player prints as a lesson: the story, no playback controls.
  await page.goto(`${url}#/s/gc-pause-fenced?v=1&t=40000&reveal=1`);
  await page.waitForSelector('[data-testid=player]', { timeout: 15000 });
  await page.emulateMedia({ media: 'print' });
  const shown = await page.evaluate(() => ({
    controls: [...document.querySelectorAll('.controls, .site-header, .side')].some((e) => e.offsetParent !== null),
    story: document.querySelector('[data-testid=narration]')?.offsetParent !== null,
  }));
  if (shown.controls || !shown.story) problems.push(`the player in print: ${JSON.stringify(shown)}`);
  await page.emulateMedia({ media: 'screen' });
  // A lesson page with an embed: the embed's content is on the first printed page.
  const embed = `${url}#/s/gc-pause-fenced?v=1&embed=1&t=40000`;
  await page.goto(`${siteUrl}host.html?src=${encodeURIComponent(embed)}`);
  await page.frameLocator('#frame').locator('[data-testid=player]').waitFor({ timeout: 15000 });
  const hostPdf = path.join(tmp, 'host.pdf');
  await page.pdf({ path: hostPdf, format: 'A4' });
  const first = execFileSync('pdftotext', ['-f', '1', '-l', '1', hostPdf, '-']).toString();
  if (!/GC pause/.test(first)) problems.push(`a page with an embed printed its first page without the embed: ${first.slice(0, 120)}`);
  await page.close();
  return `print: the handout is ${pages} A4 pages (${letterPages} Letter) with all ${stories.length} paragraphs, no controls and no text under ${tiny.toFixed(1)} pt; the worksheet ${asked} predictions on ${sheetPages} pages with the key last; the player prints without controls; an embed prints on page 1`;
}


// embed.js on a page of another origin: one element loads near the viewport and is sized
// by the player's resize messages, one waits for a click, one far below waits for a scroll.
async function embedScript(browser, problems) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (err) => problems.push(`embed.js page error: ${err.message}`));
  const host = new URL('embedjs.html', courseUrl).href;
  await page.goto(`${host}?app=${encodeURIComponent(url)}`);
  await page.waitForFunction(() => window.events.some((e) => e.id === 'near' && e.type === 'ready'), null, { timeout: 20000 });
  await page.waitForFunction(() => window.events.some((e) => e.id === 'near' && e.type === 'resize'), null, { timeout: 10000 });
  const sized = await page.evaluate(() => {
    const resized = window.events.filter((e) => e.id === 'near' && e.type === 'resize').pop();
    return { reported: resized.height, shown: document.querySelector('#near iframe').getBoundingClientRect().height };
  });
  if (Math.abs(sized.reported - sized.shown) > 1 || sized.reported < 300) problems.push(`embed.js sizing: ${JSON.stringify(sized)}`);
  const clock = await page.frameLocator('#near iframe').locator('[data-testid=clock]').innerText();
  if (clock !== '31.500 s') problems.push(`embed.js: data-t=31500 opened at ${clock}`);
  if (await page.locator('#click iframe').count() !== 0) problems.push('embed.js: the click-to-load element loaded without a click');
  if (await page.locator('#far iframe').count() !== 0) problems.push('embed.js: the element far below loaded before it came near');
  await page.locator('#click button').click();
  await page.waitForFunction(() => window.events.some((e) => e.id === 'click' && e.type === 'ready'), null, { timeout: 20000 });
  await page.locator('#far').scrollIntoViewIfNeeded();
  await page.waitForSelector('#far iframe', { timeout: 5000 });
  await page.close();
  return `embed.js: lazy, click-to-load and sized (${sized.reported} px) on another origin`;
}

// The README's embed snippet, run as written (only the playground's address and the
// course page's origin replaced by this check's), with its two embeds on one page.
async function readmeSnippet(browser, problems) {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const block = readme.split('<!-- snippet: embeds')[1].split('```html\n')[1].split('```')[0];
  const hostOrigin = new URL(courseUrl).origin;
  const app = new URL(url);
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>README snippet</title><link rel="icon" href="data:,"></head><body>'
    + block.replaceAll('https://example.org/playground/', url)
      .replaceAll('https%3A%2F%2Fcourse.example.org', encodeURIComponent(hostOrigin))
      .replaceAll("'https://example.org'", `'${app.origin}'`)
    + '</body></html>';
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (err) => problems.push(`README snippet page error: ${err.message}`));
  // Written into the served folder (a page fulfilled by the test itself counts as public
  // and may not frame a loopback address).
  fs.writeFileSync(path.join(siteDir, 'readme-snippet.html'), html);
  await page.goto(`${hostOrigin}/readme-snippet.html`);
  await page.waitForFunction(() => window.received.filter((m) => m.type === 'ready').length === 2, null, { timeout: 20000 });
  const first = page.frameLocator('iframe >> nth=0');
  await first.locator('[data-testid=clock]').filter({ hasText: '31.500 s' }).waitFor({ timeout: 10000 })
    .catch(() => problems.push('the README snippet did not seek its first embed'));
  // A lesson the host loads later starts at its beginning: the snippet seeks only once.
  await page.evaluate((origin) => document.querySelector('iframe.fencing-playground').contentWindow.postMessage(
    JSON.stringify({ protocol: 'fencing-playground', version: 1, type: 'load-scenario', id: 'gc-pause-unfenced' }), origin), app.origin);
  await page.waitForFunction(() => window.received.filter((m) => m.type === 'ready').length === 3, null, { timeout: 20000 });
  await first.locator('[data-testid=player][data-id=gc-pause-unfenced]').waitFor({ timeout: 10000 });
  await page.waitForTimeout(300);
  const loaded = await first.locator('[data-testid=clock]').innerText();
  if (loaded.includes('31.500')) problems.push(`the README snippet sought a lesson the host loaded later (${loaded})`);
  await page.waitForFunction(() => window.received.filter((m) => m.type === 'resize').length >= 2, null, { timeout: 10000 });
  const sized = await page.evaluate(() => [...document.querySelectorAll('iframe.fencing-playground')].map((f) => {
    const last = window.received.filter((m) => m.type === 'resize' && m.frame === (f.src.includes('quiz') ? 'quiz' : 'first')).pop();
    return { frame: last && last.frame, reported: last && last.height, shown: Math.round(f.getBoundingClientRect().height) };
  }));
  for (const s of sized) if (!s.reported || Math.abs(s.reported - s.shown) > 1) problems.push(`README snippet sizing: ${JSON.stringify(sized)}`);
  // At phone width the snippet's page does not scroll sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.waitForTimeout(300);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > 360) problems.push(`the README snippet's page scrolls sideways at 360 px (${width} px)`);
  await page.close();
  return `README snippet: two embeds told apart by event.source and frame=, seek after ready, sized ${sized.map((s) => s.reported).join('/')} px`;
}

// The Moodle and Canvas guide's snippets, each run as written (only the playground's address
// replaced) in a page that behaves as the platform's does: a Canvas page listens for
// lti.frameResize, a Moodle page without H5P for nothing, and a page that keeps scripts
// runs embed.js. The heights the guide gives are checked against what the player reports.
async function guideSnippets(browser, problems) {
  const guide = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'moodle-and-canvas.md'), 'utf8');
  const block = (name) => guide.split(`<!-- snippet: ${name}`)[1].split('```html\n')[1].split('```')[0].replaceAll('https://example.org/playground/', url);
  const hostOrigin = new URL(courseUrl).origin;
  const canvasListener = `<script>addEventListener('message', (e) => { let d; try { d = JSON.parse(e.data); } catch { return; }
    if (!d || d.subject !== 'lti.frameResize') return;
    for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) { f.style.height = d.height + 'px'; window.sized = d.height; } });</script>`;
  const open = async (name, body) => {
    fs.writeFileSync(path.join(siteDir, `guide-${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (err) => problems.push(`guide snippet ${name}: ${err.message}`));
    await page.goto(`${hostOrigin}/guide-${name}.html`);
    return page;
  };
  const said = (text) => Number(guide.match(text)[1].replace(',', ''));
  // Canvas: the compact player sizes its iframe through lti.frameResize, within the guide's height.
  let page = await open('canvas-page', canvasListener + block('canvas-page'));
  await page.waitForFunction(() => window.sized > 0, null, { timeout: 20000 })
    .catch(() => problems.push('guide: the Canvas snippet was never sized by lti.frameResize'));
  const canvas = await page.evaluate(() => ({ sized: window.sized, shown: Math.round(document.querySelector('iframe').getBoundingClientRect().height) }));
  const compact = said(/([\d,]+) px with `controls=compact`/);
  if (canvas.sized !== canvas.shown || canvas.sized > compact) problems.push(`guide: the Canvas snippet's player is ${JSON.stringify(canvas)} px, the guide says ${compact}`);
  await page.close();
  // Moodle without H5P: nothing sizes the frame, so the guide's height must hold the quiz.
  page = await open('moodle-page', block('moodle-page'));
  await page.frameLocator('iframe').locator('[data-testid=quiz]').waitFor({ timeout: 20000 });
  const needed = await page.frames().find((f) => f.url().includes('quiz')).evaluate(() => document.body.scrollHeight);
  const quizHeight = said(/and ([\d,]+) px for the quiz/);
  if (needed > quizHeight) problems.push(`guide: the quiz needs ${needed} px, the guide gives ${quizHeight}`);
  await page.close();
  // embed.js where scripts are kept.
  page = await open('embed-js', block('embed-js'));
  await page.waitForFunction(() => { const f = document.querySelector('iframe'); return f && f.getBoundingClientRect().height !== 480; }, null, { timeout: 20000 })
    .catch(() => problems.push('guide: the embed.js snippet did not size its frame'));
  await page.close();
  return `guide snippets: Canvas page sized to ${canvas.sized} px (guide: up to ${compact}), Moodle page's quiz needs ${needed} px (guide: ${quizHeight}), embed.js sized`;
}

// A check that hangs fails the stage instead of holding CI until its time limit.
setTimeout(() => {
  console.error('lms: the checks took more than 8 minutes; stopped');
  process.exit(1);
}, 8 * 60 * 1000).unref();

(async () => {
  const problems = [];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    // Each check reports as it ends, so a stuck one is easy to tell.
    for (const check of [
      () => twoEmbeds(browser, problems),
      () => playerStatements(browser, problems),
      () => challengeStatements(browser, problems),
      () => scormQuiz(browser, '12', problems),
      () => scormQuiz(browser, '2004', problems),
      () => scormChapter(browser, problems),
      () => scormChallenges(browser, '12', problems),
      () => scormChallenges(browser, '2004', problems),
      () => cmi5Quiz(browser, problems),
      () => offline(browser, problems),
      () => print(browser, problems),
      () => embedScript(browser, problems),
      () => readmeSnippet(browser, problems),
      () => guideSnippets(browser, problems),
    ]) {
      const line = await check();
      console.log(`lms: ${line}`);
    }
  } catch (err) {
    problems.push(`check failed: ${err.stack || err.message}`);
  } finally {
    await browser.close();
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`lms: ${p}`);
    process.exit(1);
  }
})();
