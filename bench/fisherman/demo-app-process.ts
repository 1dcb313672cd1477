// The demo app in its own process for the benchmarks: a server sharing the client's event
// loop answers each request before the client can send the next, which hides exactly what
// concurrency is for. Reports over IPC every request it saw (login and CSRF page included)
// and the suites and tests it holds, since the last report: the bench's parity check.
import { startDemoApp } from '../../src/demo-app/server.js';

const counts = { requests: 0, suites: 0, tests: 0 };
const app = await startDemoApp({
  onRequest: () => {
    counts.requests += 1;
  },
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'count') {
    process.send?.({
      type: 'count',
      requests: counts.requests,
      suites: app.store.suites.size - counts.suites,
      tests: app.store.tests.size - counts.tests,
    });
    counts.requests = 0;
    counts.suites = app.store.suites.size;
    counts.tests = app.store.tests.size;
  }
  if (message.type === 'close') void app.close().then(() => process.exit(0));
});
process.send?.({ type: 'ready', url: app.url });
