import { escapeHtml } from './http-helpers.js';
import type { Session } from './sessions.js';
import type { DemoStore, Project } from './store.js';

function layout(title: string, session: Session | undefined, body: string, script = ''): string {
  const csrf = session ? `<meta name="csrf-token" content="${session.csrf}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Demo TMS</title>${csrf}
<style>body{font-family:sans-serif;margin:2rem;max-width:48rem}li{margin:.2rem 0}.error{color:#b00}</style></head>
<body><nav><a href="/projects">Projects</a>${session ? ` · signed in as ${escapeHtml(session.email)}` : ''}</nav>
<h1>${escapeHtml(title)}</h1>${body}
<script>
const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
async function api(method, path, body) {
  const response = await fetch(path, { method, headers: { 'content-type': 'application/json', 'x-csrf-token': csrf() }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) document.querySelector('#message').textContent = (data && (data.error + (data.errors ? ': ' + JSON.stringify(data.errors) : ''))) || response.status;
  else document.querySelector('#message').textContent = 'Saved.';
  return { response, data };
}
${script}
</script></body></html>`;
}

export function loginPage(error?: string): string {
  return layout(
    'Sign in',
    undefined,
    `${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/login">
<label>Email <input name="email" type="email" value="demo@tally.test"></label>
<label>Password <input name="password" type="password"></label>
<button type="submit" id="sign-in">Sign in</button></form>`,
  );
}

export function projectsPage(store: DemoStore, session: Session): string {
  const items = store.projects
    .map((project) => `<li><a href="/projects/${project.slug}">${escapeHtml(project.name)}</a></li>`)
    .join('');
  return layout('Projects', session, `<ul id="projects">${items}</ul><p id="message"></p>`);
}

export function projectPage(project: Project, session: Session): string {
  const milestones = project.milestones_enabled
    ? `<li><a href="/projects/${project.slug}/milestones">Milestones</a></li>`
    : '';
  return layout(
    project.name,
    session,
    `<ul><li><a href="/projects/${project.slug}/suites">Suites</a></li>${milestones}</ul><p id="message"></p>`,
  );
}

export function suitesPage(project: Project, session: Session): string {
  return layout(
    `${project.name}: suites`,
    session,
    `<ul id="suites"></ul>
<form id="new-suite"><input id="suite-title" placeholder="Suite title"><button type="submit" id="create-suite">New suite</button></form>
<p id="message"></p>`,
    `const slug = ${JSON.stringify(project.slug)};
async function load() {
  const response = await fetch('/api/' + slug + '/suites');
  const { data } = await response.json();
  document.querySelector('#suites').innerHTML = data.map((s) => '<li><a href="/projects/' + slug + '/suites/' + s.id + '">' + s.title.replace(/</g, '&lt;') + '</a></li>').join('');
}
document.querySelector('#new-suite').addEventListener('submit', async (event) => {
  event.preventDefault();
  await api('POST', '/api/' + slug + '/suites', { title: document.querySelector('#suite-title').value, description: '' });
  await load();
});
load();`,
  );
}

export function suitePage(project: Project, suiteId: number, session: Session): string {
  return layout(
    `${project.name}: suite ${suiteId}`,
    session,
    `<ul id="tests"></ul>
<form id="new-test"><input id="test-title" placeholder="Test title">
<select id="test-priority"><option>normal</option><option>high</option><option>low</option></select>
<button type="submit" id="create-test">New test</button></form>
<button id="move-top">Move suite to top</button> <button id="delete-first-test">Delete first test</button>
<p id="message"></p>`,
    `const slug = ${JSON.stringify(project.slug)}; const suiteId = ${suiteId};
async function load() {
  const response = await fetch('/api/' + slug + '/tests?suite_id=' + suiteId);
  const { data } = await response.json();
  document.querySelector('#tests').innerHTML = data.map((t) => '<li data-id="' + t.id + '">' + t.title.replace(/</g, '&lt;') + '</li>').join('');
}
document.querySelector('#new-test').addEventListener('submit', async (event) => {
  event.preventDefault();
  await api('POST', '/api/' + slug + '/tests', { title: document.querySelector('#test-title').value, suite_id: suiteId, priority: document.querySelector('#test-priority').value });
  await load();
});
document.querySelector('#move-top').addEventListener('click', () => api('POST', '/api/' + slug + '/suites/' + suiteId + '/move', { position: 1 }));
document.querySelector('#delete-first-test').addEventListener('click', async () => {
  const first = document.querySelector('#tests li');
  if (first) await api('DELETE', '/api/' + slug + '/tests/' + first.dataset.id);
  await load();
});
load();`,
  );
}

export function milestonesPage(project: Project, session: Session): string {
  return layout(
    `${project.name}: milestones`,
    session,
    `<ul id="milestones"></ul>
<form id="new-milestone"><input id="milestone-title" placeholder="Milestone title"><input id="milestone-due" placeholder="YYYY-MM-DD">
<button type="submit" id="create-milestone">New milestone</button></form>
<p id="message"></p>`,
    `const slug = ${JSON.stringify(project.slug)};
async function load() {
  const response = await fetch('/api/' + slug + '/milestones');
  const { data } = await response.json();
  document.querySelector('#milestones').innerHTML = data.map((m) => '<li>' + m.title.replace(/</g, '&lt;') + '</li>').join('');
}
document.querySelector('#new-milestone').addEventListener('submit', async (event) => {
  event.preventDefault();
  const due = document.querySelector('#milestone-due').value;
  await api('POST', '/api/' + slug + '/milestones', { title: document.querySelector('#milestone-title').value, due_date: due || null });
  await load();
});
load();`,
  );
}
