import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The bundled HAR (recorded in real Chromium against another port). */
export const BUNDLED_HAR = join(import.meta.dirname, '..', '..', '..', 'demo', 'captures', 'demo-app.har');

// HAR builders with no vitest import, so plain-Node runners (the truth bench) share them.

export interface HarEntry {
  startedDateTime: string;
  request: {
    method: string;
    url: string;
    headers: { name: string; value: string }[];
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    headers: { name: string; value: string }[];
    content: { mimeType: string; text?: string };
  };
  _resourceType?: string;
}

export function bundledHar(): { log: { entries: HarEntry[] } } {
  return JSON.parse(readFileSync(BUNDLED_HAR, 'utf8'));
}

/** A HAR entry for tests that need a capture the bundled HAR does not have. */
export function harEntry(
  method: string,
  url: string,
  status: number,
  options: { body?: unknown; response?: unknown; at?: string; headers?: Record<string, string> } = {},
): HarEntry {
  return {
    startedDateTime: options.at ?? '2026-11-01T10:00:00.000Z',
    _resourceType: 'fetch',
    request: {
      method,
      url,
      headers: Object.entries({ 'content-type': 'application/json', ...options.headers }).map(
        ([name, value]) => ({ name, value }),
      ),
      ...(options.body !== undefined
        ? { postData: { mimeType: 'application/json', text: JSON.stringify(options.body) } }
        : {}),
    },
    response: {
      status,
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: {
        mimeType: 'application/json',
        ...(options.response !== undefined ? { text: JSON.stringify(options.response) } : {}),
      },
    },
  };
}

export function writeHar(dir: string, name: string, entries: HarEntry[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }),
  );
  return path;
}
