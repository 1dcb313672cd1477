// Achieve mode against Prism (a real OpenAPI mock server nobody here wrote) with request
// validation on: a body that breaks the schema gets 422, so a wrong body fails the test.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { tempLedger } from '../helpers.js';
import { freePort } from './json-server-fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PRISM = join(ROOT, 'node_modules', '.bin', 'prism');
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

interface Prism {
  url: string;
  process: ChildProcess;
}

/** Prism in dynamic mock mode on 127.0.0.1 and a free port; ready when it answers. */
async function startPrism(document: string): Promise<Prism> {
  const port = await freePort();
  const child = spawn(
    PRISM,
    ['mock', '--dynamic', '--errors', '-h', '127.0.0.1', '-p', String(port), document],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 30_000;
  while (!/Prism is listening/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`Prism did not start: ${output.slice(-500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, process: child };
}

const servers: Prism[] = [];
afterAll(() => {
  for (const server of servers) server.process.kill();
});

describe('achieve mode against Prism with request validation on', () => {
  let clinic: Prism;
  let travel: Prism;
  beforeAll(async () => {
    [clinic, travel] = await Promise.all([startPrism(CLINIC), startPrism(TRAIN_TRAVEL)]);
    servers.push(clinic, travel);
  }, 60_000);

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

  // Train Travel's payment response is one Prism's own generator cannot satisfy (it answers
  // 500 for its response under --errors), so the real document is exercised with bookings.
  it('a real public OpenAPI 3.1 document (Train Travel): "2 bookings", authenticated by a configured header', async () => {
    const ledger = tempLedger();
    const result = await prepareData({
      request: '2 bookings',
      captures: [],
      specs: [TRAIN_TRAVEL],
      baseUrl: travel.url,
      headers: { authorization: 'Bearer test-token' },
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
});
