/** The chat page: no external assets, one stylesheet and one script served by the same server. */
export function chatPageHtml(token: string, root: string): string {
  const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="tally-token" content="${escapeHtml(token)}">
<title>tally code</title>
<link rel="stylesheet" href="/chat.css">
</head>
<body>
<header><strong>tally code</strong> <span id="root">${escapeHtml(root)}</span> <span id="chat-id"></span></header>
<main id="log" aria-live="polite"></main>
<form id="composer">
<textarea id="message" rows="2" placeholder="Ask the Coder…" required></textarea>
<button id="send" type="submit">Send</button>
</form>
<script src="/chat.js"></script>
</body>
</html>
`;
}

export const CHAT_CSS = `
body { font-family: system-ui, sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; background: #f6f7f9; color: #1d2330; }
header { padding: .6rem 1rem; background: #1d2330; color: #fff; font-size: .9rem; }
header span { opacity: .75; margin-left: .6rem; font-family: ui-monospace, monospace; }
#log { flex: 1; overflow-y: auto; padding: 1rem; }
.turn { margin-bottom: 1.2rem; }
.user, .assistant { padding: .6rem .8rem; border-radius: .5rem; margin: .3rem 0; white-space: pre-wrap; max-width: 52rem; }
.user { background: #dbe7ff; margin-left: auto; }
.assistant { background: #fff; border: 1px solid #dde1e8; }
.tool-call { font-family: ui-monospace, monospace; font-size: .8rem; margin: .2rem 0; padding: .25rem .5rem; border-left: 3px solid #4a8; background: #eef7f1; }
.tool-call.error { border-color: #d64; background: #fdf0ec; }
.tool-call.refused { border-color: #c90; background: #fff8e6; }
.tool-call .via { color: #567; }
.notice { font-size: .8rem; color: #745; font-style: italic; margin: .2rem 0; }
.changes { border-collapse: collapse; font-size: .85rem; margin: .4rem 0; background: #fff; }
.changes caption { text-align: left; font-weight: 600; padding: .2rem 0; }
.changes th, .changes td { border: 1px solid #dde1e8; padding: .2rem .5rem; font-family: ui-monospace, monospace; text-align: left; }
.flag { color: #b22; font-weight: 600; margin: .2rem 0; }
.recovery { color: #a40; margin: .2rem 0; }
.meta { font-size: .75rem; color: #889; }
#composer { display: flex; gap: .5rem; padding: .8rem 1rem; background: #fff; border-top: 1px solid #dde1e8; }
#message { flex: 1; font: inherit; padding: .4rem; }
#send { padding: .4rem 1.2rem; font: inherit; }
`;

/**
 * The page's SSE frame reader: lines split on \n only (a regex `.`/`$` also stops at
 * U+2028/U+2029), a frame that does not parse is skipped, never the end of the stream.
 */
export const PARSE_FRAME_JS = `function parseFrame(block) {
  let name;
  let data;
  for (const line of block.split('\\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data = line.slice(6);
  }
  if (!name || data === undefined) return undefined;
  try {
    return { name, data: JSON.parse(data) };
  } catch {
    return undefined;
  }
}`;

/**
 * The page's script. Everything from the server is written with textContent, never as HTML:
 * a file name or a model reply cannot inject markup into the page.
 */
export const CHAT_JS = `'use strict';
${PARSE_FRAME_JS}
const token = document.querySelector('meta[name=tally-token]').content;
const log = document.getElementById('log');
const form = document.getElementById('composer');
const input = document.getElementById('message');
const send = document.getElementById('send');
const session = {};

function add(parent, tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  parent.appendChild(element);
  log.scrollTop = log.scrollHeight;
  return element;
}

function showToolCall(turn, event) {
  const refused = event.outcome === 'rejected';
  const line = add(turn, 'div', 'tool-call ' + (refused ? 'refused' : event.outcome === 'ok' ? 'ok' : 'error'));
  line.dataset.tool = event.tool;
  line.dataset.outcome = event.outcome;
  const head = event.tool + (event.target && event.target !== event.tool ? ' ' + event.target : '');
  add(line, 'span', 'call', (refused ? 'refused: ' : '') + head + ' → ' + event.outcome);
  if (event.error) add(line, 'div', 'why', event.error.code + ': ' + event.error.message);
  if (event.via) add(line, 'div', 'via', 'via ' + event.via);
}

function showEnd(turn, result, statusLine, flagLines) {
  session.chatId = result.chatId;
  document.getElementById('chat-id').textContent = 'chat ' + result.chatId;
  if (result.recovery) add(turn, 'div', 'recovery', 'Turn ended: ' + result.recovery.reason + '. ' + result.recovery.summary);
  const table = add(turn, 'table', 'changes');
  add(table, 'caption', '', result.changes.length ? 'Changes this turn' : 'No files changed in this turn.');
  if (result.changes.length) {
    const header = add(table, 'tr');
    for (const name of ['path', 'change', 'bytes', 'sha256']) add(header, 'th', '', name);
    for (const change of result.changes) {
      const row = add(table, 'tr');
      row.dataset.path = change.path;
      add(row, 'td', '', change.from ? change.from + ' → ' + change.path : change.path);
      add(row, 'td', '', change.change);
      add(row, 'td', '', change.bytes === undefined ? '-' : String(change.bytes));
      add(row, 'td', '', change.sha256 || '-');
    }
  }
  // Each flag in the one sentence form the terminal and the report print (sent by the server).
  for (const line of flagLines || []) add(turn, 'div', 'flag', 'FLAGGED: ' + line + '.');
  if (result.decisions) {
    for (const record of result.decisions.records) add(turn, 'div', 'notice', 'Decision recorded: ' + record.title + ' (' + record.path + ')');
    if (result.decisions.note) add(turn, 'div', 'notice', result.decisions.note);
  }
  // The verdict the ledger's end entry holds: a partial or failed turn never reads as done.
  if (statusLine) add(turn, 'div', 'flag status', statusLine);
  add(turn, 'div', 'meta', 'chat ' + result.chatId + ' · turn ' + result.turn + ' · run ' + result.runId + ' · ' + result.status + ' · ' + result.endingReason);
}

function handle(turn, state, name, data) {
  if (name === 'text') {
    if (!state.reply) state.reply = add(turn, 'div', 'assistant');
    state.reply.textContent += (state.reply.textContent ? '\\n\\n' : '') + data.text;
  } else if (name === 'tool-call') {
    showToolCall(turn, data);
    state.reply = undefined;
  } else if (name === 'nudge') add(turn, 'div', 'notice', 'Nudge (' + data.why + '): ' + data.text);
  else if (name === 'guard') add(turn, 'div', 'notice', 'Guard ' + data.guard + ': ' + data.action);
  else if (name === 'turn-end') showEnd(turn, data.result, data.statusLine, data.flagLines);
  else if (name === 'error') add(turn, 'div', 'flag', 'Error ' + data.code + ': ' + data.message);
}

async function sendMessage(message) {
  const turn = add(log, 'section', 'turn');
  add(turn, 'div', 'user', message);
  const state = {};
  const response = await fetch('/api/turn', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tally-token': token },
    body: JSON.stringify(session.chatId ? { message, chatId: session.chatId } : { message }),
  });
  if (!response.ok || !response.body) {
    const body = await response.json().catch(() => ({ code: 'HTTP_' + response.status, message: response.statusText }));
    handle(turn, state, 'error', body);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\\n\\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame = parseFrame(block);
      if (frame) handle(turn, state, frame.name, frame.data);
    }
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message) return;
  input.value = '';
  send.disabled = true;
  document.body.dataset.busy = 'true';
  try {
    await sendMessage(message);
  } finally {
    send.disabled = false;
    document.body.dataset.busy = 'false';
    input.focus();
  }
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});
`;
