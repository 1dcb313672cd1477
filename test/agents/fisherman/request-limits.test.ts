import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { type DemoApp, startDemoApp } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { DEMO_HAR, DEMO_SCOPE } from '../../../src/surfaces/cli/demo-command.js';
import { tempLedger } from '../../helpers.js';

describe('a request past what one run makes', () => {
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is refused with the limit named, not as a request of the wrong form; nothing is sent', async () => {
    const ledger = tempLedger();
    const options = {
      captures: [DEMO_HAR],
      baseUrl: app.url,
      login: DEMO_LOGIN,
      ledger,
      scope: DEMO_SCOPE,
      env: {},
    };
    await expect(prepareData({ ...options, request: '1000000 suites' })).rejects.toThrow(
      /asks for 1,000,000 of a type, and one run makes at most 1,000/,
    );
    await expect(prepareData({ ...options, request: 'make suites please' })).rejects.toThrow(
      /not of the form "N <type>/,
    );
    // Another action than creating is named as such, with where undoing a run lives.
    await expect(prepareData({ ...options, request: 'please delete 3 suites' })).rejects.toThrow(
      /asks to delete, and the deterministic tier only creates new items \(to undo a run: tally fish cleanup RUN\)/,
    );
    await expect(prepareData({ ...options, request: 'Rename suite 101' })).rejects.toThrow(/asks to rename/);
  });

  it('names the word it refuses on purpose: an open count, items singled out, items spread over parents', async () => {
    const ledger = tempLedger();
    const options = {
      captures: [DEMO_HAR],
      baseUrl: app.url,
      login: DEMO_LOGIN,
      ledger,
      scope: DEMO_SCOPE,
      env: {},
    };
    for (const [request, why] of [
      [
        'at least 3 tests',
        /"at least" leaves a count open, and the deterministic tier makes exact counts only/,
      ],
      ['no more than 2 suites', /"no more than" leaves a count open/],
      ['a couple of suites', /"a couple" leaves a count open/],
      ['2 suites with 3 tests each except the last', /"except" singles out or leaves out some items/],
      ['a suite with no tests', /"no" singles out or leaves out some items/],
      ['3 suites, the first with 2 tests', /"first" singles out/],
      ['5 tests split across 2 suites', /"split" spreads items over parents/],
      ['3 tests in each of 2 suites', /"each of" spreads items over parents/],
      // A quoted title says nothing about counts.
      ['2 suites with 3 and 4 tests called "at least one"', /in a new <type>\]" — and no model/],
    ] as const)
      await expect(prepareData({ ...options, request }), request).rejects.toThrow(why);
    expect(ledger.listRuns()).toEqual([]);
  });
});
