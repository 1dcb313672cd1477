import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseFailure } from '../../../core/parse-error-place.js';
import { buildCapture } from './build-capture.js';
import type { AuthSample, Capture, SkippedCapture } from './capture.js';
import { parseMaybeJson } from './normalize-headers.js';
import { notServerRequest } from './parse-har.js';
import { asInputFileError, readRegularFile } from './read-regular-file.js';

/** One request or response of a browser session; anything bigger is not a capture we can use. */
export const EXPLORBOT_FILE_LIMIT = 32 * 1024 * 1024;

const BROWSER_PREFIX = 'xhr_';

// Loaded on first use: HAR captures (the common case, and every `tally fish` of the demo)
// never parse YAML, and the parser costs tens of ms of start-up otherwise.
const require = createRequire(import.meta.url);
function parseYaml(text: string): unknown {
  const yaml = require('yaml') as typeof import('yaml');
  try {
    return yaml.parse(text, { logLevel: 'error' });
  } catch (error) {
    if (!(error instanceof yaml.YAMLError)) throw error;
    // Security: the parser's message quotes the line, and a header line holds a token.
    // Lines as the file counts them: the front matter starts on its second line.
    throw new Error(
      `the front matter is ${parseFailure('YAML', error).replace(/line (\d+)/, (_, line) => `line ${Number(line) + 1}`)}`,
    );
  }
}

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} is not a map`);
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string' && typeof item !== 'number')
      throw new Error(`${what}.${name} is not a single value`);
    const text = String(item);
    if (/[\r\n]/.test(text)) throw new Error(`${what}.${name} spans several lines`);
    out[name] = text;
  }
  return out;
}

function splitFrontMatter(text: string): { front: string; body: string } {
  const normalized = text.replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(normalized);
  if (!match) throw new Error('no front-matter block between --- lines');
  return { front: match[1] as string, body: match[2] as string };
}

function parseOne(dir: string, id: string): ReturnType<typeof buildCapture> {
  const source = join(dir, `${id}.request.yaml`);
  const { front, body } = splitFrontMatter(
    readRegularFile(source, 'explorbot request file', EXPLORBOT_FILE_LIMIT),
  );
  const meta: unknown = parseYaml(front);
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) throw new Error('front matter is not a map');
  const record = meta as Record<string, unknown>;
  if (typeof record.method !== 'string') throw new Error('method is missing');
  const fullUrl = typeof record.fullUrl === 'string' ? record.fullUrl : undefined;
  if (!fullUrl) throw new Error('fullUrl is missing');
  const url = new URL(fullUrl);
  const notServer = notServerRequest(url);
  if (notServer) throw new Error(notServer);
  const status = Number(record.status);
  if (!Number.isInteger(status)) throw new Error('status is missing or not a number');
  const lower = (map: Record<string, string>) =>
    Object.fromEntries(Object.entries(map).map(([name, value]) => [name.toLowerCase(), value]));
  const requestHeaders = lower(stringMap(record.headers, 'headers'));
  const bodyText = body.replace(/\n$/, '');
  if (
    bodyText.trim() &&
    requestHeaders['content-type']?.includes('json') &&
    parseMaybeJson(bodyText, requestHeaders['content-type']) === undefined
  ) {
    throw new Error('the request body is not valid JSON although content-type says JSON');
  }
  const responsePath = join(dir, `${id}.response.json`);
  return buildCapture({
    id: source,
    session: dir,
    method: record.method,
    url,
    requestHeaders,
    ...(bodyText ? { requestText: bodyText } : {}),
    status,
    responseHeaders: lower(stringMap(record.responseHeaders, 'responseHeaders')),
    ...(existsSync(responsePath)
      ? {
          responseText: readRegularFile(responsePath, 'explorbot response file', EXPLORBOT_FILE_LIMIT),
          responseContentType: 'application/json',
        }
      : {}),
    timestamp: record.timestamp,
    resourceType: 'xhr',
  });
}

/**
 * Imports an explorbot-style `output/requests` directory. Only `xhr_*` files are browser
 * captures; agent-made files (`012_POST_…`) are skipped — a run must never learn from its
 * own (or a predecessor's) requests. A file that cannot be read is skipped with the reason.
 */
export function parseExplorbotDir(dir: string): {
  captures: Capture[];
  auth: AuthSample[];
  skipped: SkippedCapture[];
} {
  const captures: Capture[] = [];
  const auth: AuthSample[] = [];
  const skipped: SkippedCapture[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw asInputFileError(dir, 'explorbot directory', error);
  }
  const ids = names
    .filter((name) => name.endsWith('.request.yaml'))
    .map((name) => name.slice(0, -'.request.yaml'.length))
    .sort();
  for (const id of ids) {
    if (!id.startsWith(BROWSER_PREFIX)) {
      skipped.push({
        source: join(dir, `${id}.request.yaml`),
        reason: 'made by an agent, not the browser (only xhr_* files are captures)',
      });
      continue;
    }
    try {
      const parsed = parseOne(dir, id);
      captures.push(parsed.capture);
      if (parsed.auth) auth.push(parsed.auth);
    } catch (error) {
      skipped.push({
        source: join(dir, `${id}.request.yaml`),
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { captures, auth, skipped };
}
