import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { readBackRun } from '../../../src/agents/fisherman/read-back-run.js';
import { type DemoApp, startDemoApp } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { DEMO_HAR, DEMO_REQUEST, DEMO_SCOPE } from '../../../src/surfaces/cli/demo-command.js';
import { tempLedger } from '../../helpers.js';

describe('the read-back run honours an abort (Ctrl-C during `tally demo`)', () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('aborted: no lookup starts, the run ends aborted and confirms nothing', async () => {
    const ledger = tempLedger();
    const options = { captures: [DEMO_HAR], baseUrl: app.url, login: DEMO_LOGIN, ledger };
    const made = await prepareData({
      ...options,
      request: DEMO_REQUEST,
      scope: DEMO_SCOPE,
      loginName: 'demo',
    });
    expect(made.status).toBe('success');
    const whole = await readBackRun({ ...options, runId: made.runId, items: made.verified });
    expect(whole.readBacks.filter((item) => item.confirmed)).toHaveLength(8);
    const controller = new AbortController();
    controller.abort('interrupted by SIGINT');
    const read = await readBackRun({
      ...options,
      runId: made.runId,
      items: made.verified,
      signal: controller.signal,
      graceMs: 0,
    });
    expect(read.endingReason).toBe('aborted');
    expect(read.readBacks.filter((item) => item.confirmed)).toEqual([]);
    const end = ledger.getRun(read.runId).entries.find((entry) => entry.kind === 'end');
    expect(end?.outcome).toBe('aborted');
  });
});
