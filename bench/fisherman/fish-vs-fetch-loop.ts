import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/demo-app/server.js';
import type { BenchRow } from '../measure.js';

const HAR = join(import.meta.dirname, '..', '..', 'demo', 'captures', 'demo-app.har');
const SAMPLES = 9;
const WARMUPS = 3;

interface DemoProcess {
  url: string;
  child: ChildProcess;
  /** Requests the app saw since the last call. */
  count(): Promise<number>;
}

async function startDemoProcess(): Promise<DemoProcess> {
  const child = fork(join(import.meta.dirname, 'demo-app-process.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const url = await new Promise<string>((resolve) =>
    child.once('message', (message: { url: string }) => resolve(message.url)),
  );
  const count = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message: { requests: number }) => resolve(message.requests));
      child.send({ type: 'count' });
    });
  return { url, child, count };
}

/** The hand-written baseline: log in, read the CSRF token, POST every suite and its tests, one after another. */
async function fetchLoop(url: string, suites: number, tests: number, label: string): Promise<number> {
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: DEMO_EMAIL, password: DEMO_PASSWORD }).toString(),
  });
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
  const page = await (await fetch(`${url}/projects`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] as string;
  const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };
  let made = 0;
  for (let suite = 1; suite <= suites; suite++) {
    const response = await fetch(`${url}/api/alpha-shop/suites`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: `Loop ${label} ${suite}`, description: '' }),
    });
    const id = ((await response.json()) as { data: { id: number } }).data.id;
    made += 1;
    for (let test = 1; test <= tests; test++) {
      const created = await fetch(`${url}/api/alpha-shop/tests`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: `Loop ${label} ${suite}.${test}`, suite_id: id, priority: 'normal' }),
      });
      if (created.status !== 201) throw new Error(`the loop's create failed: ${created.status}`);
      await created.arrayBuffer();
      made += 1;
    }
  }
  return made;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * `prepareData` (what `tally fish` runs: captures, login, ledger, verification) against a
 * hand-written fetch loop making the same creates with the same login, interleaved sample
 * by sample so drift hits both alike; the demo app runs in its own process.
 */
export async function fishVsFetchLoop(dir: string): Promise<BenchRow[]> {
  const app = await startDemoProcess();
  const ledger = Ledger.open(join(dir, 'versus.db'));
  const rows: BenchRow[] = [];
  try {
    for (const [suites, tests] of [
      [2, 3],
      [20, 10],
    ] as const) {
      const entities = suites * (tests + 1);
      const request = `${suites} suites with ${tests} tests each`;
      const times: Record<string, number[]> = { loop: [], c1: [], c4: [] };
      const requests: Record<string, number> = {};
      // Warm-ups of each side, not counted: module loading, JIT and connection set-up are not
      // what is compared (a small run is over before the JIT has seen its code otherwise).
      for (let warm = 0; warm < WARMUPS; warm++) {
        await fetchLoop(app.url, suites, tests, `warm-${entities}-${warm}`);
        for (const concurrency of [1, 4])
          await prepareData({
            request,
            captures: [HAR],
            scope: '/projects/alpha-shop',
            baseUrl: app.url,
            login: {
              url: '/login',
              method: 'POST',
              form: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
              csrfPage: '/projects',
              csrfHeader: 'x-csrf-token',
            },
            ledger,
            concurrency,
          });
      }
      await app.count();
      for (let sample = 0; sample < SAMPLES; sample++) {
        let started = performance.now();
        const made = await fetchLoop(app.url, suites, tests, `${entities}-${sample}`);
        times.loop?.push(performance.now() - started);
        requests.loop = await app.count();
        if (made !== entities) throw new Error(`the loop made ${made}, not ${entities}`);
        for (const concurrency of [1, 4]) {
          started = performance.now();
          const result = await prepareData({
            request,
            captures: [HAR],
            scope: '/projects/alpha-shop',
            baseUrl: app.url,
            login: {
              url: '/login',
              method: 'POST',
              form: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
              csrfPage: '/projects',
              csrfHeader: 'x-csrf-token',
            },
            ledger,
            concurrency,
          });
          times[`c${concurrency}`]?.push(performance.now() - started);
          requests[`c${concurrency}`] = await app.count();
          if (result.status !== 'success' || result.verified.length !== entities)
            throw new Error(`tally fish did not meet "${request}": ${result.summary}`);
        }
      }
      const loop = median(times.loop as number[]);
      const c1 = median(times.c1 as number[]);
      const c4 = median(times.c4 as number[]);
      rows.push(
        {
          name: `${entities} entities: HTTP requests (all, incl. login + CSRF page)`,
          value: `fish ${requests.c1}`,
          baseline: `${requests.loop} fetch loop`,
          target: `${entities + 2} (1 per entity + 2)`,
          pass: requests.c1 === entities + 2 && requests.c4 === entities + 2,
        },
        {
          name: `${entities} entities: tally fish --concurrency 1, median of ${SAMPLES}`,
          value: `${c1.toFixed(1)} ms`,
          baseline: `${loop.toFixed(1)} ms fetch loop`,
          ratio: `${(c1 / loop).toFixed(2)}×`,
          target: '≤ 1.1×',
          pass: c1 / loop <= 1.1,
        },
        {
          name: `${entities} entities: tally fish --concurrency 4, median of ${SAMPLES}`,
          value: `${c4.toFixed(1)} ms`,
          baseline: `${loop.toFixed(1)} ms fetch loop`,
          ratio: `${(c4 / loop).toFixed(2)}×`,
          target: '< 1.0×',
          pass: c4 < loop,
        },
      );
    }
    return rows;
  } finally {
    ledger.close();
    app.child.send({ type: 'close' });
  }
}
