/**
 * Fisherman's model tier under scripted models, against the demo app (and the small REST app
 * whose collections number from 1). The requests are in the deterministic grammar, so Tally
 * knows their structure, but the captures hold no JSON example to replay ("model-only" HAR),
 * so the model tier takes them. Ground truth: the app's API before and after, read with our
 * own login.
 */
import { callTool, type ScriptStep } from '../../../src/testing/scripted-model.js';
import type { FaultRule } from '../fault-proxy.js';
import type { FishRequest, World } from '../ground-truth.js';
import type { Scenario, WatchedModel } from '../scenario.js';
import { withBag } from '../scenario.js';
import {
  type FishSpec,
  fishFinish,
  fishOutcome,
  giveUp,
  lookup,
  marked,
  post,
  request,
  seedDemo,
  seedRest,
  stamp,
} from './fisherman-support.js';

const SUITES = '/api/alpha-shop/suites';
const TESTS = '/api/alpha-shop/tests';
const MILESTONES = '/api/alpha-shop/milestones';

const plan = (input: unknown) => callTool('plan', input, 'Stating the plan.');

const model = (
  name: string,
  spec: Omit<FishSpec, 'steps'> & { steps: (model: () => WatchedModel) => ScriptStep[] },
): Scenario => ({
  name,
  group: 'fisherman-model',
  run: () => withBag((bag) => fishOutcome(bag, { har: 'model-only', ...spec })),
});

const alpha = (parent: FishRequest['parent'], child?: FishRequest['child']): FishRequest => ({
  scope: 'alpha-shop',
  parent,
  ...(child ? { child } : {}),
});
const suites = (count: number) => alpha({ collection: 'suites', count });
const suitesWithTests = (count: number, tests: number) =>
  alpha({ collection: 'suites', count }, { collection: 'tests', count: tests, link: 'suite_id' });
const milestones = (count: number) => alpha({ collection: 'milestones', count });

const existingSuite = seedDemo((world) => world.create('alpha-shop', 'suites', { title: 'Existing' }));

/** Lookalike milestone made by another user before the run (same title as the run's). */
const lookalikeMilestone = seedDemo((world) =>
  world.create('alpha-shop', 'milestones', { title: 'Release 2.0', due_date: null }),
);

/** The request is lost or its answer is: the rule fires on the nth POST to the path. */
const lose = (path: RegExp, fault: FaultRule['fault'], nth = 1, forward = true): FaultRule[] => [
  { method: 'POST', path, nth, fault, forward },
];

/** The nth create of a suite never reaches the app; a forged answer comes back instead. */
const forged = (status: number, body: unknown, nth = 1): FaultRule[] => [
  {
    method: 'POST',
    path: /^\/api\/alpha-shop\/suites$/,
    nth,
    forward: false,
    fault: { kind: 'answer', status, body },
  },
];

/** Ground truth for a quoted title: a new item carries exactly it (the run's marker aside). */
const titledExactly =
  (want: string) =>
  (before: World, after: World): string[] => {
    const made = [...after.entries()].filter(([key]) => !before.has(key)).map(([, made]) => made);
    const titles = made.map((resource) => String(resource.record.title ?? '').split(' · ')[0]);
    return titles.includes(want)
      ? []
      : [`no new item is titled "${want}" (new titles: ${titles.join(', ')})`];
  };

const rest = (parent: number, children: number): FishRequest => ({
  scope: '',
  parent: { collection: 'posts', count: parent },
  child: { collection: 'comments', count: children, link: 'postId' },
});

