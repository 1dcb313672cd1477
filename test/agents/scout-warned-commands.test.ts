import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDeterministicScout } from '../../src/agents/scout/deterministic-scout.js';
import { runModelScout } from '../../src/agents/scout/model-scout.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { callTool, scriptedModel } from '../../src/testing/scripted-model.js';
import { tempLedger } from '../helpers.js';
import { corpus } from '../packs/records/records-fixture.js';

const RELEASE = 'references/procedures/release-a-version.md';
const GOAL = 'how do I release a version of acme/shop';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** The fixture corpus with `appended` added to the release procedure. */
function corpusWith(appended: string) {
  const root = corpus();
  appendFileSync(join(root, RELEASE), appended);
  const source = openRecordSource(root, listStores(root, {}), { env: {} });
  closers.push(() => source.close());
  return { root, source };
}

/** The release procedure's line warning against a force publish. */
const FORCE_PUBLISH_WARNING =
  '3. Never run `npm publish --force`: the registry keeps a broken version for good.\n';
const warningCorpus = () => corpusWith(FORCE_PUBLISH_WARNING);

/** The deterministic scout's report on the release goal, over the corpus with `appended`. */
function deterministicReport(appended: string) {
  const { root, source } = corpusWith(appended);
  return runDeterministicScout({ goal: GOAL, root, source, ledger: tempLedger(), priorDigests: [] });
}

const commandsBlock = (text: string) => /COMMANDS:\n((?:- .*\n?)*)/.exec(text)?.[1] ?? '';

describe('a command a record warns against is never reported as one to run', () => {
  it('the deterministic scout lists the commands the record asks for, not the one it forbids', async () => {
    const report = await deterministicReport(FORCE_PUBLISH_WARNING);
    expect(report.result.endingReason).toBe('finished');
    expect(commandsBlock(report.text)).toBe('- npm run release -- --dry-run\n- git tag -s vX.Y.Z\n');
    expect(report.text).not.toMatch(/^- npm publish --force$/m);
  });

  it('commands listed under a warning, or marked ❌, are not reported; the list ends where the record says so', async () => {
    const report = await deterministicReport(
      '\nNever run these on a release branch:\n\n- `git push --force`\n- `npm publish --tag latest --force`\n\nFor the notes:\n\n- ❌ `npm version --no-git-tag-version`\n- ✅ `npm run changelog`\n',
    );
    expect(commandsBlock(report.text)).toBe(
      '- npm run release -- --dry-run\n- git tag -s vX.Y.Z\n- npm run changelog\n',
    );
  });

  it('a data block and command output in a record are no commands to report', async () => {
    const report = await deterministicReport(
      '\nThe CI job:\n\n```yaml\nrelease:\n  script: npm publish\n```\n\n```console\n$ npm run changelog\n  wrote CHANGELOG.md\n```\n',
    );
    expect(commandsBlock(report.text)).toBe(
      '- npm run release -- --dry-run\n- git tag -s vX.Y.Z\n- npm run changelog\n',
    );
  });

  it("the model scout's claim of the forbidden command is dropped, saying the record warns against it", async () => {
    const { root, source } = warningCorpus();
    const report = await runModelScout({
      goal: GOAL,
      root,
      source,
      ledger: tempLedger(),
      priorDigests: [],
      maxRetries: 0,
      model: scriptedModel([
        callTool('records_recall', { terms: 'release version' }),
        callTool('records_cat', { paths: [RELEASE] }),
        callTool('finish', {
          summary: 'The release procedure governs.',
          governs: [{ path: RELEASE, label: 'recall' }],
          commands: ['npm run release -- --dry-run', 'npm publish --force'],
        }),
      ]),
    });
    expect(commandsBlock(report.text)).toBe('- npm run release -- --dry-run\n');
    const dropped = report.result.dropped.find((entry) => entry.claim.target === 'npm publish --force');
    expect(dropped?.why).toBe(`${RELEASE} states this command only as one not to run`);
    expect(report.result.status).not.toBe('success');
  });
});
