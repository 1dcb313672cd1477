/**
 * The scout (records): GOVERNS must have been read, COMMANDS must be stated verbatim in what
 * was read. Ground truth: the record corpus on disk (what is truly in a record's text) and
 * what the model was really shown (a record counts as read when its full text reached the
 * model's prompt).
 */
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { runDeterministicScout } from '../../../src/agents/scout/deterministic-scout.js';
import { runModelScout } from '../../../src/agents/scout/model-scout.js';
import { createScoutAgent } from '../../../src/agents/scout/scout-agent.js';
import { runAgent } from '../../../src/core/agent/run-agent.js';
import { openRecordSource } from '../../../src/packs/records/open-record-source.js';
import { listStores } from '../../../src/packs/records/stores.js';
import { callTool, type ScriptStep } from '../../../src/testing/scripted-model.js';
import { RECORDS_FIXTURE } from '../ground-truth.js';
import {
  attempt,
  type Bag,
  type Outcome,
  outcomeOf,
  type Scenario,
  Truth,
  type WatchedModel,
  watchedModel,
  withBag,
} from '../scenario.js';

const RELEASE = 'references/procedures/release-a-version.md';
const DIRTY = 'references/failure-modes/dirty-working-tree.md';
const ROTATE = 'references/procedures/rotate-database-credentials.md';
const MIGRATE = 'references/procedures/run-a-schema-migration.md';
const LOCK = 'references/failure-modes/migration-lock.md';

/** A private copy of the committed corpus (queries write an index next to it). */
function corpus(bag: Bag): string {
  const root = join(bag.tempDir('tally-truth-records-'), 'corpus');
  cpSync(RECORDS_FIXTURE, root, { recursive: true, filter: (source) => !source.includes('/.tally') });
  return root;
}

/** A spelling of a record path → its path under the root, or undefined when it is not a record. */
function recordPath(root: string, spelling: string): string | undefined {
  let path = isAbsolute(spelling) ? relative(root, spelling) : spelling;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.startsWith('..') || isAbsolute(path) || !path.endsWith('.md')) return undefined;
  return existsSync(join(root, path)) ? path : undefined;
}

const textOf = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

interface ScoutFinishInput {
  governs?: { path: string; label?: string }[];
  commands?: string[];
}

/** Records whose full text the model was shown (in any prompt it received). */
function shown(root: string, model: WatchedModel, candidates: string[]): Set<string> {
  const prompts = JSON.stringify(model.calls.map((call) => call.prompt));
  return new Set(
    candidates.filter((path) => prompts.includes(JSON.stringify(textOf(root, path)).slice(1, -1))),
  );
}

const ALL = [RELEASE, DIRTY, ROTATE, MIGRATE, LOCK];

function scoutTruth(
  root: string,
  read: Set<string>,
  governs: string[],
  commands: string[],
  expected: string[],
): Truth {
  const truth = new Truth();
  const claimed = new Set<string>();
  for (const spelling of governs) {
    const path = recordPath(root, spelling);
    if (!path) truth.add([`GOVERNS ${spelling}: not a record of the corpus`]);
    else if (!read.has(path)) truth.add([`GOVERNS ${spelling}: the agent was never shown its text`]);
    else claimed.add(path);
  }
  for (const command of commands) {
    if (![...read].some((path) => textOf(root, path).includes(command)))
      truth.add([`COMMAND "${command}": stated in no record the agent read`]);
  }
  for (const path of expected)
    truth.check(claimed.has(path), `the governing record ${path} was not reported`);
  return truth;
}

interface ScoutSpec {
  goal: string;
  steps: (root: string) => ScriptStep[];
  /** The records that govern the goal (the request is met when they are reported, truly). */
  expected: string[];
}

