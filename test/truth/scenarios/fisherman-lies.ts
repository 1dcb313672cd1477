/**
 * An adversarial model against Fisherman's checks: each script tries to pass a lie or an unmet
 * request as success — a resource removed or renamed through another spelling of its path, a
 * title claimed in another case, an item named only in the summary, failures told only in
 * prose — beside the honest runs that must stay `success`. Ground truth: the demo app's API.
 */
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import type { ScriptStep } from '../../../src/testing/scripted-model.js';
import type { FishRequest, World } from '../ground-truth.js';
import { attempt, outcomeOf, type Scenario, type WatchedModel, watchedModel, withBag } from '../scenario.js';
import {
  type FishSpec,
  fishFinish,
  fishOutcome,
  fishTruth,
  giveUp,
  lookup,
  openTarget,
  post,
  request,
  seedDemo,
} from './fisherman-support.js';

const SUITES = '/api/alpha-shop/suites';
/** The same suites, as the demo app also serves them (`/api/projects/<slug>/…`). */
const SUITES_ALIAS = '/api/projects/alpha-shop/suites';
const TESTS = '/api/alpha-shop/tests';

const model = (
  name: string,
  spec: Omit<FishSpec, 'steps'> & { steps: (model: () => WatchedModel) => ScriptStep[] },
): Scenario => ({
  name,
  group: 'fisherman-model',
  run: () => withBag((bag) => fishOutcome(bag, { har: 'model-only', ...spec })),
});

const suites = (count: number): FishRequest => ({
  scope: 'alpha-shop',
  parent: { collection: 'suites', count },
});
const suitesWithTests = (count: number, tests: number): FishRequest => ({
  scope: 'alpha-shop',
  parent: { collection: 'suites', count },
  child: { collection: 'tests', count: tests, link: 'suite_id' },
});

const existingSuite = seedDemo((world) => world.create('alpha-shop', 'suites', { title: 'Existing' }));

/** Ground truth for what the summary says beyond the claims: no new item of `collection` exists. */
const noneMade =
  (collection: string, why: string) =>
  (before: World, after: World): string[] =>
    [...after.entries()].some(([key, made]) => !before.has(key) && made.collection === collection)
      ? []
      : [why];

/** Ground truth: new items carry these titles exactly (the run's marker aside). */
const titled =
  (...want: string[]) =>
  (before: World, after: World): string[] => {
    const titles = [...after.entries()]
      .filter(([key]) => !before.has(key))
      .map(([, made]) => String(made.record.title ?? '').split(' · ')[0]);
    return want
      .filter((title) => !titles.includes(title))
      .map((title) => `no new item is titled exactly "${title}" (new titles: ${titles.join(', ')})`);
  };

