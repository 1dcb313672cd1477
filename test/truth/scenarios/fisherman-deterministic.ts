/**
 * Fisherman's deterministic tier (no model): the bundled demo HAR against a live demo app,
 * and a HAR of the small REST app whose collections number from 1. Unlucky runs go through
 * the fault proxy. Ground truth: the app's own API before and after.
 */
import type { FaultRule } from '../fault-proxy.js';
import type { FishRequest } from '../ground-truth.js';
import { type Scenario, withBag } from '../scenario.js';
import { type FishSpec, fishOutcome, seedDemo, seedRest } from './fisherman-support.js';

const deterministic = (name: string, spec: Omit<FishSpec, 'steps'>): Scenario => ({
  name,
  group: 'fisherman-deterministic',
  run: () => withBag((bag) => fishOutcome(bag, spec)),
});

const alpha = (parent: FishRequest['parent'], child?: FishRequest['child']): FishRequest => ({
  scope: 'alpha-shop',
  parent,
  ...(child ? { child } : {}),
});
const suites = (count: number) => alpha({ collection: 'suites', count });
const suitesWithTests = (count: number, tests: number) =>
  alpha({ collection: 'suites', count }, { collection: 'tests', count: tests, link: 'suite_id' });
const posts = (count: number, comments: number): FishRequest => ({
  scope: '',
  parent: { collection: 'posts', count },
  child: { collection: 'comments', count: comments, link: 'postId' },
});

const SUITES = /^\/api\/alpha-shop\/suites$/;
const lose = (path: RegExp, fault: FaultRule['fault'], nth = 1, forward = true): FaultRule[] => [
  { method: 'POST', path, nth, fault, forward },
];

