// A server that, like most, refuses a second account with the same email, username or code
// (409) and a value that breaks the schema (422): the deterministic tier's N bodies for one
// endpoint must differ there, and a second run must not collide with the first.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { json, localServer } from '../../packs/http/local-server.js';

const MEMBER = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'username', 'code', 'role'],
  properties: {
    email: { type: 'string', format: 'email' },
    username: { type: 'string', minLength: 3, maxLength: 12 },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
    role: { type: 'string', enum: ['owner', 'member'] },
    display_name: { type: 'string', maxLength: 30 },
  },
};
const TEAM = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'slug'],
  properties: {
    name: { type: 'string', maxLength: 60 },
    slug: { type: 'string', pattern: '^[a-z0-9-]{3,20}$' },
  },
};
const created = (schema: unknown) => ({
  requestBody: { required: true, content: { 'application/json': { schema } } },
  responses: {
    '201': { description: 'created' },
    '409': { description: 'taken' },
    '422': { description: 'invalid' },
  },
});
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Teams', version: '1' },
  paths: {
    '/teams': { post: created(TEAM) },
    '/teams/{teamId}/members': {
      parameters: [{ name: 'teamId', in: 'path', required: true, schema: { type: 'integer' } }],
      post: created(MEMBER),
    },
  },
};

/** What the server checks: the schema's own constraints, field by field. */
function invalid(body: Record<string, unknown>, schema: typeof MEMBER | typeof TEAM): string | undefined {
  for (const field of schema.required) if (typeof body[field] !== 'string') return `${field} is required`;
  for (const [field, value] of Object.entries(body)) {
    const property = (schema.properties as Record<string, Record<string, unknown>>)[field];
    if (!property) return `${field} is not allowed`;
    const text = String(value);
    if (typeof property.maxLength === 'number' && text.length > property.maxLength)
      return `${field} too long`;
    if (typeof property.minLength === 'number' && text.length < property.minLength)
      return `${field} too short`;
    if (typeof property.pattern === 'string' && !new RegExp(property.pattern).test(text))
      return `${field} does not match ${property.pattern}`;
    if (Array.isArray(property.enum) && !property.enum.includes(value)) return `${field} not in enum`;
    if (property.format === 'email' && !/^[^@\s]+@[^@\s]+\.[a-z]+$/.test(text))
      return `${field} not an email`;
  }
  return undefined;
}

async function teamsServer() {
  const teams: Record<string, unknown>[] = [];
  const members: Record<string, unknown>[] = [];
  const server = await localServer((seen, res) => {
    const body = seen.body ? (JSON.parse(seen.body) as Record<string, unknown>) : {};
    const taken = (list: Record<string, unknown>[], fields: string[]) =>
      fields.find((field) => list.some((item) => item[field] === body[field]));
    if (seen.method === 'POST' && seen.url === '/teams') {
      const problem = invalid(body, TEAM);
      if (problem) return json(res, 422, { message: problem });
      const clash = taken(teams, ['slug']);
      if (clash) return json(res, 409, { message: `${clash} ${body[clash]} is taken` });
      const team = { id: teams.length + 1, ...body };
      teams.push(team);
      return json(res, 201, team);
    }
    const nested = /^\/teams\/(\d+)\/members$/.exec(seen.url);
    if (seen.method === 'POST' && nested) {
      const team = teams.find((candidate) => String(candidate.id) === nested[1]);
      if (!team) return json(res, 404, { message: 'no such team' });
      const problem = invalid(body, MEMBER);
      if (problem) return json(res, 422, { message: problem });
      const clash = taken(members, ['email', 'username', 'code']);
      if (clash) return json(res, 409, { message: `${clash} ${body[clash]} is taken` });
      const member = { id: 1000 + members.length + 1, team_id: team.id, ...body };
      members.push(member);
      return json(res, 201, member);
    }
    return json(res, 404, { message: 'not found' });
  });
  return { ...server, teams, members };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

describe('distinct values per item and per run against a server with unique constraints', () => {
  it('"2 teams with 3 members each", twice: every create accepted, no email, username, code or slug repeated', async () => {
    const server = await teamsServer();
    servers.push(server);
    const spec = join(tempDir(), 'teams.json');
    writeFileSync(spec, JSON.stringify(DOCUMENT));
    for (const marker of ['a1b2c3', 'd4e5f6']) {
      const result = await prepareData({
        request: '2 teams with 3 members each',
        captures: [],
        specs: [spec],
        baseUrl: server.url,
        marker,
        ledger: tempLedger(),
        env: {},
      });
      expect(result.unmet, result.summary).toEqual([]);
      expect(result).toMatchObject({ status: 'success', tier: 'deterministic', counts: { modelCalls: 0 } });
    }
    expect(server.teams).toHaveLength(4);
    expect(server.members).toHaveLength(12);
    for (const field of ['email', 'username', 'code'])
      expect(new Set(server.members.map((member) => member[field])).size, field).toBe(12);
    expect(new Set(server.teams.map((team) => team.slug)).size).toBe(4);
    // Enums keep their first value; the server's 409 and 422 never fired (one request per item).
    expect(new Set(server.members.map((member) => member.role))).toEqual(new Set(['owner']));
    expect(server.seen.filter((request) => request.method === 'POST')).toHaveLength(16);
  });
});
