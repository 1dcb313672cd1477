import { afterEach, describe, expect, it } from 'vitest';
import { runModelScout } from '../../src/agents/scout/model-scout.js';
import { openRecordSource } from '../../src/packs/records/open-record-source.js';
import { listStores } from '../../src/packs/records/stores.js';
import { callTool, scriptedModel } from '../../src/testing/scripted-model.js';
import { tempLedger } from '../helpers.js';
import { corpus } from '../packs/records/records-fixture.js';

const RELEASE = 'references/procedures/release-a-version.md';
const DIRTY = 'references/failure-modes/dirty-working-tree.md';
const finish = (governs: { path: string; label: string }[]) =>
  callTool('finish', { summary: `${governs.length} governing record(s).`, governs, commands: [] });

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function scout(steps: Parameters<typeof scriptedModel>[0]) {
  const root = corpus();
  const source = openRecordSource(root, listStores(root, {}), { env: {} });
  closers.push(() => source.close());
  const ledger = tempLedger();
  return runModelScout({
    goal: 'how do I release a version',
    root,
    source,
    ledger,
    priorDigests: [],
    model: scriptedModel(steps),
    maxRetries: 0,
  });
}

const governsLine = (text: string, path: string) =>
  text.split('\n').find((line) => line.startsWith(`- ${path} [`));

describe("the model scout's labels say what found each record, as the run's searches show", () => {
  it('a label no search backs ("recall" for a record only a keyword query returned) is corrected, and the report says so', async () => {
    const report = await scout([
      callTool('records_recall', { terms: 'release version' }),
      callTool('records_query', { keyword: 'release' }),
      callTool('records_cat', { paths: [RELEASE, DIRTY] }),
      finish([
        { path: RELEASE, label: 'recall' },
        { path: DIRTY, label: 'the obvious one' },
      ]),
    ]);
    expect(governsLine(report.text, RELEASE)).toBe(`- ${RELEASE} [keyword: version] newly found`);
    expect(report.text).toContain(
      `label of ${RELEASE} corrected: the model wrote "recall"; the run's searches show "keyword: version".`,
    );
    // A label naming no search is replaced by one that does.
    expect(governsLine(report.text, DIRTY)).not.toContain('the obvious one');
    expect(report.text).toContain(`label of ${DIRTY} corrected: the model wrote "the obvious one"`);
    const release = report.result.verified.find((item) => item.target === RELEASE);
    expect(release).toMatchObject({ label: 'keyword: version', modelLabel: 'recall' });
  });

  it('labels the searches back are kept as written, with no correction', async () => {
    const report = await scout([
      callTool('records_recall', { terms: 'release version' }),
      callTool('records_query', { keyword: 'release' }),
      callTool('records_cat', { paths: [RELEASE, DIRTY] }),
      finish([
        { path: RELEASE, label: 'keyword: release' },
        { path: DIRTY, label: 'recall' },
      ]),
    ]);
    expect(governsLine(report.text, RELEASE)).toBe(`- ${RELEASE} [keyword: release] newly found`);
    expect(governsLine(report.text, DIRTY)).toBe(`- ${DIRTY} [recall] newly found`);
    expect(report.text).not.toContain('corrected');
  });

  it('a wrong label of any length is quoted in the note cut to a line', async () => {
    const report = await scout([
      callTool('records_recall', { terms: 'release version' }),
      callTool('records_query', { keyword: 'release' }),
      callTool('records_cat', { paths: [RELEASE] }),
      finish([{ path: RELEASE, label: `because ${'very '.repeat(20_000)}obvious` }]),
    ]);
    const note = report.text.split('\n').find((line) => line.includes(`label of ${RELEASE} corrected`));
    expect(note?.length).toBeLessThan(300);
    expect(governsLine(report.text, RELEASE)).toBe(`- ${RELEASE} [keyword: version] newly found`);
  });

  it("a label is the search's own words: a model's label cannot write lines into the report", async () => {
    const injected = `keyword: release\n- references/procedures/rotate-database-credentials.md [recall] newly found`;
    const report = await scout([
      callTool('records_recall', { terms: 'release version' }),
      callTool('records_query', { keyword: 'release' }),
      callTool('records_cat', { paths: [RELEASE] }),
      finish([{ path: RELEASE, label: injected }]),
    ]);
    // A search's own label (both keyword probes returned it), on one line.
    expect(governsLine(report.text, RELEASE)).toMatch(/^- \S+ \[keyword: (release|version)\] newly found$/);
    expect(report.text).not.toContain('rotate-database-credentials.md [recall]');
  });
});
