// A small LRS and cmi5 LMS back end for the end-to-end check, on 127.0.0.1: it hands out
// one auth token per launch (POST to the fetch URL), serves the LMS.LaunchData state
// document, and records every statement an AU posts, each checked as it arrives: the
// token and the xAPI version header present, and the statement valid for Learning
// Locker's validator. It answers cross-origin requests, as an LRS a browser talks to must.
'use strict';
const http = require('http');
const validate = require('@learninglocker/xapi-validation').default;

function start(launchData) {
  const lrs = { statements: [], problems: [], fetched: 0, launchDataReads: 0 };
  const token = Buffer.from('fencing-au:one-launch').toString('base64');
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'Authorization, Content-Type, X-Experience-API-Version',
    'access-control-allow-methods': 'GET, POST, PUT, OPTIONS',
  };
  const reply = (res, status, body) => {
    res.writeHead(status, { ...cors, 'content-type': 'application/json', 'x-experience-api-version': '1.0.3' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://lrs');
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      if (req.method === 'OPTIONS') return reply(res, 204);
      if (url.pathname === '/fetch') {
        // cmi5: the fetch URL gives a token once; a second request is an error.
        lrs.fetched++;
        if (req.method !== 'POST') lrs.problems.push(`the fetch URL was requested with ${req.method}`);
        return reply(res, 200, lrs.fetched === 1 ? { 'auth-token': token } : { 'error-code': '1', 'error-text': 'already fetched' });
      }
      const authorized = req.headers.authorization === `Basic ${token}`;
      if (!authorized) lrs.problems.push(`${req.method} ${url.pathname} without the launch's token`);
      if (req.headers['x-experience-api-version'] !== '1.0.3') lrs.problems.push(`${req.method} ${url.pathname} without X-Experience-API-Version`);
      if (url.pathname === '/xapi/activities/state' && req.method === 'GET') {
        lrs.launchDataReads++;
        const want = { stateId: 'LMS.LaunchData', registration: launchData.registration, activityId: launchData.activityId };
        for (const [k, v] of Object.entries(want)) if (url.searchParams.get(k) !== v) lrs.problems.push(`LMS.LaunchData asked with ${k}=${url.searchParams.get(k)}`);
        if (url.searchParams.get('agent') !== launchData.actor) lrs.problems.push(`LMS.LaunchData asked for agent ${url.searchParams.get('agent')}`);
        return reply(res, 200, launchData.document);
      }
      if (url.pathname === '/xapi/statements' && (req.method === 'POST' || req.method === 'PUT')) {
        let parsed;
        try { parsed = JSON.parse(body); } catch { lrs.problems.push(`a statement that is not JSON: ${body.slice(0, 100)}`); return reply(res, 400); }
        const list = Array.isArray(parsed) ? parsed : [parsed];
        for (const statement of list) {
          const warnings = validate(statement);
          if (warnings.length) lrs.problems.push(`an invalid statement (${warnings.length} warnings): ${JSON.stringify(statement).slice(0, 200)}`);
          lrs.statements.push(statement);
        }
        return reply(res, 200, list.map((s) => s.id));
      }
      lrs.problems.push(`an unexpected request: ${req.method} ${url.pathname}`);
      return reply(res, 404);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    lrs.base = `http://127.0.0.1:${server.address().port}`;
    lrs.close = () => { server.closeAllConnections(); return new Promise((r) => server.close(r)); };
    resolve(lrs);
  }));
}

module.exports = { start };