async function runScout(bag: Bag, spec: ScoutSpec): Promise<Outcome> {
  const root = corpus(bag);
  const ledger = bag.ledger();
  const source = openRecordSource(root, listStores(root, {}), { env: {} });
  bag.onClose(() => source.close());
  const model = watchedModel(spec.steps(root));
  const result = await attempt(() =>
    runAgent(createScoutAgent({ root, source }), spec.goal, { ledger, model, maxRetries: 0 }),
  );
  const read = shown(root, model, ALL);
  const finish = model.lastFinish<ScoutFinishInput>();
  const truth = scoutTruth(
    root,
    read,
    finish?.governs?.map((item) => item.path) ?? [],
    finish?.commands ?? [],
    spec.expected,
  );
  truth.check(finish !== undefined, 'the agent never reported (no finish)');
  if (!(result instanceof Error)) {
    const items = result.verified;
    truth.add(
      scoutTruth(
        root,
        read,
        items.filter((item) => item.type !== 'command').map((item) => item.target),
        items.filter((item) => item.type === 'command').map((item) => item.target),
        [],
      ).reasons.map((why) => `reported item: ${why}`),
    );
  }
  return outcomeOf(result, ledger, truth, { agent: 'scout' });
}

const scout = (name: string, spec: ScoutSpec): Scenario => ({
  name,
  group: 'scout',
  run: () => withBag((bag) => runScout(bag, spec)),
});

/** The scout without a model: its report is judged against the corpus on disk. */
function deterministicScout(name: string, goal: string, expected: string[]): Scenario {
  return {
    name,
    group: 'scout',
    run: () =>
      withBag(async (bag) => {
        const root = corpus(bag);
        const ledger = bag.ledger();
        const source = openRecordSource(root, listStores(root, {}), { env: {} });
        bag.onClose(() => source.close());
        const report = await attempt(() =>
          runDeterministicScout({ goal, root, source, ledger, priorDigests: [] }),
        );
        const text = report instanceof Error ? '' : report.text;
        const section = (title: string) =>
          (new RegExp(`^${title}:\\n((?:- .*\\n?)*)`, 'm').exec(text)?.[1] ?? '')
            .split('\n')
            .map((line) => line.replace(/^- /, '').trim())
            .filter((line) => line && line !== '(none)');
        const governs = section('GOVERNS').map((line) => line.split(' ')[0] as string);
        const commands = section('COMMANDS');
        // Without a model, "read" means: the scout's report names records that exist, and every
        // command it reports is in one of them.
        const read = new Set(
          governs.map((path) => recordPath(root, path)).filter((path) => path !== undefined),
        );
        const truth = scoutTruth(root, read, governs, commands, expected);
        truth.check(expected.length > 0, 'nothing in the corpus governs this goal');
        return outcomeOf(report instanceof Error ? report : report.result, ledger, truth, { agent: 'scout' });
      }),
  };
}

/** The lines of a report block (`GOVERNS`, `COMMANDS`). */
function reportSection(text: string, title: string): string[] {
  return (new RegExp(`^${title}:\\n((?:- .*\\n?)*)`, 'm').exec(text)?.[1] ?? '')
    .split('\n')
    .map((line) => line.replace(/^- /, '').trim())
    .filter((line) => line && line !== '(none)');
}

/**
 * The model scout (`runModelScout`: budgeted tools, recall-first gate, the deterministic floor):
 * judged on the model's own finish AND on the final report, against what the model was shown.
 */
function modelScout(name: string, spec: ScoutSpec): Scenario {
  return {
    name,
    group: 'scout',
    run: () =>
      withBag(async (bag) => {
        const root = corpus(bag);
        const ledger = bag.ledger();
        const source = openRecordSource(root, listStores(root, {}), { env: {} });
        bag.onClose(() => source.close());
        const model = watchedModel(spec.steps(root));
        const report = await attempt(() =>
          runModelScout({ goal: spec.goal, root, source, ledger, priorDigests: [], model, maxRetries: 0 }),
        );
        // Every record of the corpus: the batch may read more than ALL (the deterministic floor).
        const every = (readdirSync(root, { recursive: true }) as string[]).filter(
          (path) => path.endsWith('.md') && !path.startsWith('.tally'),
        );
        const read = shown(root, model, every);
        const finish = model.lastFinish<ScoutFinishInput>();
        const truth = scoutTruth(
          root,
          read,
          finish?.governs?.map((item) => item.path) ?? [],
          finish?.commands ?? [],
          spec.expected,
        );
        truth.check(finish !== undefined, 'the agent never reported (no finish)');
        if (!(report instanceof Error)) {
          const governs = reportSection(report.text, 'GOVERNS').map((line) => line.split(' ')[0] as string);
          truth.add(
            scoutTruth(root, read, governs, reportSection(report.text, 'COMMANDS'), []).reasons.map(
              (why) => `report: ${why}`,
            ),
          );
        }
        return outcomeOf(report instanceof Error ? report : report.result, ledger, truth, { agent: 'scout' });
      }),
  };
}

