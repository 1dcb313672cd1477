// The model is told where the endpoints came from: browser captures (replicate mode),
// OpenAPI documents (achieve mode), or both — never a browser where there was none.
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFishContext } from '../../../src/agents/fisherman/fish-context.js';
import { createFishermanAgent } from '../../../src/agents/fisherman/fisherman-agent.js';
import { fishermanInstructions } from '../../../src/agents/fisherman/fisherman-prompt.js';
import { BUNDLED_HAR } from '../../packs/http/demo-fixtures.js';

const CLINIC = join(import.meta.dirname, '..', '..', 'e2e', 'prism-clinic.openapi.yaml');
// Building a context checks the app is reachable (a TCP connect, no request): a listener that
// is sent nothing stands in for it.
let BASE_URL = '';
const listener = createServer((socket) => socket.end());
beforeAll(async () => {
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  BASE_URL = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

async function agentFor(options: { captures?: string[]; specs?: string[]; scope?: string }) {
  const context = await buildFishContext({
    captures: options.captures ?? [],
    ...(options.specs ? { specs: options.specs } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    baseUrl: BASE_URL,
    marker: 'a1b2c3',
    env: {},
  });
  const agent = createFishermanAgent({ context });
  const tool = (name: string) => {
    const found = agent.tools.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  const listed = (await tool('list_endpoints').execute({}, { runId: 'r', failOpen: () => {} })) as {
    result: { note: string; endpoints: string[] };
  };
  return { agent, tool, listed: listed.result };
}

describe('the prompt names the source of the endpoints', () => {
  it('achieve mode (documents only): the prompt and the tools never speak of a browser or of captures', async () => {
    const { agent, tool, listed } = await agentFor({ specs: [CLINIC] });
    expect(agent.instructions).not.toMatch(/browser|captur/i);
    expect(agent.instructions).toMatch(/the operations the OpenAPI documents describe/);
    expect(agent.instructions).toMatch(/get_endpoint_spec\(method, path\) to see the OpenAPI operation/);
    expect(agent.instructions).toMatch(/Scope: every operation the OpenAPI documents describe\./);
    expect(agent.instructions).not.toMatch(/logged-in user/);
    for (const each of agent.tools) expect(each.description, each.name).not.toMatch(/browser/i);
    expect(tool('list_endpoints').description).not.toMatch(/captur/i);
    expect(tool('list_endpoints').description).toMatch(/OpenAPI documents/);
    expect(listed.note).not.toMatch(/browser|captur/i);
    expect(listed.endpoints).toContain('POST /owners/{ownerId}/pets');
    // An endpoint that does not exist is answered from the documents, not from "captures".
    const missing = (await tool('get_endpoint_spec').execute(
      { method: 'POST', path: '/no-such-thing' },
      { runId: 'r', failOpen: () => {} },
    )) as { result: { found: boolean; message: string } };
    expect(missing.result.found).toBe(false);
    expect(missing.result.message).not.toMatch(/captur/i);
    expect(missing.result.message).toMatch(
      /POST operations in the OpenAPI documents: .*POST \/owners\/\{ownerId\}\/pets/,
    );
  });

  it('replicate mode (captures only): the browser and its captured examples', async () => {
    const { agent, tool, listed } = await agentFor({
      captures: [BUNDLED_HAR],
      scope: '/projects/alpha-shop',
    });
    expect(agent.instructions).toMatch(/list_endpoints to see the endpoints the browser used/);
    expect(agent.instructions).toMatch(/the captured example: its concrete path and request body/);
    expect(agent.instructions).toMatch(/only endpoints whose captured paths contain "alpha-shop" are listed/);
    expect(agent.instructions).not.toMatch(/OpenAPI/);
    expect(tool('list_endpoints').description).toMatch(/the endpoints the browser used/);
    expect(listed.note).toMatch(/^Captured from browser traffic/);
  });

  it('both: the documents and the browser, each named', async () => {
    const { agent, tool, listed } = await agentFor({ captures: [BUNDLED_HAR], specs: [CLINIC] });
    expect(agent.instructions).toMatch(
      /the operations the OpenAPI documents describe and the endpoints the browser used/,
    );
    expect(tool('list_endpoints').description).toMatch(/OpenAPI documents.*the browser used/);
    expect(listed.note).toMatch(/OpenAPI documents.*captured browser traffic/);
  });

  it('a scope in achieve mode says where creates must go, not what the captures held', () => {
    const text = fishermanInstructions(
      { path: '/shops/acme', key: 'acme', fallback: false },
      'a1b2c3',
      'spec',
    );
    expect(text).toMatch(
      /Scope: \/shops\/acme — everything you create must be under a path that contains "acme"/,
    );
    expect(text).not.toMatch(/browser|captur/i);
  });
});
