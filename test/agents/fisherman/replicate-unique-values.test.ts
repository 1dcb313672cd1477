// Replicate mode replays captured bodies. A server that refuses a second account with the
// same email, username or slug (409) must still get N distinct creates — and a second run must
// not collide with the first — while everything else is replayed as captured.
import { afterEach, describe, expect, it } from 'vitest';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { freshenExample } from '../../../src/packs/http/endpoints/freshen-example.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { harEntry, writeHar } from '../../packs/http/har-fixtures.js';
import { json, localServer } from '../../packs/http/local-server.js';

const UNIQUE = ['email', 'username', 'slug', 'code'] as const;

async function accountsServer() {
  const accounts: Record<string, unknown>[] = [];
  const server = await localServer((seen, res) => {
    const body = seen.body ? (JSON.parse(seen.body) as Record<string, unknown>) : {};
    if (seen.method === 'POST' && seen.url === '/api/accounts') {
      const taken = UNIQUE.find(
        (field) => body[field] !== undefined && accounts.some((account) => account[field] === body[field]),
      );
      if (taken) return json(res, 409, { error: `${taken} "${String(body[taken])}" is already taken` });
      if (!/^[^@\s]+@[^@\s]+\.[a-z]+$/.test(String(body.email)))
        return json(res, 422, { error: 'bad email' });
      const account = { id: accounts.length + 1, ...body };
      accounts.push(account);
      return json(res, 201, account);
    }
    if (seen.method === 'GET' && seen.url.startsWith('/api/accounts')) return json(res, 200, accounts);
    return json(res, 404, { error: 'not found' });
  });
  return { server, accounts };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('captured bodies replayed with values of their own', () => {
  it('freshenExample: emails keep their mailbox and domain, codes their case, other fields stay', () => {
    const captured = {
      title: 'Old',
      email: 'ada+old@example.org',
      username: 'ada',
      slug: 'ada-lovelace',
      code: 'ACC42',
      first_name: 'Ada',
      country_code: 'GB',
      role: 'admin',
      profile: { contact_email: 'ada@example.org', bio: 'hi' },
      tags: ['x'],
    };
    const one = freshenExample(captured, 'Account 1 · r1', { run: 'r1', serial: 1 });
    const two = freshenExample(captured, 'Account 2 · r1', { run: 'r1', serial: 2 });
    expect(one).toMatchObject({
      title: 'Account 1 · r1',
      email: 'ada+r11@example.org',
      username: 'ada-r11',
      slug: 'ada-lovelace-r11',
      code: 'ACC42R11',
      first_name: 'Ada',
      country_code: 'GB',
      role: 'admin',
      profile: { contact_email: 'ada+r11@example.org', bio: 'hi' },
      tags: ['x'],
    });
    for (const field of ['email', 'username', 'slug', 'code'] as const)
      expect(one[field]).not.toBe(two[field]);
    // The captured example itself is never changed.
    expect(captured.email).toBe('ada+old@example.org');
    // A body that is not an object is replayed as captured.
    expect(freshenExample([{ email: 'a@b.co' }], 'x', { run: 'r', serial: 1 })).toEqual([
      { email: 'a@b.co' },
    ]);
    expect(freshenExample('title=Old', 'x', { run: 'r', serial: 1 })).toBe('title=Old');
  });

  it('"3 accounts" twice against a server that refuses duplicates: 6 creates, all accepted, all verified', async () => {
    const { server, accounts } = await accountsServer();
    servers.push(server);
    const har = writeHar(tempDir(), 'accounts.har', [
      harEntry('GET', `${server.url}/api/accounts`, 200, { response: [] }),
      harEntry('POST', `${server.url}/api/accounts`, 201, {
        body: { name: 'Ada', email: 'ada@example.org', username: 'ada', slug: 'ada', plan: 'free' },
        response: { id: 1, name: 'Ada' },
      }),
    ]);
    const ledger = tempLedger();
    for (const round of [1, 2]) {
      const result = await prepareData({
        request: '3 accounts',
        captures: [har],
        baseUrl: server.url,
        ledger,
      });
      expect(result.status, `${round}: ${result.summary}`).toBe('success');
      expect(result.verified).toHaveLength(3);
    }
    expect(accounts).toHaveLength(6);
    for (const field of ['email', 'username', 'slug'] as const)
      expect(new Set(accounts.map((account) => account[field])).size).toBe(6);
    // What is not an identifier is replayed as captured.
    expect(new Set(accounts.map((account) => account.plan))).toEqual(new Set(['free']));
  });
});
