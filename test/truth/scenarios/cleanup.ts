/**
 * `cleanupRun` deletes exactly what a run created (children first) and confirms it; repeating
 * it is fine. Ground truth: the target's own API before the run, after it, and after cleanup.
 */
import { cleanupRun } from '../../../src/agents/fisherman/cleanup-run.js';
import { itemRef, type World } from '../ground-truth.js';
import {
  attempt,
  type Bag,
  type Outcome,
  outcomeOf,
  runIds,
  type Scenario,
  Truth,
  withBag,
} from '../scenario.js';
import {
  type FishSpec,
  fishFinish,
  giveUp,
  post,
  request,
  runFish,
  seedDemo,
  seedRest,
} from './fisherman-support.js';

const describeKey = (key: string) => key.replace(/\|/g, '/').replace(/^\//, '');

/** After cleanup the API lists exactly what it listed before the run; Tally's deletions are real. */
function cleanupTruth(
  before: World,
  afterRun: World,
  afterCleanup: World,
  verified: Record<string, unknown>[],
  deletions: { path: string; type: string; id: string; ok: boolean }[],
  status: string,
) {
  const truth = new Truth();
  const made = [...afterRun.keys()].filter((key) => !before.has(key));
  truth.check(made.length > 0, 'scenario setup: the run created nothing to clean');
  for (const key of made)
    truth.check(!afterCleanup.has(key), `${describeKey(key)} (made by the run) still exists after cleanup`);
  for (const key of before.keys())
    truth.check(afterCleanup.has(key), `${describeKey(key)} (older than the run) was deleted by cleanup`);
  for (const item of verified) {
    const target = String(item.target ?? '');
    const ref = itemRef(item);
    const key = [...afterRun.keys()].find(
      (candidate) =>
        candidate.endsWith(`|${ref.id}`) && (!ref.collection || candidate.includes(`|${ref.collection}|`)),
    );
    truth.check(
      key !== undefined && !before.has(key) && !afterCleanup.has(key),
      `reported deletion ${target}: not a resource the run made that is now gone`,
    );
  }
  // A deletion reported as confirmed must be gone. One reported as NOT confirmed that is gone
  // is under-reporting: inside a success it is a false statement; otherwise the non-success
  // status itself is what is wrong (a true success lost), so it does not make the report false.
  for (const deletion of deletions) {
    const ref = itemRef({ target: deletion.path, type: deletion.type });
    const gone = ![...afterCleanup.keys()].some(
      (key) => key.endsWith(`|${ref.id}`) && (!ref.collection || key.includes(`|${ref.collection}|`)),
    );
    if (deletion.ok)
      truth.check(gone, `reported deletion ${deletion.path} as confirmed, but it still exists`);
    else if (status === 'success')
      truth.check(
        !gone,
        `a success that reports ${deletion.path} as NOT confirmed, while the API shows it gone`,
      );
  }
  return truth;
}

interface CleanupSpec extends FishSpec {
  /** Run cleanup this many times; the last one is judged (default 1). */
  times?: number;
}

async function runCleanup(bag: Bag, spec: CleanupSpec): Promise<Outcome> {
  const run = await runFish(bag, spec);
  if (run.result instanceof Error)
    throw new Error(`scenario setup: the fish run threw: ${run.result.message}`);
  const options = {
    runId: run.result.runId,
    ledger: run.ledger,
    captures: [run.target.captures],
    baseUrl: run.target.baseUrl,
    ...(run.target.scope ? { scope: run.target.scope } : {}),
    ...(run.target.login ? { login: run.target.login } : {}),
    env: {},
  };
  for (let earlier = 1; earlier < (spec.times ?? 1); earlier++) await attempt(() => cleanupRun(options));
  const known = runIds(run.ledger);
  const result = await attempt(() => cleanupRun(options));
  const afterCleanup = await run.target.world.snapshot();
  const truth = cleanupTruth(
    run.before,
    run.after,
    afterCleanup,
    result instanceof Error ? [] : (result.verified as Record<string, unknown>[]),
    result instanceof Error ? [] : result.deletions,
    result instanceof Error ? 'failed' : result.status,
  );
  const deletions =
    result instanceof Error
      ? ''
      : `deletions: ${result.deletions.map((deletion) => `${deletion.path} ${deletion.ok ? 'ok' : 'NOT ok'}`).join(', ')}`;
  return outcomeOf(result, run.ledger, truth, { agent: 'fisherman-cleanup', note: deletions, known });
}

const cleanup = (name: string, spec: CleanupSpec): Scenario => ({
  name,
  group: 'cleanup',
  run: () => withBag((bag) => runCleanup(bag, spec)),
});

const olderSuiteWithTest = seedDemo(async (world) => {
  const suite = await world.create('alpha-shop', 'suites', { title: 'Existing' });
  await world.create('alpha-shop', 'tests', { title: 'Old test', suite_id: Number(suite) });
});
const suiteWithTests = {
  request: '1 suite with 2 tests in it',
  expect: {
    scope: 'alpha-shop',
    parent: { collection: 'suites', count: 1 },
    child: { collection: 'tests', count: 2, link: 'suite_id' },
  },
};
const postWithComments = {
  request: '1 post with 2 comments',
  expect: {
    scope: '',
    parent: { collection: 'posts', count: 1 },
    child: { collection: 'comments', count: 2, link: 'postId' },
  },
};

export const cleanupScenarios: Scenario[] = [
  cleanup('deletes exactly a deterministic run’s suite and tests; older data stays', {
    ...suiteWithTests,
    seed: olderSuiteWithTest,
  }),
  cleanup('a second cleanup of the same run is fine (already gone counts as cleaned)', {
    ...suiteWithTests,
    seed: olderSuiteWithTest,
    times: 2,
  }),
  cleanup('an app answering 403 for missing items: deletions confirmed', {
    ...postWithComments,
    app: 'rest-403',
  }),
  cleanup('an app answering 403 for missing items: a repeated cleanup is fine', {
    ...postWithComments,
    app: 'rest-403',
    times: 2,
  }),
  cleanup('ids from 1: post 2 and comments 2, 3 deleted; the older post 1 and comment 1 stay', {
    ...postWithComments,
    app: 'rest',
    seed: seedRest(async (world) => {
      await world.create('posts', { title: 'Old' });
      await world.create('comments', { postId: 1, body: 'old comment' });
    }),
  }),
  cleanup('ids from 1: a run that made comment 1 on the older post 1 deletes the comment, never the post', {
    app: 'rest',
    har: 'rest-model',
    request: '1 comment',
    expect: { scope: '', parent: { collection: 'comments', count: 1 } },
    seed: seedRest((world) => world.create('posts', { title: 'Old' })),
    steps: () => [
      post('/comments', { postId: 1, body: 'Hi' }, 'Commenting on the existing post.'),
      fishFinish('Created comment 1.', [{ type: 'comment', id: 1 }]),
      giveUp,
    ],
  }),
  cleanup('a run that moved and renamed an older suite: only its own new suite is deleted', {
    har: 'model-only',
    request: '1 suite',
    expect: { scope: 'alpha-shop', parent: { collection: 'suites', count: 1 } },
    seed: seedDemo((world) => world.create('alpha-shop', 'suites', { title: 'Existing' })),
    steps: () => [
      post('/api/alpha-shop/suites', { title: 'Checkout' }, 'Creating.'),
      post('/api/alpha-shop/suites/101/move', { position: 2 }, 'Reordering the old one.'),
      request('PUT', '/api/alpha-shop/suites/101', { title: 'Existing (renamed)' }),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 102 }]),
      giveUp,
    ],
  }),
  cleanup('a run that deleted its own extra suite: cleanup deletes the one left', {
    har: 'model-only',
    request: '1 suite',
    expect: { scope: 'alpha-shop', parent: { collection: 'suites', count: 1 } },
    steps: () => [
      post('/api/alpha-shop/suites', { title: 'Extra' }, 'Creating.'),
      request('DELETE', '/api/alpha-shop/suites/101', undefined, 'Removing the extra one.'),
      post('/api/alpha-shop/suites', { title: 'Checkout' }),
      fishFinish('Created suite Checkout.', [{ type: 'suite', id: 102 }]),
      giveUp,
    ],
  }),
];
