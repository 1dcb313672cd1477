// Reference peer for the Fisherman bench: the node-http-loop.mjs script of the shared bench peer folder (../shared/bench/peer)
// written with `fetch` (undici) instead of node:http, as many users would. Same requests: form
// login, CSRF page, one POST per entity, sequentially. Usage: node fetch-loop.mjs BASE_URL S T
const [base, S, T] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const login = await fetch(`${base}/login`, {
  method: 'POST',
  redirect: 'manual',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'email=demo%40tally.test&password=demo-password',
});
await login.arrayBuffer();
const cookie = login.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
const page = await (await fetch(`${base}/projects`, { headers: { cookie } })).text();
const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)[1];
const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };
const post = async (path, body) => {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`${path} → ${response.status}`);
  return JSON.parse(text).data.id;
};
let n = 0;
const tag = Math.random().toString(16).slice(2, 8);
for (let s = 1; s <= S; s++) {
  const id = await post('/api/alpha-shop/suites', { title: `Fetch ${s} ${tag}`, description: '' });
  n++;
  for (let t = 1; t <= T; t++) {
    await post('/api/alpha-shop/tests', {
      title: `Fetch ${s}.${t} ${tag}`,
      suite_id: id,
      priority: 'normal',
    });
    n++;
  }
}
console.log(`created ${n}`);
