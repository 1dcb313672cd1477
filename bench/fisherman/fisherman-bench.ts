import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { startDemoApp } from '../../src/demo-app/server.js';
import type { Capture } from '../../src/packs/http/captures/capture.js';
import { loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { DEMO_LOGIN } from '../../src/packs/http/client/login-recipe.js';
import { CaptureIndex } from '../../src/packs/http/endpoints/capture-index.js';
import type { PathNormalizer } from '../../src/packs/http/endpoints/path-normalizer.js';
import type { BenchRow } from '../measure.js';
import { fishProcessBench } from './fish-process-bench.js';

const HAR = join(import.meta.dirname, '..', '..', 'demo', 'captures', 'demo-app.har');

async function requestsPerEntity(dir: string): Promise<BenchRow[]> {
  let apiWrites = 0;
  let all = 0;
  const app = await startDemoApp({
    onRequest: (request) => {
      all += 1;
      if (request.method === 'POST' && request.path.startsWith('/api/')) apiWrites += 1;
    },
  });
  const ledger = Ledger.open(join(dir, 'ledger.db'));
  try {
    const result = await prepareData({
      request: '2 suites with 3 tests each',
      captures: [HAR],
      scope: '/projects/alpha-shop',
      baseUrl: app.url,
      login: DEMO_LOGIN,
      ledger,
    });
    const entities = result.verified.length;
    return [
      {
        name: 'deterministic tier: API requests per created entity',
        value: (apiWrites / entities).toFixed(2),
        target: '1.0',
        pass: apiWrites === entities,
      },
      {
        name: 'deterministic tier: all HTTP requests (incl. login + CSRF page)',
        value: `${all} for ${entities}`,
      },
    ];
  } finally {
    ledger.close();
    await app.close();
  }
}

function syntheticHar(path: string, count: number): { method: string; path: string }[] {
  const resources = [
    'suites',
    'tests',
    'milestones',
    'runs',
    'plans',
    'steps',
    'tags',
    'labels',
    'users',
    'comments',
  ];
  const entries = [];
  const probes: { method: string; path: string }[] = [];
  for (let index = 0; index < count; index++) {
    const project = `project-${index % 50}`;
    const resource = resources[index % resources.length] as string;
    const deep = index % 3 === 0 ? `/${1000 + index}/${['move', 'copy', 'archive'][index % 3]}` : '';
    const method = index % 4 === 0 ? 'GET' : 'POST';
    const url = `http://app.test/api/v1/${project}/${resource}${deep}`;
    entries.push({
      startedDateTime: new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString(),
      _resourceType: 'fetch',
      request: {
        method,
        url,
        headers: [{ name: 'content-type', value: 'application/json' }],
        ...(method === 'POST'
          ? { postData: { mimeType: 'application/json', text: JSON.stringify({ title: `t${index}` }) } }
          : {}),
      },
      response: {
        status: method === 'GET' ? 200 : index % 7 === 0 ? 422 : 201,
        headers: [{ name: 'content-type', value: 'application/json' }],
        content: { mimeType: 'application/json', text: JSON.stringify({ data: { id: index } }) },
      },
    });
    if (index % 10 === 0) probes.push({ method, path: `/api/v1/${project}/${resource}` });
  }
  writeFileSync(path, JSON.stringify({ log: { version: '1.2', entries } }));
  return probes;
}

/** The obvious implementation: scan every capture, normalize, filter, sort — per lookup. */
function naiveExample(
  captures: Capture[],
  normalizer: PathNormalizer,
  method: string,
  path: string,
): Capture | undefined {
  const want = normalizer.segments(path);
  const candidates = captures
    .filter((capture) => capture.method === method)
    .map((capture) => ({ capture, segments: normalizer.segments(capture.path) }))
    .filter(({ segments }) => want.every((segment, index) => segments[index] === segment))
    .sort(
      (a, b) =>
        a.segments.length - b.segments.length ||
        Number(a.capture.status >= 400) - Number(b.capture.status >= 400) ||
        (b.capture.timestamp ?? '').localeCompare(a.capture.timestamp ?? ''),
    );
  return candidates[0]?.capture;
}

function captureStore(dir: string): BenchRow[] {
  const path = join(dir, 'big.har');
  const probes = syntheticHar(path, 10_000);
  let started = performance.now();
  const set = loadCaptures([path]);
  const index = new CaptureIndex(set.captures);
  const loadMs = performance.now() - started;
  const rounds = 3;
  started = performance.now();
  let found = 0;
  for (let round = 0; round < rounds; round++)
    for (const probe of probes) if (index.example(probe.method, probe.path)) found += 1;
  const indexedMs = (performance.now() - started) / (rounds * probes.length);
  started = performance.now();
  let naiveFound = 0;
  for (const probe of probes) {
    const naive = naiveExample(set.captures, index.normalizer, probe.method, probe.path);
    if (naive) naiveFound += 1;
    // The index must agree with the obvious implementation.
    if (naive?.id !== index.example(probe.method, probe.path)?.id)
      throw new Error(`index and scan disagree on ${probe.method} ${probe.path}`);
  }
  const naiveMs = (performance.now() - started) / probes.length;
  if (found !== naiveFound * rounds) throw new Error('lookup counts differ');
  const speedup = naiveMs / indexedMs;
  return [
    {
      name: `capture store load + index, ${set.captures.length.toLocaleString('en')} captures`,
      value: `${loadMs.toFixed(0)} ms`,
      target: '< 1 s',
      pass: loadMs < 1000,
    },
    {
      name: `ranked lookup, ${probes.length} probes (µs per lookup)`,
      value: (indexedMs * 1000).toFixed(2),
      baseline: `${(naiveMs * 1000).toFixed(0)} µs linear scan`,
      ratio: `${speedup.toFixed(0)}× faster`,
      target: '≥ 20×',
      pass: speedup >= 20,
    },
  ];
}

export async function fishermanBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-fish-'));
  try {
    return [...(await requestsPerEntity(dir)), ...(await fishProcessBench()), ...captureStore(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