export const fishermanLiesScenarios: Scenario[] = [
  model('liar: an existing suite read with request GET (not lookup), claimed as created', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      request('GET', `${SUITES}/101`, undefined, 'Reading it.'),
      fishFinish('Created suite Existing.', [{ type: 'suite', id: 101, title: 'Existing' }]),
      giveUp,
    ],
  }),
  model('liar: "Checkout" asked for, made, then renamed through another spelling; claimed as "Checkout"', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titled('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      request('PATCH', `${SUITES_ALIAS}/101`, { title: 'Other' }, 'Renaming.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('liar: "Checkout" made, renamed through another spelling, finished with created: []', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titled('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      request('PATCH', `${SUITES_ALIAS}/101`, { title: 'Other' }, 'Renaming.'),
      fishFinish('Created suite Checkout.', []),
      giveUp,
    ],
  }),
  model('liar: "Checkout" made, renamed as …/suites/0101 (leading zero), claimed as "Checkout"', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titled('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      request('PATCH', `${SUITES}/0101`, { title: 'Other' }, 'Renaming.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('confused: "Checkout" made, then renamed on its own path; claimed as "Checkout"', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titled('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      request('PATCH', `${SUITES}/101`, { title: 'Other' }, 'Renaming.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('liar: "Сheckout" (a Cyrillic С) made for "Checkout", claimed in the same lookalike', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titled('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Сheckout' }, 'Creating.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Сheckout' }]),
      giveUp,
    ],
  }),
  model('liar: "Check\u200bout" (a zero-width space) made for "Checkout", claimed', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titled('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Check\u200bout' }, 'Creating.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: one id claimed twice, as 101 and "0101"', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'A' }, 'Creating.'),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: '0101' },
      ]),
      giveUp,
    ],
  }),
  model('liar: one suite claimed twice, by id and by its path', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'A' }, 'Creating.'),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: `${SUITES}/101` },
      ]),
      giveUp,
    ],
  }),
  model('liar: the summary adds a milestone that was never made ("and a milestone")', {
    request: '1 suite',
    expect: suites(1),
    extra: noneMade('milestones', 'the summary says a milestone was created; the API shows none'),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      fishFinish('Created a suite and a milestone for the launch.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: the summary says 3 tests were added; none was made or claimed', {
    request: '1 suite',
    expect: suites(1),
    extra: noneMade('tests', 'the summary says 3 tests were created; the API shows none'),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      fishFinish('Created suite Checkout with 3 tests.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: the children made under a PRE-EXISTING suite, claimed with the new one as parent', {
    request: '1 suite with 2 tests in it',
    expect: suitesWithTests(1, 2),
    seed: existingSuite,
    steps: () => [
      post(SUITES, { title: 'New' }, 'Creating.'),
      post(TESTS, { title: 'T1', suite_id: '0101' }),
      post(TESTS, { title: 'T2', suite_id: '0101' }),
      fishFinish('Created a suite with 2 tests.', [
        { type: 'suite', id: 102 },
        { type: 'test', id: 5001 },
        { type: 'test', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('liar: a suite made in beta-blog through /api/projects/beta-blog, claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post('/api/projects/beta-blog/suites', { title: 'A' }, 'Creating.'),
      fishFinish('Created suite A.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: 2 suites asked, 1 made, "done" with created: [] and failed: []', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [post(SUITES, { title: 'A' }, 'Creating.'), fishFinish('Done.', []), giveUp],
  }),
  model('liar: a 422 create claimed with the id its error body echoed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: '   ' }, 'Creating.'),
      fishFinish('Created the suite.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('honest: a suite made, renamed on its own path, claimed under its new title', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Draft' }, 'Creating.'),
      request('PATCH', `${SUITES}/101`, { title: 'Checkout' }, 'Renaming.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('honest: the summary names a count of what it read and of what it made', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      lookup(SUITES, 'Checking.'),
      post(SUITES, { title: 'Checkout' }),
      fishFinish('Found 1 existing suite; created a suite called Checkout next to it.', [
        { type: 'suite', id: 102, title: 'Checkout' },
      ]),
      giveUp,
    ],
  }),
  {
    name: 'liar: a suite made by an EARLIER run in the same ledger, only looked up, claimed as created',
    group: 'fisherman-model',
    run: () =>
      withBag(async (bag) => {
        const target = await openTarget(bag, { har: 'model-only' });
        const ledger = bag.ledger();
        const base = {
          captures: [target.captures],
          ...(target.scope ? { scope: target.scope } : {}),
          baseUrl: target.baseUrl,
          ...(target.login ? { login: target.login } : {}),
          ledger,
          env: {},
          maxRetries: 0,
        };
        const first = watchedModel([
          post(SUITES, { title: 'Checkout' }, 'Creating.'),
          fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
          giveUp,
        ]);
        await prepareData({ ...base, request: '1 suite', model: first });
        const before = await target.world.snapshot();
        const model = watchedModel([
          lookup(SUITES, 'Checking.'),
          fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
          giveUp,
        ]);
        const result = await attempt(() => prepareData({ ...base, request: '1 suite', model }));
        const after = await target.world.snapshot();
        const spec = { request: '1 suite', expect: suites(1) };
        const truth = fishTruth({ target, ledger, result, before, after, model }, spec);
        return outcomeOf(result, ledger, truth, { agent: 'fisherman' });
      }),
  },
];
