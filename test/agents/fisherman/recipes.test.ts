import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PrepareDataOptions, prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { RecipeStore } from '../../../src/agents/fisherman/recipes/recipe-store.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { callTool, type ScriptStep, scriptedModel } from '../../../src/testing/scripted-model.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { demoApp, harEntry, writeHar } from '../../packs/http/demo-fixtures.js';

/**
 * Captures the deterministic tier cannot plan "N suites with M tests each" from: the
 * captured test's suite_id (55) is no suite id the captures ever showed, so the link is
 * unknown and the request goes to the model.
 */
function unplannableHar(dir: string): string {
  return writeHar(dir, 'partial.har', [
    harEntry('POST', 'http://app.test/api/alpha-shop/suites', 201, {
      body: { title: 'Checkout', description: '' },
      response: { data: { id: 7, title: 'Checkout' } },
    }),
    harEntry('POST', 'http://app.test/api/alpha-shop/tests', 201, {
      body: { title: 'Pays', suite_id: 55, priority: 'normal' },
      response: { data: { id: 9, title: 'Pays', suite_id: 55 } },
      at: '2026-11-01T10:00:01.000Z',
    }),
  ]);
}

/** What a model does for "1 suite with 2 tests each": a suite, then two tests linked by body field. */
function modelSolves(suite: number, tests: [number, number]): ScriptStep[] {
  return [
    callTool('request', {
      method: 'POST',
      path: '/api/alpha-shop/suites',
      body: { title: `Model suite ${suite}`, description: '' },
    }),
    ...tests.map((test) =>
      callTool('request', {
        method: 'POST',
        path: '/api/alpha-shop/tests',
        body: { title: `Model test ${test}`, suite_id: suite, priority: 'high' },
      }),
    ),
    callTool('finish', {
      summary: 'Created the suite and its tests.',
      created: [{ type: 'suite', id: suite }, ...tests.map((test) => ({ type: 'test', id: test }))],
    }),
  ];
}

function fisher(baseUrl: string, captures: string, recipes: string) {
  return (ledger: Ledger, request: string, steps: ScriptStep[], extra: Partial<PrepareDataOptions> = {}) => {
    const model = scriptedModel(steps);
    const run = prepareData({
      request,
      captures: [captures],
      scope: '/projects/alpha-shop',
      baseUrl,
      login: DEMO_LOGIN,
      ledger,
      model,
      env: {},
      recipes,
      ...extra,
    });
    return run.then((result) => ({ result, model, entries: ledger.entries(result.runId) }));
  };
}

const modelCalls = (entries: { kind: string }[]) =>
  entries.filter((entry) => entry.kind === 'model_call').length;