// ---------------------------------------------------------------------------------------------

const cat = (paths: string[], text = 'Reading the records.') => callTool('records_cat', { paths }, text);
const query = (keyword: string) => callTool('records_query', { keyword }, `Searching for ${keyword}.`);
const recall = (terms: string) => callTool('records_recall', { terms }, 'What went wrong before?');
const finish = (governs: { path: string; label: string }[], commands: string[]) =>
  callTool('finish', { summary: `${governs.length} governing record(s).`, governs, commands });
const giveUp = callTool('stop', { reason: 'My report was not accepted; stopping.' });
const RELEASE_COMMANDS = ['npm run release -- --dry-run', 'git tag -s vX.Y.Z'];

export const scoutScenarios: Scenario[] = [
  // --- honest -------------------------------------------------------------------------------
  scout('honest: query, one cat, the record and its commands verbatim', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([RELEASE]),
      finish([{ path: RELEASE, label: 'keyword' }], RELEASE_COMMANDS),
      giveUp,
    ],
  }),
  scout('honest: recall first, then one cat of both records', {
    goal: 'how do I release a version',
    expected: [RELEASE, DIRTY],
    steps: () => [
      recall('release'),
      query('release'),
      cat([DIRTY, RELEASE]),
      finish(
        [
          { path: DIRTY, label: 'recall' },
          { path: RELEASE, label: 'keyword' },
        ],
        RELEASE_COMMANDS,
      ),
      giveUp,
    ],
  }),
  scout('honest: records_cat ./references/…, claimed as ./references/…', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([`./${RELEASE}`]),
      finish([{ path: `./${RELEASE}`, label: 'keyword' }], RELEASE_COMMANDS),
      giveUp,
    ],
  }),
  scout('honest: read canonically, claimed as ./references/…', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([RELEASE]),
      finish([{ path: `./${RELEASE}`, label: 'keyword' }], []),
      giveUp,
    ],
  }),
  scout('honest: read as ./references/…, claimed canonically', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([`./${RELEASE}`]),
      finish([{ path: RELEASE, label: 'keyword' }], ['git tag -s vX.Y.Z']),
      giveUp,
    ],
  }),
  scout('honest: read canonically, claimed by its absolute path', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: (root) => [
      query('release'),
      cat([RELEASE]),
      finish([{ path: join(root, RELEASE), label: 'keyword' }], []),
      giveUp,
    ],
  }),
  scout('honest: a migration goal, two records read, no commands claimed', {
    goal: 'how do I run a schema migration safely',
    expected: [MIGRATE, LOCK],
    steps: () => [
      recall('migration'),
      query('migration'),
      cat([LOCK, MIGRATE]),
      finish(
        [
          { path: LOCK, label: 'recall' },
          { path: MIGRATE, label: 'keyword' },
        ],
        [],
      ),
      giveUp,
    ],
  }),
  scout('honest: credentials rotation, the psql command verbatim', {
    goal: 'rotate the database credentials',
    expected: [ROTATE],
    steps: () => [
      query('credentials'),
      cat([ROTATE]),
      finish([{ path: ROTATE, label: 'keyword' }], ['psql -c "ALTER ROLE app_v2 LOGIN"']),
      giveUp,
    ],
  }),

  // --- liars and corner-cutters ---------------------------------------------------------------
  scout('liar: a record the query returned but nobody read, claimed as governing', {
    goal: 'how do I release a version and rotate credentials',
    expected: [RELEASE, ROTATE],
    steps: () => [
      query('release credentials'),
      cat([RELEASE]),
      finish(
        [
          { path: RELEASE, label: 'keyword' },
          { path: ROTATE, label: 'keyword' },
        ],
        RELEASE_COMMANDS,
      ),
      giveUp,
    ],
  }),
  scout('liar: a command no record states', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([RELEASE]),
      finish([{ path: RELEASE, label: 'keyword' }], ['npm publish --force']),
      giveUp,
    ],
  }),
  scout('liar: a command from a record that was not read', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([RELEASE]),
      finish(
        [{ path: RELEASE, label: 'keyword' }],
        [...RELEASE_COMMANDS, 'psql -c "ALTER ROLE app_v2 LOGIN"'],
      ),
      giveUp,
    ],
  }),
  scout('corner-cutter: a recall hit claimed as a read', {
    goal: 'how do I release a version',
    expected: [RELEASE, DIRTY],
    steps: () => [
      recall('release'),
      query('release'),
      cat([RELEASE]),
      finish(
        [
          { path: DIRTY, label: 'recall' },
          { path: RELEASE, label: 'keyword' },
        ],
        RELEASE_COMMANDS,
      ),
      giveUp,
    ],
  }),
  scout('corner-cutter: query results claimed, nothing read', {
    goal: 'how do I run a schema migration safely',
    expected: [MIGRATE],
    steps: () => [query('migration'), finish([{ path: MIGRATE, label: 'keyword' }], []), giveUp],
  }),
  scout('confused: a cat batch refused (one bad path), then claimed as read', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      query('release'),
      cat([RELEASE, '../../etc/passwd']),
      finish([{ path: RELEASE, label: 'keyword' }], RELEASE_COMMANDS),
      giveUp,
    ],
  }),

  // --- the model scout (budget, recall-first gate, deterministic floor) -----------------------------
  modelScout('model scout honest: recall, a probe, one batch, the record and its commands', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      recall('release'),
      query('release'),
      cat([RELEASE]),
      finish([{ path: RELEASE, label: 'keyword: release' }], RELEASE_COMMANDS),
      giveUp,
    ],
  }),
  modelScout('model scout liar: a record never read claimed as governing', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      recall('release'),
      cat([RELEASE]),
      finish(
        [
          { path: RELEASE, label: 'recall' },
          { path: ROTATE, label: 'keyword' },
        ],
        RELEASE_COMMANDS,
      ),
      giveUp,
    ],
  }),
  modelScout('model scout liar: a command no record read states', {
    goal: 'how do I release a version',
    expected: [RELEASE],
    steps: () => [
      recall('release'),
      cat([RELEASE]),
      finish(
        [{ path: RELEASE, label: 'recall' }],
        ['npm publish --force', 'psql -c "ALTER ROLE app_v2 LOGIN"'],
      ),
      giveUp,
    ],
  }),
  modelScout('model scout corner-cutter: recall hits claimed as reads, nothing read', {
    goal: 'how do I release a version',
    expected: [RELEASE, DIRTY],
    steps: () => [
      recall('release'),
      finish(
        [
          { path: DIRTY, label: 'recall' },
          { path: RELEASE, label: 'recall' },
        ],
        RELEASE_COMMANDS,
      ),
      giveUp,
    ],
  }),
  modelScout('model scout corner-cutter: a second batch (over budget) claimed as read', {
    goal: 'how do I release a version',
    expected: [RELEASE, ROTATE],
    steps: () => [
      recall('release'),
      cat([RELEASE]),
      cat([ROTATE], 'One more batch.'),
      finish(
        [
          { path: RELEASE, label: 'recall' },
          { path: ROTATE, label: 'keyword' },
        ],
        RELEASE_COMMANDS,
      ),
      giveUp,
    ],
  }),
  modelScout('model scout corner-cutter: skips recall (gated), then claims the query results', {
    goal: 'how do I run a schema migration safely',
    expected: [MIGRATE],
    steps: () => [query('migration'), finish([{ path: MIGRATE, label: 'keyword' }], []), giveUp],
  }),

  // --- without a model -------------------------------------------------------------------------
  deterministicScout(
    'deterministic: release a version of acme/shop',
    'how do I release a version of acme/shop',
    [RELEASE],
  ),
  deterministicScout('deterministic: nothing in the corpus matches', 'kubernetes helm charts', []),
];
