// Drives check-names.html in headless Chromium over the DevTools protocol (on a pipe: fds 3 and
// 4, JSON messages ended by a NUL), as a user would: opens the page from disk (offline: the
// reader is inside it), chooses a filter file in the form, types names, clicks Check, and reads
// the table. Each answer must be what the sqlite3 shell's bloom_might_contain answered
// (expected.txt: file|name|0 or 1), for a 'blocked' and a 'fuse' filter; a file that is no
// filter must show the shell's message (expected_error.txt). No exception, no console error.
// Run by run_chromium.sh.
// Usage: node chromium.js CHROMIUM PAGE SCRATCH_DIR
'use strict';
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const [chromiumPath, pagePath, scratch] = process.argv.slice(2);
const TIMEOUT_MS = 45000;

const chromium = spawn(chromiumPath, [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
  '--remote-debugging-pipe', `--user-data-dir=${path.join(scratch, 'profile')}`, 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let chromiumLog = '';
chromium.stderr.on('data', (chunk) => { chromiumLog = (chromiumLog + chunk).slice(-4000); });
const toChromium = chromium.stdio[3];
const fromChromium = chromium.stdio[4];

const timer = setTimeout(() => {
  console.error(`no result in ${TIMEOUT_MS / 1000} s; Chromium's last words:\n${chromiumLog}`);
  chromium.kill('SIGKILL');
  process.exit(1);
}, TIMEOUT_MS);

// The protocol: commands by id, events to whoever waits for them.
let nextId = 1;
const pending = new Map();
const eventWaiters = [];
const problems = [];
let received = '';
fromChromium.on('data', (chunk) => {
  received += chunk.toString('utf8');
  let end;
  while ((end = received.indexOf('\0')) >= 0) {
    const message = JSON.parse(received.slice(0, end));
    received = received.slice(end + 1);
    if (message.id !== undefined) {
      const { resolve, reject, method } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) {
        reject(new Error(`${method}: ${message.error.message}`));
      } else {
        resolve(message.result);
      }
      continue;
    }
    if (message.method === 'Runtime.exceptionThrown') {
      problems.push(`exception: ${JSON.stringify(message.params.exceptionDetails)}`);
    } else if (message.method === 'Runtime.consoleAPICalled' && message.params.type === 'error') {
      problems.push(`console.error: ${JSON.stringify(message.params.args)}`);
    }
    for (const waiter of [...eventWaiters]) {
      if (waiter.method === message.method) {
        eventWaiters.splice(eventWaiters.indexOf(waiter), 1);
        waiter.resolve(message.params);
      }
    }
  }
});

function send(method, params = {}, sessionId = undefined) {
  const id = nextId++;
  const message = sessionId === undefined ? { id, method, params } : { id, method, params, sessionId };
  toChromium.write(`${JSON.stringify(message)}\0`);
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}

function nextEvent(method) {
  return new Promise((resolve) => eventWaiters.push({ method, resolve }));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await page('Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true });
    assert.ok(exceptionDetails === undefined, `${expression}: ${JSON.stringify(exceptionDetails)}`);
    return result.value;
  };
  const waitFor = async (expression, what) => {
    for (let i = 0; i < 200; i++) {
      if (await evaluate(expression)) {
        return;
      }
      await sleep(50);
    }
    throw new Error(`waited 10 s for ${what}`);
  };
  const node = async (selector) => {
    const { root } = await page('DOM.getDocument', { depth: 0 });
    const { nodeId } = await page('DOM.querySelector', { nodeId: root.nodeId, selector });
    assert.ok(nodeId > 0, `no ${selector} in the page`);
    return nodeId;
  };
  // A click in the middle of the element, as a mouse makes it.
  const click = async (selector) => {
    const { model } = await page('DOM.getBoxModel', { nodeId: await node(selector) });
    const [x1, y1, , , x3, y3] = model.content;
    const at = { x: (x1 + x3) / 2, y: (y1 + y3) / 2, button: 'left', clickCount: 1 };
    await page('Input.dispatchMouseEvent', { type: 'mousePressed', ...at });
    await page('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at });
  };
  const status = () => evaluate("document.getElementById('filter-status').textContent");

  await page('Runtime.enable');
  await page('Page.enable');
  const loaded = nextEvent('Page.loadEventFired');
  await page('Page.navigate', { url: pathToFileURL(pagePath).href });
  await loaded;
  assert.strictEqual(await status(), 'No filter chosen.');

  // The names, typed into the form.
  const typed = fs.readFileSync(path.join(scratch, 'typed.txt'), 'utf8').replace(/\n$/, '');
  await page('DOM.focus', { nodeId: await node('#names') });
  await page('Input.insertText', { text: typed });
  assert.strictEqual(await evaluate("document.getElementById('names').value"), typed);

  // Checking before a filter is chosen says so.
  await click('#check-button');
  await waitFor("document.getElementById('filter-status').className === 'error'", 'an error');
  assert.strictEqual(await status(), 'Choose a filter file first.');

  const expected = fs.readFileSync(path.join(scratch, 'expected.txt'), 'utf8').trim().split('\n')
    .map((line) => line.split('|'));
  let answers = 0;
  for (const [file, layout] of [['names.bloom', 'blocked'], ['names.fuse', 'fuse']]) {
    await page('DOM.setFileInputFiles', { nodeId: await node('#filter-file'), files: [path.join(scratch, file)] });
    await waitFor(`document.getElementById('filter-status').textContent.startsWith('${file}:')`, `${file} read`);
    const bytes = fs.statSync(path.join(scratch, file)).size;
    assert.strictEqual(await status(), `${file}: a '${layout}' filter of ${bytes} bytes holding 505 keys.`);
    await click('#check-button');
    await waitFor("!document.getElementById('answers').hidden", 'the answers');
    const rows = await evaluate(`[...document.querySelectorAll('#answers tbody tr')]
      .map((row) => [row.cells[0].textContent, row.cells[1].textContent])`);
    const want = expected.filter(([f]) => f === file)
      .map(([, name, answer]) => [name, answer === '1' ? 'maybe in the set' : 'not in the set']);
    assert.deepStrictEqual(rows, want, file);
    assert.ok(rows.filter(([, answer]) => answer === 'maybe in the set').length >= 7, 'the 7 names it holds');
    console.log(`${file}: ${rows.length} names typed, each answered as bloom_might_contain in the sqlite3 shell`);
    answers += rows.length;
  }

  // A file that is no filter: the extension's message, and no answers.
  await page('DOM.setFileInputFiles', { nodeId: await node('#filter-file'), files: [path.join(scratch, 'notes.txt')] });
  await waitFor("document.getElementById('filter-status').textContent.startsWith('notes.txt:')", 'notes.txt read');
  const message = fs.readFileSync(path.join(scratch, 'expected_error.txt'), 'utf8').trim();
  assert.strictEqual(await status(), `notes.txt: ${message}`);
  assert.strictEqual(await evaluate("document.getElementById('answers').hidden"), true);
  console.log(`notes.txt: "${message}", as in the sqlite3 shell`);

  assert.deepStrictEqual(problems, []);
  const version = await send('Browser.getVersion');
  console.log(`${version.product}: ${answers} answers in the page, offline, from ${path.basename(pagePath)}`);
  await send('Browser.close');
}

main().then(() => {
  clearTimeout(timer);
  chromium.kill();
}, (error) => {
  console.error(error.stack);
  console.error(`Chromium's last words:\n${chromiumLog}`);
  chromium.kill('SIGKILL');
  process.exit(1);
});