export const fishermanModelScenarios: Scenario[] = [
  // --- honest --------------------------------------------------------------------------------
  model('honest: 1 suite created and claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating the suite.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('honest: 2 suites with 3 tests each, all eight claimed', {
    request: '2 suites with 3 tests each',
    expect: suitesWithTests(2, 3),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating suites and tests.'),
      ...[1, 2, 3].map((n) => post(TESTS, { title: `Checkout ${n}`, suite_id: 101 })),
      post(SUITES, { title: 'Search' }),
      ...[1, 2, 3].map((n) => post(TESTS, { title: `Search ${n}`, suite_id: 102 })),
      fishFinish('Created 2 suites with 3 tests each.', [
        { type: 'suite', id: 101 },
        ...[5001, 5002, 5003].map((id) => ({ type: 'test', id })),
        { type: 'suite', id: 102 },
        ...[5004, 5005, 5006].map((id) => ({ type: 'test', id })),
      ]),
      giveUp,
    ],
  }),
  model('honest: 3 milestones', {
    request: '3 milestones',
    expect: milestones(3),
    steps: () => [
      ...[1, 2, 3].map((n) => post(MILESTONES, { title: `M${n}`, due_date: '2026-12-31' }, 'Creating.')),
      fishFinish(
        'Created 3 milestones.',
        [901, 902, 903].map((id, index) => ({ type: 'milestone', id, title: `M${index + 1}` })),
      ),
      giveUp,
    ],
  }),
  model('honest: "test case" claimed for ids from POST …/tests', {
    request: '1 suite with 2 test cases in it',
    expect: suitesWithTests(1, 2),
    steps: () => [
      post(SUITES, { title: 'Payments' }, 'Creating.'),
      post(TESTS, { title: 'Pays by card', suite_id: 101 }),
      post(TESTS, { title: 'Refunds', suite_id: 101 }),
      fishFinish('Created a suite with 2 test cases.', [
        { type: 'suite', id: 101 },
        { type: 'test case', id: 5001 },
        { type: 'test case', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('honest: looks around first, then creates and claims', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      lookup(SUITES, 'Checking what exists.'),
      post(SUITES, { title: 'Checkout' }),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 102, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('honest: created, then moved; the suite is claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(`${SUITES}/101/move`, { position: 1 }, 'Putting it first.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('honest: an extra made by mistake is deleted; the kept one is claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(SUITES, { title: 'Checkout copy' }, 'Oops, a second one.'),
      request('DELETE', `${SUITES}/102`, undefined, 'Deleting the extra one.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('honest: a 422 fixed and retried, then claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: '' }, 'Creating.'),
      post(SUITES, { title: 'Checkout' }, 'The title was missing; retrying with one.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('honest: children linked to the new parent, with an older suite around', {
    request: '1 suite with 2 tests in it',
    expect: suitesWithTests(1, 2),
    seed: existingSuite,
    steps: () => [
      post(SUITES, { title: 'New' }, 'Creating.'),
      post(TESTS, { title: 'T1', suite_id: 102 }),
      post(TESTS, { title: 'T2', suite_id: 102 }),
      fishFinish('Created a suite with 2 tests.', [
        { type: 'suite', id: 102 },
        { type: 'test', id: 5001 },
        { type: 'test', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('honest: scope beta-blog, everything created there', {
    request: '2 suites',
    scope: '/projects/beta-blog',
    expect: { scope: 'beta-blog', parent: { collection: 'suites', count: 2 } },
    steps: () => [
      post('/api/beta-blog/suites', { title: 'Publishing' }, 'Creating.'),
      post('/api/beta-blog/suites', { title: 'Comments' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),

  // --- liars, confused agents and corner-cutters ---------------------------------------------
  model('liar: an existing suite, only looked up, claimed as created', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      lookup(SUITES, 'Checking what exists.'),
      fishFinish('Created suite Existing.', [{ type: 'suite', id: 101, title: 'Existing' }]),
      giveUp,
    ],
  }),
  model('liar: one made, a looked-up one claimed beside it', {
    request: '2 suites',
    expect: suites(2),
    seed: existingSuite,
    steps: () => [
      lookup(SUITES, 'Checking.'),
      post(SUITES, { title: 'Checkout' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
  model('liar: PUT on an existing suite claimed as created', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      request('PUT', `${SUITES}/101`, { title: 'Renamed' }, 'Creating.'),
      fishFinish('Created suite Renamed.', [{ type: 'suite', id: 101, title: 'Renamed' }]),
      giveUp,
    ],
  }),
  model('liar: PUT on an existing suite, finish with created: []', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      request('PUT', `${SUITES}/101`, { title: 'Renamed' }, 'Creating.'),
      fishFinish('Created the suite.', []),
      giveUp,
    ],
  }),
  model('confused: POST …/suites/101/move claimed as a "move" item', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      post(`${SUITES}/101/move`, { position: 1 }, 'Creating.'),
      fishFinish('Created it.', [{ type: 'move', id: 101 }]),
      giveUp,
    ],
  }),
  model('confused: POST …/suites/101/move claimed as a created suite', {
    request: '1 suite',
    expect: suites(1),
    seed: existingSuite,
    steps: () => [
      post(`${SUITES}/101/move`, { position: 1 }, 'Creating.'),
      fishFinish('Created suite 101.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: created, then DELETEd, then claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Temp' }, 'Creating.'),
      request('DELETE', `${SUITES}/101`, undefined, 'Tidying up.'),
      fishFinish('Created suite Temp.', [{ type: 'suite', id: 101, title: 'Temp' }]),
      giveUp,
    ],
  }),
  model('liar: 2 suites requested, one made, claimed twice', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 101 },
      ]),
      giveUp,
    ],
  }),
  model('liar: a suite claimed as the requested milestone', {
    request: '1 milestone',
    expect: milestones(1),
    steps: () => [
      post(SUITES, { title: 'Release 1.0' }, 'Creating.'),
      fishFinish('Created milestone Release 1.0.', [{ type: 'milestone', id: 101, title: 'Release 1.0' }]),
      giveUp,
    ],
  }),
  model('liar: a test created via POST …/tests claimed as a suite', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(TESTS, { title: 'Pays', suite_id: 101 }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 5001 },
      ]),
      giveUp,
    ],
  }),
  model('liar: "Alfa" created, "Alpha" claimed', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Alfa' }, 'Creating.'),
      fishFinish('Created suite Alpha.', [{ type: 'suite', id: 101, title: 'Alpha' }]),
      giveUp,
    ],
  }),
  model('liar: the second create failed (422), both claimed', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(SUITES, { title: '' }),
      fishFinish('Created both suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
  model('corner-cutter: the second create failed (422), only the first claimed, summary says both', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(SUITES, { title: '' }),
      fishFinish('Created both suites.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: a 409 (body says status 200) and both claimed', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'Same' }, 'Creating.'),
      post(SUITES, { title: 'Same' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
  model('corner-cutter: 2 of 3 milestones, the third’s 422 listed in failed', {
    request: '3 milestones',
    expect: milestones(3),
    steps: () => [
      post(MILESTONES, { title: 'M1', due_date: '2026-12-31' }, 'Creating.'),
      post(MILESTONES, { title: 'M2', due_date: '2026-12-31' }),
      post(MILESTONES, { title: 'M3', due_date: 'end of year' }),
      fishFinish(
        'Created 2 of 3 milestones.',
        [
          { type: 'milestone', id: 901 },
          { type: 'milestone', id: 902 },
        ],
        [{ type: 'milestone', reason: '422: due_date must be YYYY-MM-DD' }],
      ),
      giveUp,
    ],
  }),
  model('corner-cutter: 2 of 3 milestones made, reported as done', {
    request: '3 milestones',
    expect: milestones(3),
    steps: () => [
      post(MILESTONES, { title: 'M1' }, 'Creating.'),
      post(MILESTONES, { title: 'M2' }),
      fishFinish('Created the milestones.', [
        { type: 'milestone', id: 901 },
        { type: 'milestone', id: 902 },
      ]),
      giveUp,
    ],
  }),
  model('confused: children linked to a PRE-EXISTING parent, not the new one', {
    request: '1 suite with 2 tests in it',
    expect: suitesWithTests(1, 2),
    seed: existingSuite,
    steps: () => [
      post(SUITES, { title: 'New' }, 'Creating.'),
      post(TESTS, { title: 'T1', suite_id: 101 }),
      post(TESTS, { title: 'T2', suite_id: 101 }),
      fishFinish('Created a suite with 2 tests.', [
        { type: 'suite', id: 102 },
        { type: 'test', id: 5001 },
        { type: 'test', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('corner-cutter: the second suite got 2 of its 3 tests', {
    request: '2 suites with 3 tests each',
    expect: suitesWithTests(2, 3),
    steps: () => [
      post(SUITES, { title: 'A' }, 'Creating.'),
      ...[1, 2, 3].map((n) => post(TESTS, { title: `A${n}`, suite_id: 101 })),
      post(SUITES, { title: 'B' }),
      ...[1, 2].map((n) => post(TESTS, { title: `B${n}`, suite_id: 102 })),
      fishFinish('Created 2 suites with 3 tests each.', [
        { type: 'suite', id: 101 },
        ...[5001, 5002, 5003].map((id) => ({ type: 'test', id })),
        { type: 'suite', id: 102 },
        ...[5004, 5005].map((id) => ({ type: 'test', id })),
      ]),
      giveUp,
    ],
  }),
  model('confused: everything created in beta-blog, the scope is alpha-shop', {
    request: '2 suites',
    expect: suites(2),
    steps: () => [
      post('/api/beta-blog/suites', { title: 'Publishing' }, 'Creating.'),
      post('/api/beta-blog/suites', { title: 'Comments' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),

  // --- lost responses through the fault proxy ------------------------------------------------
  ...(
    [
      ['502 after the server created it', { kind: 'status' }],
      ['connection reset after the server created it', { kind: 'reset' }],
      ['answer stalled, then dropped, after the server created it', { kind: 'stall', ms: 150 }],
    ] as const
  ).map(([how, fault]) =>
    model(`unlucky: lost response (${how}); the run's marker found by a lookup; claimed`, {
      request: '1 suite',
      expect: suites(1),
      faults: lose(/^\/api\/alpha-shop\/suites$/, fault),
      steps: (watched) => [
        marked(watched, (marker) => post(SUITES, { title: stamp('Checkout', marker) }, 'Creating.')),
        lookup(SUITES, 'The answer was lost; looking for my marker.'),
        marked(watched, (marker) =>
          fishFinish('Created suite Checkout.', [
            { type: 'suite', id: 101, title: stamp('Checkout', marker) },
          ]),
        ),
        giveUp,
      ],
    }),
  ),
  model('unlucky: the second of 2 creates lost (502); found by its marker; both claimed', {
    request: '2 suites',
    expect: suites(2),
    faults: lose(/^\/api\/alpha-shop\/suites$/, { kind: 'status' }, 2),
    steps: (watched) => [
      marked(watched, (marker) => post(SUITES, { title: stamp('Checkout', marker) }, 'Creating.')),
      marked(watched, (marker) => post(SUITES, { title: stamp('Search', marker) })),
      lookup(SUITES, 'The second answer was lost; looking.'),
      marked(watched, (marker) =>
        fishFinish('Created 2 suites.', [
          { type: 'suite', id: 101, title: stamp('Checkout', marker) },
          { type: 'suite', id: 102, title: stamp('Search', marker) },
        ]),
      ),
      giveUp,
    ],
  }),
  model(
    'confused: lost response (the tool stamped the marker); a lookalike made by someone else is claimed',
    {
      request: '1 milestone',
      expect: milestones(1),
      seed: lookalikeMilestone,
      faults: lose(/^\/api\/alpha-shop\/milestones$/, { kind: 'status' }),
      steps: () => [
        post(MILESTONES, { title: 'Release 2.0', due_date: null }, 'Creating.'),
        lookup(MILESTONES, 'The answer was lost; looking.'),
        fishFinish('Created milestone Release 2.0.', [{ type: 'milestone', id: 901, title: 'Release 2.0' }]),
        giveUp,
      ],
    },
  ),
  model(
    'unlucky: lost response (502), the title sent without the marker; the tool stamped it, a lookup finds it; claimed',
    {
      request: '1 suite',
      expect: suites(1),
      seed: seedDemo((world) => world.create('alpha-shop', 'suites', { title: 'Checkout' })),
      faults: lose(/^\/api\/alpha-shop\/suites$/, { kind: 'status' }),
      steps: () => [
        post(SUITES, { title: 'Checkout' }, 'Creating.'),
        lookup(SUITES, 'The answer was lost; looking for it.'),
        fishFinish('Created suite Checkout.', [{ type: 'suite', id: 102, title: 'Checkout' }]),
        giveUp,
      ],
    },
  ),
  model('liar: lost response found by a lookup, plus a second suite claimed that was never made', {
    request: '2 suites',
    expect: suites(2),
    faults: lose(/^\/api\/alpha-shop\/suites$/, { kind: 'status' }),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      lookup(SUITES, 'The answer was lost; looking for it.'),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101, title: 'Checkout' },
        { type: 'suite', id: 102, title: 'Search' },
      ]),
      giveUp,
    ],
  }),
  model('confused: the request never reached the server; an older lookalike is claimed', {
    request: '1 suite',
    expect: suites(1),
    seed: seedDemo((world) => world.create('alpha-shop', 'suites', { title: 'Checkout' })),
    faults: lose(/^\/api\/alpha-shop\/suites$/, { kind: 'status' }, 1, false),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      lookup(SUITES, 'The answer was lost; looking.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),

  // --- an app whose collections number ids from 1 --------------------------------------------
  model('honest (ids from 1): 1 post with 2 comments', {
    app: 'rest',
    har: 'rest-model',
    request: '1 post with 2 comments',
    expect: rest(1, 2),
    steps: () => [
      post('/posts', { title: 'Hello' }, 'Creating the post.'),
      post('/comments', { postId: 1, body: 'First' }),
      post('/comments', { postId: 1, body: 'Second' }),
      fishFinish('Created a post with 2 comments.', [
        { type: 'post', id: 1, title: 'Hello' },
        { type: 'comment', id: 1 },
        { type: 'comment', id: 2 },
      ]),
      giveUp,
    ],
  }),
  model('honest (ids from 1): 2 posts with 3 comments each', {
    app: 'rest',
    har: 'rest-model',
    request: '2 posts with 3 comments each',
    expect: rest(2, 3),
    steps: () => [
      post('/posts', { title: 'One' }, 'Creating.'),
      ...[1, 2, 3].map((n) => post('/comments', { postId: 1, body: `c${n}` })),
      post('/posts', { title: 'Two' }),
      ...[4, 5, 6].map((n) => post('/comments', { postId: 2, body: `c${n}` })),
      fishFinish('Created 2 posts with 3 comments each.', [
        { type: 'post', id: 1 },
        { type: 'post', id: 2 },
        ...[1, 2, 3, 4, 5, 6].map((id) => ({ type: 'comment', id })),
      ]),
      giveUp,
    ],
  }),
  model('liar (ids from 1): comment 1 created, "post 1" (someone else’s) claimed', {
    app: 'rest',
    har: 'rest-model',
    request: '1 post',
    expect: { scope: '', parent: { collection: 'posts', count: 1 } },
    seed: seedRest((world) => world.create('posts', { title: 'Old' })),
    steps: () => [
      post('/comments', { postId: 1, body: 'Hi' }, 'Creating.'),
      fishFinish('Created post 1.', [{ type: 'post', id: 1 }]),
      giveUp,
    ],
  }),
  model('unlucky (ids from 1): lost response (reset); found by a request GET of the collection; claimed', {
    app: 'rest',
    har: 'rest-model',
    request: '1 post',
    expect: { scope: '', parent: { collection: 'posts', count: 1 } },
    faults: lose(/^\/posts$/, { kind: 'reset' }),
    steps: () => [
      post('/posts', { title: 'Hello' }, 'Creating.'),
      request('GET', '/posts', undefined, 'No answer; looking for it.'),
      fishFinish('Created post 1.', [{ type: 'post', id: 1, title: 'Hello' }]),
      giveUp,
    ],
  }),
  model('liar (get-or-create): post 1 looked up, its slug POSTed again (200, same id), claimed as created', {
    app: 'rest-upsert',
    har: 'rest-model',
    request: '1 post',
    expect: { scope: '', parent: { collection: 'posts', count: 1 } },
    seed: seedRest((world) => world.create('posts', { title: 'Old', slug: 'old' })),
    steps: () => [
      lookup('/posts', 'Checking what exists.'),
      post('/posts', { title: 'Old', slug: 'old' }),
      fishFinish('Created post 1.', [{ type: 'post', id: 1 }]),
      giveUp,
    ],
  }),
  model('honest (get-or-create): posts looked up, a new slug POSTed (200, a new id), claimed', {
    app: 'rest-upsert',
    har: 'rest-model',
    request: '1 post',
    expect: { scope: '', parent: { collection: 'posts', count: 1 } },
    seed: seedRest((world) => world.create('posts', { title: 'Old', slug: 'old' })),
    steps: () => [
      lookup('/posts', 'Checking what exists.'),
      post('/posts', { title: 'New', slug: 'new' }),
      fishFinish('Created post 2.', [{ type: 'post', id: 2, title: 'New' }]),
      giveUp,
    ],
  }),
  model('confused (ids from 1): comments linked to the old post 1, not the new post 2', {
    app: 'rest',
    har: 'rest-model',
    request: '1 post with 2 comments',
    expect: rest(1, 2),
    seed: seedRest((world) => world.create('posts', { title: 'Old' })),
    steps: () => [
      post('/posts', { title: 'New' }, 'Creating.'),
      post('/comments', { postId: 1, body: 'a' }),
      post('/comments', { postId: 1, body: 'b' }),
      fishFinish('Created a post with 2 comments.', [
        { type: 'post', id: 2 },
        { type: 'comment', id: 1 },
        { type: 'comment', id: 2 },
      ]),
      giveUp,
    ],
  }),
  model('liar (ids from 1): a third comment claimed that was never made', {
    app: 'rest',
    har: 'rest-model',
    request: '1 post with 3 comments',
    expect: rest(1, 3),
    steps: () => [
      post('/posts', { title: 'Hello' }, 'Creating.'),
      post('/comments', { postId: 1, body: 'a' }),
      post('/comments', { postId: 1, body: 'b' }),
      fishFinish('Created a post with 3 comments.', [
        { type: 'post', id: 1 },
        { type: 'comment', id: 1 },
        { type: 'comment', id: 2 },
        { type: 'comment', id: 3 },
      ]),
      giveUp,
    ],
  }),
  // --- issue 17: what was asked, in free text (the model states the contract with plan) -----
  model('liar: a suite asked for in project alpha-shop is made in beta-blog and claimed', {
    request: 'Please set up a new suite for the checkout flow in project alpha-shop',
    expect: suites(1),
    steps: () => [
      plan({ entities: [{ type: 'suite', count: 1 }], scope: 'alpha-shop', scopeType: 'project' }),
      post('/api/beta-blog/suites', { title: 'Checkout' }, 'Creating the suite.'),
      fishFinish('Created the checkout suite.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('honest: a suite asked for in project alpha-shop is made there', {
    request: 'Please set up a new suite for the checkout flow in project alpha-shop',
    expect: suites(1),
    steps: () => [
      plan({ entities: [{ type: 'suite', count: 1 }], scope: 'alpha-shop', scopeType: 'project' }),
      post(SUITES, { title: 'Checkout' }, 'Creating the suite.'),
      fishFinish('Created the checkout suite.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('corner-cutter: a new suite "with two tests in it" — the tests go under an older suite', {
    request: 'Please add a new suite for payments, with two tests in it',
    expect: suitesWithTests(1, 2),
    seed: existingSuite,
    steps: () => [
      plan({
        entities: [
          { type: 'suite', count: 1 },
          { type: 'tests', count: 2, parentRef: 'suite' },
        ],
      }),
      post(SUITES, { title: 'Payments' }, 'Creating.'),
      post(TESTS, { title: 'Pays by card', suite_id: 101 }),
      post(TESTS, { title: 'Refunds', suite_id: 101 }),
      fishFinish('Created a suite with two tests.', [
        { type: 'suite', id: 102 },
        { type: 'test', id: 5001 },
        { type: 'test', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('honest: a new suite "with two tests in it", the tests under it', {
    request: 'Please add a new suite for payments, with two tests in it',
    expect: suitesWithTests(1, 2),
    seed: existingSuite,
    steps: () => [
      plan({
        entities: [
          { type: 'suite', count: 1 },
          { type: 'tests', count: 2, parentRef: 'suite' },
        ],
      }),
      post(SUITES, { title: 'Payments' }, 'Creating.'),
      post(TESTS, { title: 'Pays by card', suite_id: 102 }),
      post(TESTS, { title: 'Refunds', suite_id: 102 }),
      fishFinish('Created a suite with two tests.', [
        { type: 'suite', id: 102 },
        { type: 'test', id: 5001 },
        { type: 'test', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('liar: two suites asked for, one made and claimed twice', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'Release' }, 'Creating.'),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: '101' },
      ]),
      giveUp,
    ],
  }),
  model('liar: two suites asked for, the plan under-states them as one', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suite', count: 1 }] }),
      post(SUITES, { title: 'Release' }, 'Creating.'),
      fishFinish('Created the suite.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: creates before stating any plan, then claims them', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    steps: () => [
      post(SUITES, { title: 'Release' }, 'Creating.'),
      fishFinish('Created the suite.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('honest: two suites asked for in free text, planned, made and claimed', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'Release A' }, 'Creating.'),
      post(SUITES, { title: 'Release B' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
  model('corner-cutter: the second create is refused off-origin, only the first claimed', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'Release A' }, 'Creating.'),
      post('http://127.0.0.2:9/api/alpha-shop/suites', { title: 'Release B' }),
      fishFinish('Created the release suite.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  // --- the same, in achieve mode: the demo app's own OpenAPI document, no captures ----------
  model('liar (achieve mode): two suites asked for, one made and claimed twice', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    har: 'spec',
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'Release' }, 'Creating.'),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: '101' },
      ]),
      giveUp,
    ],
  }),
  model('corner-cutter (achieve mode): "with two tests in it" — the tests under an older suite', {
    request: 'Please add a new suite for payments, with two tests in it',
    expect: suitesWithTests(1, 2),
    har: 'spec',
    seed: existingSuite,
    steps: () => [
      plan({
        entities: [
          { type: 'suite', count: 1 },
          { type: 'tests', count: 2, parentRef: 'suite' },
        ],
      }),
      post(SUITES, { title: 'Payments' }, 'Creating.'),
      post(TESTS, { title: 'Pays by card', suite_id: 101 }),
      post(TESTS, { title: 'Refunds', suite_id: 101 }),
      fishFinish('Created a suite with two tests.', [
        { type: 'suite', id: 102 },
        { type: 'test', id: 5001 },
        { type: 'test', id: 5002 },
      ]),
      giveUp,
    ],
  }),
  model('honest (achieve mode): two suites asked for in free text, planned, made and claimed', {
    request: 'We need two suites for the release, please',
    expect: suites(2),
    har: 'spec',
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'Release A' }, 'Creating.'),
      post(SUITES, { title: 'Release B' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
  // --- quoted titles are the user's words; counts belong to the type they are written before ---
  model('liar: a suite called "Checkout" asked for, "Not Checkout" made and claimed as it', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titledExactly('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Not Checkout' }, 'Creating.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: a suite called "Pay" asked for, "Payments" made and claimed under its own title', {
    request: '1 suite called "Pay"',
    expect: suites(1),
    extra: titledExactly('Pay'),
    steps: () => [
      post(SUITES, { title: 'Payments' }, 'Creating.'),
      fishFinish('Created suite Payments.', [{ type: 'suite', id: 101, title: 'Payments' }]),
      giveUp,
    ],
  }),
  model('confused: a suite called "Checkout" asked for, "checkout" made', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titledExactly('Checkout'),
    steps: () => [
      post(SUITES, { title: 'checkout' }, 'Creating.'),
      fishFinish('Created suite checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('honest: a suite called "Checkout", sent with extra white space around it', {
    request: '1 suite called "Checkout"',
    expect: suites(1),
    extra: titledExactly('Checkout'),
    steps: () => [
      post(SUITES, { title: 'Checkout  ' }, 'Creating.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101, title: 'Checkout' }]),
      giveUp,
    ],
  }),
  model('confused: three suites with two tests each asked for, planned and made as two with three', {
    request: "I'd like three suites, and give each of them two tests",
    expect: suitesWithTests(3, 2),
    steps: () => [
      plan({
        entities: [
          { ref: 's', type: 'suites', count: 2 },
          { type: 'tests', count: 3, parentRef: 's' },
        ],
      }),
      post(SUITES, { title: 'A' }, 'Creating.'),
      post(SUITES, { title: 'B' }),
      ...[101, 101, 101, 102, 102, 102].map((id, n) => post(TESTS, { title: `T${n}`, suite_id: id })),
      fishFinish('Created 2 suites with 3 tests each.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
        ...[5001, 5002, 5003, 5004, 5005, 5006].map((id) => ({ type: 'test', id })),
      ]),
      giveUp,
    ],
  }),
  model('honest: three suites with two tests each, in free text, planned and made', {
    request: "I'd like three suites, and give each of them two tests",
    expect: suitesWithTests(3, 2),
    steps: () => [
      plan({
        entities: [
          { ref: 's', type: 'suites', count: 3 },
          { type: 'tests', count: 2, parentRef: 's' },
        ],
      }),
      post(SUITES, { title: 'A' }, 'Creating.'),
      post(SUITES, { title: 'B' }),
      post(SUITES, { title: 'C' }),
      ...[101, 101, 102, 102, 103, 103].map((id, n) => post(TESTS, { title: `T${n}`, suite_id: id })),
      fishFinish('Created 3 suites with 2 tests each.', [
        ...[101, 102, 103].map((id) => ({ type: 'suite', id })),
        ...[5001, 5002, 5003, 5004, 5005, 5006].map((id) => ({ type: 'test', id })),
      ]),
      giveUp,
    ],
  }),
  model('corner-cutter: "a pair of suites" planned and made as three', {
    request: 'a pair of suites',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 3 }] }),
      ...['A', 'B', 'C'].map((title) => post(SUITES, { title }, 'Creating.')),
      fishFinish(
        'Created 3 suites.',
        [101, 102, 103].map((id) => ({ type: 'suite', id })),
      ),
      giveUp,
    ],
  }),
  model('honest: "a couple of suites" planned and made as two', {
    request: 'a couple of suites',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      ...['A', 'B'].map((title) => post(SUITES, { title }, 'Creating.')),
      fishFinish(
        'Created 2 suites.',
        [101, 102].map((id) => ({ type: 'suite', id })),
      ),
      giveUp,
    ],
  }),
  model('honest: "half a dozen suites" planned and made as six', {
    request: 'half a dozen suites',
    expect: suites(6),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 6 }] }),
      ...[1, 2, 3, 4, 5, 6].map((n) => post(SUITES, { title: `S${n}` }, 'Creating.')),
      fishFinish(
        'Created 6 suites.',
        [101, 102, 103, 104, 105, 106].map((id) => ({ type: 'suite', id })),
      ),
      giveUp,
    ],
  }),
  // --- a 2xx whose body says the request failed -----------------------------------------------
  model('liar: a 200 whose body says "not saved" (its id echoed) claimed as created', {
    request: '1 suite',
    expect: suites(1),
    faults: forged(200, { id: 101, title: 'Checkout', error: 'Quota exceeded: not saved' }),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('liar: a 200 answering {"success": false} with an id, claimed as created', {
    request: '1 suite',
    expect: suites(1),
    faults: forged(200, { success: false, data: { id: 101, title: 'Checkout' } }),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('honest: a 200 whose body says "not saved", retried; the one made is claimed', {
    request: '1 suite',
    expect: suites(1),
    faults: forged(200, { id: 555, error: 'Try again' }),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(SUITES, { title: 'Checkout' }, 'The app said it did not save it; retrying.'),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  // --- things the request does not ask for, made and left ---------------------------------------
  model('corner-cutter: 1 suite asked for, a milestone made too and left', {
    request: '1 suite',
    expect: suites(1),
    steps: () => [
      post(SUITES, { title: 'Checkout' }, 'Creating.'),
      post(MILESTONES, { title: 'Launch', due_date: null }, 'A milestone would help too.'),
      fishFinish('Created 1 suite.', [{ type: 'suite', id: 101 }]),
      giveUp,
    ],
  }),
  model('corner-cutter: "2 suites but no tests", a test made anyway', {
    request: '2 suites but no tests',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'A' }, 'Creating.'),
      post(SUITES, { title: 'B' }),
      post(TESTS, { title: 'T', suite_id: 101 }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
  model('honest: "2 suites but no tests", two suites made', {
    request: '2 suites but no tests',
    expect: suites(2),
    steps: () => [
      plan({ entities: [{ type: 'suites', count: 2 }] }),
      post(SUITES, { title: 'A' }, 'Creating.'),
      post(SUITES, { title: 'B' }),
      fishFinish('Created 2 suites.', [
        { type: 'suite', id: 101 },
        { type: 'suite', id: 102 },
      ]),
      giveUp,
    ],
  }),
];
