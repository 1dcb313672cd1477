// Achieve mode against Prism (a real OpenAPI mock server nobody here wrote) with request
// validation on: a body that breaks the schema gets 422, so a wrong body fails the test.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { runTally, tempLedger } from '../helpers.js';
import { type Prism, startPrism } from './prism-fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLINIC = join(import.meta.dirname, 'prism-clinic.openapi.yaml');
const TRAIN_TRAVEL = join(
  ROOT,
  'node_modules',
  '@readme',
  'oas-examples',
  '3.1',
  'json',
  'train-travel.json',
);

const AUTH = { authorization: 'Bearer test-token' };

const servers: Prism[] = [];
afterAll(() => {
  for (const server of servers) server.process.kill();
});

describe('achieve mode against Prism with request validation on', () => {
  let clinic: Prism;
  let travel: Prism;
  beforeAll(async () => {
    // Train Travel without --errors: Prism's own generator breaks the document's payment
    // response (`amount` with a 3.1 numeric exclusiveMinimum: 0 comes out ≤ 0 about half the
    // time), and --errors would answer those with a 500 that says nothing about Tally.
    [clinic, travel] = await Promise.all([startPrism(CLINIC), startPrism(TRAIN_TRAVEL, { errors: false })]);
    servers.push(clinic, travel);
  }, 120_000);

  it('rejects a wrong body (so a wrong body would fail the runs below)', async () => {
    const response = await fetch(`${clinic.url}/owners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(response.status).toBe(422);
  });

  it('"2 owners with 3 pets each": parents by path parameter, bodies from the schema, 0 model calls', async () => {
    const ledger = tempLedger();
    const result = await prepareData({
      request: '2 owners with 3 pets each',
      captures: [],
      specs: [CLINIC],
      baseUrl: clinic.url,
      ledger,
      env: {},
    });
    expect(result.unmet, result.summary).toEqual([]);
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic', counts: { modelCalls: 0 } });
    expect(result.verified.filter((item) => item.type === 'owner')).toHaveLength(2);
    const pets = result.verified.filter((item) => item.type === 'pet');
    expect(pets).toHaveLength(6);
    expect(pets[0]?.via).toMatch(/^POST \/owners\/[0-9a-f-]{36}\/pets → 201$/);
  });

  it('a real public OpenAPI 3.1 document (Train Travel): "2 bookings", authenticated by a configured header', async () => {
    const ledger = tempLedger();
    const result = await prepareData({
      request: '2 bookings',
      captures: [],
      specs: [TRAIN_TRAVEL],
      baseUrl: travel.url,
      headers: AUTH,
      ledger,
      env: {},
    });
    expect(result.unmet, result.summary).toEqual([]);
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic', counts: { modelCalls: 0 } });
    expect(result.verified.map((item) => [item.type, item.via])).toEqual([
      ['booking', 'POST /bookings → 201'],
      ['booking', 'POST /bookings → 201'],
    ]);
  });

  it('Train Travel without --errors still validates every request: a wrong body, a wrong path parameter, no credentials', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = AUTH) =>
      fetch(`${travel.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post('/bookings', { trip_id: 5 })).status).toBe(400);
    expect((await post('/bookings/not-a-uuid/payment', {})).status).toBe(400);
    expect((await post(`/bookings/${randomUUID()}/payment`, { amount: -1 })).status).toBe(400);
    expect((await post('/bookings', {}, {})).status).toBe(401);
  });

  // The parent/child shape on a real public document: a payment is created under its booking
  // by a path parameter (POST /bookings/{bookingId}/payment). What Prism proves: every
  // request Tally sent was valid for the document (body, {bookingId} as a UUID, the bearer
  // header), each create answered 2xx with an id, and each payment went to the URL of a
  // booking this run created. What it cannot: Prism keeps no state, so it never checks that
  // the booking exists, never refuses a duplicate, and a later GET shows invented data; ids
  // are random per response (--dynamic). A mock that gave every create the same id would
  // make the verifier fold them into one resource and report the count unmet: a failure,
  // never a pass.
  it('"2 bookings with 3 payments each" on Train Travel: payments by path parameter, 0 model calls, every link from this run', async () => {
    const ledger = tempLedger();
    const result = await prepareData({
      request: '2 bookings with 3 payments each',
      captures: [],
      specs: [TRAIN_TRAVEL],
      baseUrl: travel.url,
      headers: AUTH,
      ledger,
      env: {},
    });
    expect(result.unmet, result.summary).toEqual([]);
    expect(result).toMatchObject({
      status: 'success',
      tier: 'deterministic',
      counts: { modelCalls: 0, toolCalls: 8, failures: 0 },
    });
    const bookings = result.verified.filter((item) => item.type === 'booking');
    const payments = result.verified.filter((item) => item.type === 'payment');
    expect(bookings).toHaveLength(2);
    expect(payments).toHaveLength(6);
    const resource = (item: Record<string, unknown>) => String(item.resource);
    for (const booking of bookings) {
      expect(resource(booking)).toMatch(/^\/bookings\/[0-9a-f-]{36}$/);
      const under = payments.filter((payment) =>
        resource(payment).startsWith(`${resource(booking)}/payment/`),
      );
      expect(under, resource(booking)).toHaveLength(3);
      for (const payment of under) expect(payment.via).toBe(`POST ${resource(booking)}/payment → 200`);
    }
    expect(new Set(result.verified.map((item) => item.target)).size).toBe(8);
    // One request per entity, each a 2xx, each payment sent after its booking's create returned.
    const calls = ledger.entries(result.runId).filter((entry) => entry.kind === 'tool_call');
    expect(calls.map((entry) => entry.outcome)).toEqual(Array(8).fill('ok'));
    const order = calls.map((entry) => (entry.data.input as { path: string }).path);
    for (const booking of bookings) {
      const made = calls.findIndex(
        (entry) => (entry.data.result as { ids?: string[] }).ids?.[0] === booking.target,
      );
      expect(made).toBeGreaterThanOrEqual(0);
      const firstChild = order.indexOf(`${resource(booking)}/payment`);
      expect(firstChild).toBeGreaterThan(made);
    }
  });

  it('the same from the command line: tally fish --spec --base-url --header exits 0 with 8 verified items', async () => {
    const run = await runTally([
      'fish',
      '2 bookings with 3 payments each',
      '--spec',
      TRAIN_TRAVEL,
      '--base-url',
      travel.url,
      '--header',
      'Authorization: Bearer test-token',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      status: string;
      tier: string;
      counts: { modelCalls: number };
      verified: { type: string }[];
    };
    expect(result).toMatchObject({ status: 'success', tier: 'deterministic', counts: { modelCalls: 0 } });
    expect(result.verified.map((item) => item.type).sort()).toEqual([
      'booking',
      'booking',
      'payment',
      'payment',
      'payment',
      'payment',
      'payment',
      'payment',
    ]);
  });
});