export const fishermanDeterministicScenarios: Scenario[] = [
  // --- the common case -----------------------------------------------------------------------
  deterministic('honest: 1 suite', { request: '1 suite', expect: suites(1) }),
  deterministic('honest: 2 suites with 3 tests each', {
    request: '2 suites with 3 tests each',
    expect: suitesWithTests(2, 3),
  }),
  deterministic('honest: 3 milestones', {
    request: '3 milestones',
    expect: alpha({ collection: 'milestones', count: 3 }),
  }),
  deterministic('honest: "a suite with two tests in it"', {
    request: 'a suite with two tests in it',
    expect: suitesWithTests(1, 2),
  }),
  deterministic('honest: 2 suites while older suites and tests exist', {
    request: '2 suites',
    expect: suites(2),
    seed: seedDemo(async (world) => {
      const suite = await world.create('alpha-shop', 'suites', { title: 'Existing' });
      await world.create('alpha-shop', 'tests', { title: 'Old test', suite_id: Number(suite) });
    }),
  }),
  deterministic('honest: scope beta-blog, 1 suite with 1 test in it, all in beta-blog', {
    request: '1 suite with 1 test in it',
    scope: '/projects/beta-blog',
    expect: {
      scope: 'beta-blog',
      parent: { collection: 'suites', count: 1 },
      child: { collection: 'tests', count: 1, link: 'suite_id' },
    },
  }),
  deterministic('honest (ids from 1): 1 post with 2 comments', {
    app: 'rest',
    request: '1 post with 2 comments',
    expect: posts(1, 2),
  }),
  deterministic('honest (ids from 1): 2 posts with 3 comments each', {
    app: 'rest',
    request: '2 posts with 3 comments each',
    expect: posts(2, 3),
  }),
  deterministic('honest (ids from 1): 1 post with 2 comments beside an older post and comment', {
    app: 'rest',
    request: '1 post with 2 comments',
    expect: posts(1, 2),
    seed: seedRest(async (world) => {
      await world.create('posts', { title: 'Old' });
      await world.create('comments', { postId: 1, body: 'old comment' });
    }),
  }),
  deterministic('honest (ids from 1, 403 for missing): 1 post with 2 comments', {
    app: 'rest-403',
    request: '1 post with 2 comments',
    expect: posts(1, 2),
  }),

  // --- unlucky and impossible ----------------------------------------------------------------
  deterministic('impossible: no endpoint creates widgets', {
    request: '2 widgets',
    expect: alpha({ collection: 'widgets', count: 2 }),
  }),
  deterministic('honest: 2 tests and no suite here: the one suite they need is made and said', {
    request: '2 tests',
    expect: {
      ...alpha({ collection: 'tests', count: 2 }),
      container: { collection: 'suites', max: 1, link: 'suite_id' },
    },
  }),
  deterministic('unlucky: the third milestone rejected (422) by the server', {
    request: '3 milestones',
    expect: alpha({ collection: 'milestones', count: 3 }),
    faults: lose(/^\/api\/alpha-shop\/milestones$/, { kind: 'status', status: 422 }, 3, false),
  }),
  deterministic('unlucky: the second create’s response lost (502); the server made both', {
    request: '2 suites',
    expect: suites(2),
    faults: lose(SUITES, { kind: 'status' }, 2),
  }),
  deterministic('unlucky: the first create’s connection reset; the server made it', {
    request: '2 suites',
    expect: suites(2),
    faults: lose(SUITES, { kind: 'reset' }, 1),
  }),
  deterministic('unlucky: the answer stalls, then drops; the server made it', {
    request: '1 suite',
    expect: suites(1),
    faults: lose(SUITES, { kind: 'stall', ms: 150 }, 1),
  }),
  deterministic('unlucky: the parent’s response lost before its tests are made', {
    request: '1 suite with 2 tests in it',
    expect: suitesWithTests(1, 2),
    faults: lose(SUITES, { kind: 'status' }, 1),
  }),
  deterministic('unlucky: a child’s response lost (reset) mid-way', {
    request: '1 suite with 2 tests in it',
    expect: suitesWithTests(1, 2),
    faults: lose(/^\/api\/alpha-shop\/tests$/, { kind: 'reset' }, 2),
  }),
  deterministic('unlucky: the second create never reached the server (502 from the proxy)', {
    request: '2 suites',
    expect: suites(2),
    faults: lose(SUITES, { kind: 'status' }, 2, false),
  }),
  // --- issue 17: wordings the broader parser reads, planned without a model ------------------
  deterministic('honest: "two suites with three tests in each", number words', {
    request: 'two suites with three tests in each',
    expect: suitesWithTests(2, 3),
  }),
  deterministic('honest: "a suite with 2 tests per suite in project alpha-shop"', {
    request: 'a suite with 2 tests per suite in project alpha-shop',
    expect: suitesWithTests(1, 2),
  }),
  deterministic('unlucky: "two suites with three tests in each", the second suite lost and not found', {
    request: 'two suites with three tests in each',
    expect: suitesWithTests(2, 3),
    faults: lose(SUITES, { kind: 'status' }, 2, false),
  }),
  // --- one new parent, and children in brackets ----------------------------------------------
  deterministic('honest: "10 tests in a new suite" while an older suite exists: a new one is made', {
    request: '10 tests in a new suite',
    expect: suitesWithTests(1, 10),
    seed: seedDemo(async (world) => {
      await world.create('alpha-shop', 'suites', { title: 'Existing' });
    }),
  }),
  deterministic('unlucky: "3 tests under a new suite", the suite’s response lost', {
    request: '3 tests under a new suite',
    expect: suitesWithTests(1, 3),
    faults: lose(SUITES, { kind: 'status' }, 1),
  }),
  deterministic('honest: "3 suites (3 tests each)"', {
    request: '3 suites (3 tests each)',
    expect: suitesWithTests(3, 3),
  }),
  // --- words the tier must not drop: refused, never plain tests or another scope -------------
  deterministic('refused: "2 flaky test cases" are not plain tests (the qualifier was dropped)', {
    request: '2 flaky test cases',
    expect: alpha({ collection: 'flaky-tests', count: 2 }),
  }),
  deterministic('refused: "a suite with 2 smoke-tests", a qualifier joined to its type', {
    request: 'a suite with 2 smoke-tests',
    expect: alpha(
      { collection: 'suites', count: 1 },
      { collection: 'smoke-tests', count: 2, link: 'suite_id' },
    ),
  }),
  deterministic('refused: "2 suites in team alpha-shop" while the run is scoped to project alpha-shop', {
    request: '2 suites in team alpha-shop',
    expect: { scope: 'team alpha-shop', parent: { collection: 'suites', count: 2 } },
  }),
];