describe('recipes: a plan the model found, replayed without it', () => {
  it('round trip: the model solves it once, the same shape then runs with 0 model calls and the same verification; a broken recipe falls back and is replaced', async () => {
    const { app } = await demoApp();
    const project = tempDir();
    const recipes = join(project, '.tally', 'recipes');
    const fish = fisher(app.url, unplannableHar(project), recipes);
    const ledger = tempLedger();

    const first = await fish(ledger, '1 suite with 2 tests each', modelSolves(101, [5001, 5002]));
    expect(first.result).toMatchObject({
      status: 'success',
      tier: 'model',
      recipe: { saved: true, shape: 'suite>test' },
    });
    expect(first.result.escalation).toMatch(/cannot tell how a tests links to its suite/);
    const id = first.result.recipe?.id as string;
    const saved = new RecipeStore(recipes).get(id);
    expect(saved).toMatchObject({
      origin: new URL(app.url).origin,
      scope: '/projects/alpha-shop',
      shape: 'suite>test',
      fromRun: first.result.runId,
      parent: {
        type: 'suite',
        path: '/api/alpha-shop/suites',
        body: { title: '{{fresh}}', description: '' },
      },
      child: {
        type: 'test',
        path: '/api/alpha-shop/tests',
        // The model's own body (priority "high"), from the ledger, with the link as a slot.
        body: { title: '{{fresh}}', suite_id: '{{parent}}', priority: 'high' },
        link: { kind: 'body', field: 'suite_id', numeric: true },
      },
    });
    expect(statSync(recipes).mode & 0o777).toBe(0o700);
    expect(statSync(join(recipes, `${id}.json`)).mode & 0o777).toBe(0o600);

    // The same shape with other counts: no model at all (an empty script fails on any call).
    const second = await fish(ledger, '2 suites with 3 tests each', []);
    expect(second.result).toMatchObject({ status: 'success', tier: 'recipe', recipe: { id, used: true } });
    expect(modelCalls(second.entries)).toBe(0);
    expect(second.model.calls).toHaveLength(0);
    expect(second.result.verified.map((item) => item.type)).toEqual([
      'suite',
      'test',
      'test',
      'test',
      'suite',
      'test',
      'test',
      'test',
    ]);
    const madeByRecipe = [...app.store.tests.values()].filter((test) =>
      test.title.includes(second.result.marker),
    );
    expect(madeByRecipe).toHaveLength(6);
    expect(madeByRecipe.every((test) => test.priority === 'high')).toBe(true);

    // The app moved its suites: the recipe's first step now fails (404), the model takes over.
    const file = join(recipes, `${id}.json`);
    const broken = JSON.parse(readFileSync(file, 'utf8'));
    broken.parent.path = '/api/alpha-shop/suites-v0';
    writeFileSync(file, JSON.stringify(broken));
    const nextSuite = app.store.nextId.suite;
    const nextTest = app.store.nextId.test;
    const third = await fish(
      ledger,
      '1 suite with 2 tests each',
      modelSolves(nextSuite, [nextTest, nextTest + 1]),
    );
    expect(third.result).toMatchObject({ status: 'success', tier: 'model', recipe: { id, saved: true } });
    expect(third.result.recipe?.fellBack?.why).toMatch(/suites-v0 → 404/);
    const failedRun = ledger.getRun(third.result.recipe?.fellBack?.runId as string).run;
    expect(failedRun.meta).toMatchObject({ tier: 'recipe', recipe: id });
    expect(new RecipeStore(recipes).get(id)?.parent.path).toBe('/api/alpha-shop/suites');
    expect(new RecipeStore(recipes).get(id)?.fromRun).toBe(third.result.runId);
  });

  it('a failed model run saves no recipe', async () => {
    const { app } = await demoApp();
    const project = tempDir();
    const recipes = join(project, '.tally', 'recipes');
    const fish = fisher(app.url, unplannableHar(project), recipes);
    const { result } = await fish(tempLedger(), '1 suite with 2 tests each', [
      callTool('stop', { reason: 'cannot do it' }),
    ]);
    expect(result.recipe).toMatchObject({ why: 'not saved: the run did not meet the request' });
    expect(new RecipeStore(recipes).list().recipes).toEqual([]);
  });

  it('a recipe that cannot be saved (its folder parent is missing) is a warning: the result of the run and its end entry stand', async () => {
    const { app } = await demoApp();
    const project = tempDir();
    // `.tally` can only be made one level at a time: with `missing/` absent, the save throws ENOENT.
    const recipes = join(project, 'missing', '.tally', 'recipes');
    const fish = fisher(app.url, unplannableHar(project), recipes);
    const ledger = tempLedger();
    const { result, entries } = await fish(
      ledger,
      '1 suite with 2 tests each',
      modelSolves(101, [5001, 5002]),
    );
    expect(result).toMatchObject({ status: 'success', tier: 'model', endingReason: 'finished' });
    expect(result.verified).toHaveLength(3);
    expect(result.recipe?.saved).toBeUndefined();
    expect(result.recipe?.saveFailed).toMatch(/ENOENT/);
    expect(result.recipe?.why).toMatch(/^not saved: .*ENOENT/);
    expect(result.warnings).toEqual([expect.stringMatching(/^the recipe was not saved: .*ENOENT/)]);
    const ends = entries.filter((entry) => entry.kind === 'end');
    expect(ends).toHaveLength(1);
    expect(ends[0]?.data).toMatchObject({ status: 'success', reason: 'finished' });
    const failOpens = readFileSync(join(dirname(ledger.path), 'fail-open.jsonl'), 'utf8');
    expect(failOpens).toContain('"why":"recipe-unwritable"');
    expect(failOpens).toContain(result.runId);
    expect(existsSync(join(project, 'missing'))).toBe(false);
  });
});

describe('the recipe store', () => {
  it('refuses a symlinked recipes folder instead of writing through it', async () => {
    const project = tempDir();
    const elsewhere = tempDir();
    mkdirSync(join(project, '.tally'));
    symlinkSync(elsewhere, join(project, '.tally', 'recipes'));
    const store = new RecipeStore(join(project, '.tally', 'recipes'));
    expect(() => store.list()).toThrow(/is a symlink; recipes are only kept in a real directory/);
    expect(lstatSync(join(project, '.tally', 'recipes')).isSymbolicLink()).toBe(true);
  });

  it('lists a symlinked or invalid recipe file as unusable, with why', () => {
    const project = tempDir();
    const dir = join(project, '.tally', 'recipes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'aaaaaaaaaaaa.json'), '{ not json');
    symlinkSync('/etc/passwd', join(dir, 'bbbbbbbbbbbb.json'));
    const { recipes, unusable } = new RecipeStore(dir).list();
    expect(recipes).toEqual([]);
    expect(unusable.map((item) => item.why)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/is not valid JSON at line \d+, column \d+/),
        'a symlink',
      ]),
    );
  });

  it('refuses an id that is not 12 hex digits (no path tricks)', () => {
    expect(() => new RecipeStore(tempDir()).delete('../../etc/passwd')).toThrow(/is not a recipe id/);
  });
});
