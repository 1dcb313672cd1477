import { afterEach } from 'vitest';
import { type DemoApp, type DemoAppOptions, startDemoApp } from '../../../src/demo-app/server.js';

const apps: DemoApp[] = [];
afterEach(async () => {
  while (apps.length > 0) await apps.pop()?.close();
});

/** A real demo app on 127.0.0.1 and a free port, closed after the test; records what it was sent. */
export async function demoApp(options: DemoAppOptions = {}) {
  const seen: { method: string; path: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const app = await startDemoApp({
    ...options,
    onRequest: (request) => {
      seen.push(request);
      options.onRequest?.(request);
    },
  });
  apps.push(app);
  return { app, seen };
}

export { BUNDLED_HAR, bundledHar, type HarEntry, harEntry, writeHar } from './har-fixtures.js';
