import { describe, expect, it } from 'vitest';
import { contractProblems } from '../../../src/agents/fisherman/contract-problems.js';
import type { FishContract } from '../../../src/agents/fisherman/fish-contract.js';
import type { DataRequest } from '../../../src/agents/fisherman/parse-data-request.js';
import { parseFishContract } from '../../../src/agents/fisherman/parse-fish-contract.js';
import { requestProblems } from '../../../src/agents/fisherman/request-met.js';
import type { VerifiedItem } from '../../../src/core/agent/ending.js';
import type { Effect } from '../../../src/core/effects.js';
import type { Scope } from '../../../src/packs/http/endpoints/scope.js';
import { httpRun } from './http-run.js';

const run = httpRun;

const P = '/api/alpha-shop';
/** A title ending in ` · <marker>` carries the run's marker, as the HTTP tools record it. */
const marked = (observed: Record<string, unknown>) => {
  const marker = typeof observed.title === 'string' ? / · (\S+)$/.exec(observed.title)?.[1] : undefined;
  return marker ? { ...observed, titleMarker: marker } : observed;
};
const suite = (id: string, observed: Record<string, unknown> = {}): Partial<Effect> => ({
  key: `${P}/suites/${id}`,
  id,
  type: 'suite',
  observed: { parents: [P], ...marked(observed) },
});
const test = (id: string, suiteId: string, observed: Record<string, unknown> = {}): Partial<Effect> => ({
  key: `${P}/suites/${suiteId}/tests/${id}`,
  id,
  type: 'test',
  observed: { parents: [P, `${P}/suites/${suiteId}`], ...marked(observed) },
});
const readSuite = (id: string): Partial<Effect> => ({ ...suite(id), kind: 'read' });

const everywhere: Scope = { path: '', fallback: false };
const alphaShop: Scope = { path: '/projects/alpha-shop', key: 'alpha-shop', fallback: false };
const contract = (text: string) => {
  const parsed = parseFishContract(text);
  if (!parsed) throw new Error(`the test's request does not parse: ${text}`);
  return parsed;
};
const check = (text: string | FishContract, context: ReturnType<typeof run>, scope = everywhere) =>
  contractProblems(typeof text === 'string' ? contract(text) : text, scope, context);

describe('met', () => {
  it('2 suites with 3 tests each, every test under its own new suite', () => {
    const context = run(
      suite('101'),
      suite('102'),
      ...['1', '2', '3'].map((id) => test(id, '101')),
      ...['4', '5', '6'].map((id) => test(id, '102')),
    );
    expect(check('2 suites with 3 tests each in project alpha-shop', context, alphaShop)).toEqual([]);
  });

  it('honest twins: two distinct suites with the same title, each with its own tests, are two items', () => {
    const context = run(
      suite('101', { title: 'Smoke · 1a2b3c' }),
      suite('102', { title: 'Smoke · 1a2b3c' }),
      test('1', '101', { title: 'Login · 1a2b3c' }),
      test('2', '102', { title: 'Login · 1a2b3c' }),
    );
    expect(check('2 suites called "Smoke" and "Smoke", each with a test "Login"', context)).toEqual([]);
    expect(check('2 suites with a test each', context)).toEqual([]);
  });

  it('links by field count as well as by path', () => {
    const context = run(suite('101'), {
      key: `${P}/tests/1`,
      id: '1',
      type: 'test',
      observed: { links: { suiteId: '101' } },
    });
    expect(check('a suite with a test in it', context)).toEqual([]);
  });

  it('a type the request does not ask for, made and left, is a problem', () => {
    const context = run(
      suite('101'),
      { key: `${P}/tests/1`, id: '1', type: 'test', observed: { links: { suiteId: '101' } } },
      { key: `${P}/tags/9`, id: '9', type: 'tag' },
    );
    expect(check('a suite with a test in it', context)).toEqual([
      `tag 9 (${P}/tags/9) was created by this run and left, but the request asks for no tag`,
    ]);
  });

  it('the one container top-level items need is allowed; a second one is not', () => {
    expect(check('2 tests', run(suite('101'), test('1', '101'), test('2', '101')))).toEqual([]);
    expect(check('2 tests', run(suite('101'), suite('102'), test('1', '101'), test('2', '102')))).toEqual([
      `suite 102 (${P}/suites/102) was created by this run and left, but the request asks for no suite beyond the one its items are put in`,
    ]);
  });
});

describe('wrong project', () => {
  const inBeta: Partial<Effect> = {
    key: '/api/beta/suites/7',
    id: '7',
    type: 'suite',
    observed: { parents: ['/api/beta'] },
  };

  it('a suite asked for in project alpha-shop, made in beta (no --scope)', () => {
    expect(check('a suite in project alpha-shop', run(inBeta))).toEqual([
      'suite 7 (/api/beta/suites/7) is not in project alpha-shop, which the request named',
    ]);
  });

  it("the request names another project than the run's scope", () => {
    const beta: Scope = { path: '/projects/beta', key: 'beta', fallback: false };
    expect(check('a suite in project alpha-shop', run(inBeta), beta)).toEqual([
      "the request names project alpha-shop, but the run's scope is /projects/beta",
      'suite 7 (/api/beta/suites/7) is not in project alpha-shop, which the request named',
    ]);
  });

  it('a team named in the request is not the project of that name the run is scoped to', () => {
    expect(check('a suite in team alpha-shop', run(suite('101')), alphaShop)).toEqual([
      "the request names team alpha-shop, but the run's scope is /projects/alpha-shop",
    ]);
  });

  it('the run scope is checked once when the request names the same project', () => {
    expect(check('a suite in project alpha-shop', run(inBeta), alphaShop)).toEqual([
      'suite 7 (/api/beta/suites/7) is outside the requested scope /projects/alpha-shop',
    ]);
  });

  it('a project named in a link field, or in another spelling of the slug, is inside', () => {
    const linked: Partial<Effect> = {
      key: '/api/suites/7',
      id: '7',
      type: 'suite',
      observed: { links: { projectId: 'alpha-shop' } },
    };
    const spaced: Partial<Effect> = { key: '/api/Alpha%20Shop/suites/8', id: '8', type: 'suite' };
    expect(check('2 suites in project alpha-shop', run(linked, spaced))).toEqual([]);
  });
});

describe('children under an older parent', () => {
  it('a new suite "with two tests in it" whose tests went under a suite that existed before', () => {
    const context = run(readSuite('55'), suite('102'), test('1', '55'), test('2', '55'));
    expect(check('a new suite with two tests in it', context)).toEqual([
      `test 1 is not linked to a suite this run created (it points at ${P}/suites/55, which existed before this run)`,
      `test 2 is not linked to a suite this run created (it points at ${P}/suites/55, which existed before this run)`,
      'suite 102 has 0 of the 2 tests asked for',
    ]);
  });

  it('"2 tests in a new suite" is not met by tests put into a suite that existed before, as "2 tests" is', () => {
    const context = run(readSuite('55'), test('1', '55'), test('2', '55'));
    expect(check('2 tests', context)).toEqual([]);
    expect(check('2 tests in a new suite', context)).toEqual([
      'asked for 1 suite, this run created 0',
      `test 1 is not linked to a suite this run created (it points at ${P}/suites/55, which existed before this run)`,
      `test 2 is not linked to a suite this run created (it points at ${P}/suites/55, which existed before this run)`,
    ]);
    expect(check('2 tests in a new suite', run(suite('102'), test('1', '102'), test('2', '102')))).toEqual(
      [],
    );
  });

  it('the same by a link field naming the older suite', () => {
    const context = run(readSuite('55'), suite('102'), {
      key: `${P}/tests/1`,
      id: '1',
      type: 'test',
      observed: { links: { suite_id: '55' } },
    });
    expect(check('a suite with a test in it', context)).toEqual([
      'test 1 is not linked to a suite this run created (it points at 55, which existed before this run)',
      'suite 102 has 0 of the 1 test asked for',
    ]);
  });
});

describe('one made, counted twice', () => {
  it('two suites asked for, one made and claimed twice', () => {
    const context = run(suite('101', { title: 'A · m' }));
    const item = context.verified[0] as VerifiedItem;
    context.verified = [item, { ...item, target: `${P}/suites/101` }];
    expect(check('2 suites', context)).toEqual([
      'asked for 2 suites, this run created 1',
      `2 suites claimed, 1 distinct suite exists: suite 101 claimed 2 times`,
    ]);
  });

  it('a claimed item that is no resource this run created is not a distinct one', () => {
    const context = run(suite('101'));
    context.verified.push({
      target: '55',
      type: 'suite',
      resource: `${P}/suites/55`,
      via: 'GET',
      evidenceSeq: 1,
    });
    expect(check('a suite', context)).toEqual([
      `2 suites claimed, 1 distinct suite exists: ${P}/suites/55 not created by this run`,
    ]);
  });
});

describe('titles', () => {
  it('the quoted title with the run marker appended is the title', () => {
    const context = run(suite('101', { title: 'Smoke · 1a2b3c' }), test('1', '101'), test('2', '101'));
    expect(check('a suite "Smoke" with 2 tests', context)).toEqual([]);
    expect(check('a suite "Nightly" with 2 tests', context)).toEqual([
      'asked for a suite titled "Nightly", but no suite this run created has that title (suite 101 is titled "Smoke · 1a2b3c")',
    ]);
  });

  it('a title that only contains the quoted one, or differs in case, is not it', () => {
    const ask = 'a suite "Checkout"';
    expect(check(ask, run(suite('101', { title: '  Checkout   · m' })))).toEqual([]);
    for (const title of [
      'Not Checkout · m',
      'Checkouts · m',
      'checkout · m',
      'Checkout v2',
      '\u0421heckout · m',
    ])
      expect(check(ask, run(suite('101', { title }))), title).toEqual([
        `asked for a suite titled "Checkout", but no suite this run created has that title (suite 101 is titled "${title}")`,
      ]);
  });

  it('each title on a distinct item, whichever order they were made in', () => {
    const context = run(suite('1', { title: 'AB · m' }), suite('2', { title: 'A · m' }));
    expect(check('suites "A" and "AB"', context)).toEqual([]);
    const one = run(suite('1', { title: 'AB · m' }), suite('2', { title: 'Other · m' }));
    expect(check('suites "AB" and "A"', one)).toEqual([
      'asked for a suite titled "A", but no suite this run created has that title (suite 1 is titled "AB · m"; suite 2 is titled "Other · m")',
    ]);
  });

  it('titles of children are checked under each parent', () => {
    const context = run(
      suite('101'),
      suite('102'),
      test('1', '101', { title: 'Login · m' }),
      test('2', '101', { title: 'Logout · m' }),
      test('3', '102', { title: 'Login · m' }),
      test('4', '102', { title: 'Login · m' }),
    );
    expect(check('2 suites, each with tests "Login" and "Logout"', context)).toEqual([
      'suite 102 has no test titled "Logout"',
    ]);
  });

  it('two suites told apart by their titles each get their own number of tests', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'smoke', type: 'suite', count: 1, titles: ['Smoke'] },
        { ref: 'smoke-tests', type: 'tests', count: 2, parent: { ref: 'smoke' }, perParent: true },
        { ref: 'nightly', type: 'suite', count: 1, titles: ['Nightly'] },
        { ref: 'nightly-tests', type: 'tests', count: 1, parent: { ref: 'nightly' }, perParent: true },
      ],
    };
    const right = run(
      suite('1', { title: 'Smoke · m' }),
      suite('2', { title: 'Nightly · m' }),
      test('5', '1'),
      test('6', '1'),
      test('7', '2'),
    );
    expect(check(stated, right)).toEqual([]);
    const swapped = run(
      suite('1', { title: 'Smoke · m' }),
      suite('2', { title: 'Nightly · m' }),
      test('5', '2'),
      test('6', '2'),
      test('7', '1'),
    );
    expect(check(stated, swapped)).toEqual([
      'suite 1 has 1 of the 2 tests asked for',
      'suite 2 has 2 of the 1 test asked for',
    ]);
  });

  it('parents nothing tells apart are compared by how many children each has', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'a', type: 'suite', count: 1 },
        { ref: 'a-tests', type: 'tests', count: 2, parent: { ref: 'a' }, perParent: true },
        { ref: 'b', type: 'suite', count: 1 },
        { ref: 'b-tests', type: 'tests', count: 3, parent: { ref: 'b' }, perParent: true },
      ],
    };
    const tests = (suiteId: string, ...ids: string[]) => ids.map((id) => test(id, suiteId));
    expect(
      check(stated, run(suite('1'), suite('2'), ...tests('2', '5', '6'), ...tests('1', '7', '8', '9'))),
    ).toEqual([]);
    expect(
      check(stated, run(suite('1'), suite('2'), ...tests('1', '5', '6'), ...tests('2', '7', '8', '9', '10'))),
    ).toEqual([
      'asked for 5 tests in all, this run created 6',
      'the suites this run created have 4, 2 tests each, asked for 3, 2',
    ]);
  });
});

describe('an existing parent named by id', () => {
  it('every child goes under it, by path or by field', () => {
    const linked = { key: `${P}/tests/2`, id: '2', type: 'test', observed: { links: { suiteId: '101' } } };
    expect(check('2 tests in suite 101', run(readSuite('101'), test('1', '101'), linked))).toEqual([]);
    expect(check('2 tests in suite 101', run(test('1', '101'), test('2', '102')))).toEqual([
      `test 2 is not in suite 101 (it points at ${P}/suites/102)`,
    ]);
  });

  it('a parent of that id made by this run is not the existing one', () => {
    expect(check('a test in suite 101', run(suite('101'), test('1', '101')))).toEqual([
      'suite 101 was created by this run, but the request named an existing suite 101',
    ]);
  });

  it('two groups of one type under two named parents are counted apart', () => {
    const context = run(test('1', '101'), test('2', '101'), test('3', '101'), test('4', '102'));
    expect(check('2 tests in suite 101 and 2 tests in suite 102', context)).toEqual([
      'asked for 2 tests in suite 101, this run created 3 there',
      'asked for 2 tests in suite 102, this run created 1 there',
    ]);
  });
});

describe('nesting one type in itself', () => {
  it('a folder with 2 folders in it: the top folder is the one under no new folder', () => {
    const folder = (id: string, under?: string): Partial<Effect> => ({
      key: `/api/folders/${id}`,
      id,
      type: 'folder',
      observed: { links: under ? { parentId: under } : {} },
    });
    expect(
      check('a folder with 2 folders in it', run(folder('1'), folder('2', '1'), folder('3', '1'))),
    ).toEqual([]);
    expect(check('a folder with 2 folders in it', run(folder('1'), folder('2', '1'), folder('3')))).toEqual([
      'asked for 1 folder not under a folder this run created, this run created 2',
      'folder 1 has 1 of the 2 folders asked for',
      'folder 3 has 0 of the 2 folders asked for',
    ]);
  });
});

describe('a malformed contract', () => {
  it('says so instead of checking', () => {
    const broken: FishContract = {
      entities: [{ ref: 'test', type: 'tests', count: 2, parent: { ref: 'suite' } }],
    };
    expect(check(broken, run())).toEqual([
      'the request contract is malformed: test\'s parent "suite" is not an entity of the contract',
    ]);
  });
});

describe('agrees with requestProblems on what the old grammar could say', () => {
  const request: DataRequest = { count: 2, type: 'suites', children: { count: 2, type: 'tests' } };
  const scenarios: [string, ReturnType<typeof run>][] = [
    [
      'met',
      run(suite('101'), suite('102'), test('1', '101'), test('2', '101'), test('3', '102'), test('4', '102')),
    ],
    [
      'too few children',
      run(suite('101'), suite('102'), test('1', '101'), test('2', '101'), test('3', '101')),
    ],
    [
      'unlinked',
      run(suite('101'), suite('102'), test('1', '55'), { key: `${P}/tests/2`, id: '2', type: 'test' }),
    ],
    ['too few parents', run(suite('101'))],
  ];
  it.each(scenarios)('%s', (_name, context) => {
    context.verified = [];
    expect(check('2 suites with 2 tests each', context)).toEqual(
      requestProblems(request, everywhere, context),
    );
    expect(check('2 suites with 2 tests each', context, alphaShop)).toEqual(
      requestProblems(request, alphaShop, context),
    );
  });
});

describe('what each unmet message says', () => {
  const testLinked = (id: string, links: Record<string, string>): Partial<Effect> => ({
    key: `${P}/tests/${id}`,
    id,
    type: 'test',
    observed: { links },
  });

  it('a child pointing at a parent the run never saw is not said to point at an older one', () => {
    const untypedRead: Partial<Effect> = { key: '/api/things/77', id: '77', kind: 'read' };
    const context = run(readSuite('55'), untypedRead, suite('102'), testLinked('1', { suite_id: '77' }));
    expect(check('a suite with a test in it', context)).toEqual([
      'test 1 is not linked to a suite this run created (it points at 77)',
      'suite 102 has 0 of the 1 test asked for',
    ]);
  });

  it('a resource of another space with the same id is not the older parent', () => {
    const file: Partial<Effect> = { space: 'fs', key: 'suites/55', id: '55', type: 'suite', kind: 'read' };
    const context = run(file, suite('102'), testLinked('1', { suite_id: '55' }));
    expect(check('a suite with a test in it', context)).toEqual([
      'test 1 is not linked to a suite this run created (it points at 55)',
      'suite 102 has 0 of the 1 test asked for',
    ]);
  });

  it('a per-parent count names the parent type, whichever entity comes first', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'tag', type: 'tag', count: 1 },
        { ref: 'suite', type: 'suites', count: 2 },
        { ref: 'test', type: 'tests', count: 2, parent: { ref: 'suite' }, perParent: true },
      ],
    };
    const context = run(
      { key: `${P}/tags/9`, id: '9', type: 'tag' },
      suite('101'),
      suite('102'),
      test('1', '101'),
    );
    expect(check(stated, context)).toEqual([
      'asked for 4 tests (2 per suite), this run created 1',
      'suite 101 has 1 of the 2 tests asked for',
      'suite 102 has 0 of the 2 tests asked for',
    ]);
  });

  it('top-level items beside items in a named parent are counted outside it', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'loose', type: 'test', count: 1 },
        { ref: 'in', type: 'tests', count: 2, parent: { type: 'suite', id: '101' } },
      ],
    };
    const context = run(test('1', '101'), test('2', '101'), test('3', '101'));
    expect(check(stated, context)).toEqual([
      'asked for 1 test outside suite 101, this run created 0',
      'asked for 2 tests in suite 101, this run created 3 there',
    ]);
  });

  it('children asked for under the new parents in all are counted there, not per parent', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'suite', type: 'suites', count: 2 },
        { ref: 'each', type: 'test', count: 1, parent: { ref: 'suite' }, perParent: true },
        { ref: 'extra', type: 'test', count: 1, parent: { ref: 'suite' }, titles: ['Extra'] },
        { ref: 'loose', type: 'test', count: 1 },
      ],
    };
    const loose = (id: string): Partial<Effect> => ({ key: `${P}/tests/${id}`, id, type: 'test' });
    const context = run(
      suite('101'),
      suite('102'),
      test('1', '101'),
      test('2', '102'),
      loose('3'),
      loose('4'),
    );
    expect(check(stated, context)).toEqual([
      'asked for 3 tests under the suites this run created, it created 2 there',
      'asked for 1 test not under a suite this run created, this run created 2',
      'asked for a test titled "Extra", but no test this run created has that title',
    ]);
  });

  it('a child that fits no parent is reported against the parent it points at', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'suite', type: 'suite', count: 1 },
        { ref: 'in-suite', type: 'tests', count: 1, parent: { ref: 'suite' }, perParent: true },
        { ref: 'in-folder', type: 'tests', count: 1, parent: { type: 'folder', id: '7' } },
      ],
    };
    const inFolder8: Partial<Effect> = {
      key: `${P}/folders/8/tests/2`,
      id: '2',
      type: 'test',
      observed: { parents: [P, `${P}/folders/8`] },
    };
    expect(check(stated, run(suite('101'), test('1', '101'), inFolder8))).toEqual([
      'asked for 1 test in folder 7, this run created 0 there',
      `test 2 is not in folder 7 (it points at ${P}/folders/8)`,
    ]);
  });

  it('a child under the wrong new parent is reported against the parent type, not the top level', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'loose', type: 'test', count: 1 },
        { ref: 'smoke', type: 'suite', count: 1, titles: ['Smoke'] },
        { ref: 'nightly', type: 'suite', count: 1, titles: ['Nightly'] },
        { ref: 'smoke-tests', type: 'tests', count: 2, parent: { ref: 'smoke' }, perParent: true },
      ],
    };
    const context = run(
      suite('101', { title: 'Smoke · m' }),
      suite('102', { title: 'Nightly · m' }),
      test('1', '101'),
      test('2', '101'),
      testLinked('3', { parentId: '102' }),
    );
    expect(check(stated, context)).toEqual([
      'asked for 1 test not under a suite this run created, this run created 0',
      'test 3 is not linked to a suite this run created (it points at 102, made by this run but not one it was asked under, or one that already has what was asked)',
    ]);
  });

  it('parents nothing tells apart: each count is matched to its own parents', () => {
    const text = '2 suites with 2 tests each and a suite with 3 tests';
    const tests = (suiteId: string, ...ids: string[]) => ids.map((id) => test(id, suiteId));
    const suites = [suite('101'), suite('102'), suite('103')];
    expect(
      check(
        text,
        run(...suites, ...tests('101', '1', '2'), ...tests('102', '3', '4'), ...tests('103', '5', '6', '7')),
      ),
    ).toEqual([]);
    expect(
      check(
        text,
        run(...suites, ...tests('101', '1', '2', '3'), ...tests('102', '4', '5', '6'), ...tests('103', '7')),
      ),
    ).toEqual(['the suites this run created have 3, 3, 1 tests each, asked for 3, 2, 2']);
    expect(check(text, run(...tests('55', '1', '2')))).toContain(
      'the suites this run created have no tests each, asked for 3, 2, 2',
    );
  });

  it('parents nothing tells apart, only one with children asked for', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'a', type: 'suite', count: 1 },
        { ref: 'a-tests', type: 'tests', count: 2, parent: { ref: 'a' }, perParent: true },
        { ref: 'b', type: 'suite', count: 1 },
        { ref: 'note', type: 'note', count: 1 },
      ],
    };
    const note: Partial<Effect> = {
      key: `${P}/suites/102/notes/9`,
      id: '9',
      type: 'note',
      observed: { parents: [P, `${P}/suites/102`] },
    };
    expect(check(stated, run(suite('101'), suite('102'), test('1', '101'), test('2', '101'), note))).toEqual(
      [],
    );
    expect(check(stated, run(suite('101'), suite('102'), test('1', '101'), test('2', '102'), note))).toEqual([
      'the suites this run created have 1, 1 tests each, asked for 2, 0',
    ]);
  });

  it('children asked for in all under parents nothing tells apart may go under either', () => {
    const stated: FishContract = {
      entities: [
        { ref: 'a', type: 'suite', count: 1 },
        { ref: 'b', type: 'suite', count: 1 },
        { ref: 'b-tests', type: 'tests', count: 3, parent: { ref: 'b' } },
      ],
    };
    expect(
      check(stated, run(suite('101'), suite('102'), test('1', '101'), test('2', '101'), test('3', '102'))),
    ).toEqual([]);
  });

  it('titles asked for per parent are reported per parent only', () => {
    const context = run(
      suite('101'),
      suite('102'),
      test('1', '101', { title: 'Login · m' }),
      test('2', '101', { title: 'Login · m' }),
      test('3', '102', { title: 'Login · m' }),
      test('4', '102', { title: 'Login · m' }),
    );
    expect(check('2 suites, each with tests "Login" and "Logout"', context)).toEqual([
      'suite 101 has no test titled "Logout"',
      'suite 102 has no test titled "Logout"',
    ]);
  });

  it('a missing title lists at most three titled items, and none when nothing has a title', () => {
    const context = run(
      suite('101'),
      suite('102', { title: 'A · m' }),
      suite('103', { title: 'B · m' }),
      suite('104', { title: 'C · m' }),
      suite('105', { title: 'D · m' }),
    );
    expect(check('5 suites "A", "B", "C", "D" and "E"', context)).toEqual([
      'asked for a suite titled "E", but no suite this run created has that title (suite 102 is titled "A · m"; suite 103 is titled "B · m"; suite 104 is titled "C · m")',
    ]);
    expect(check('a suite "Smoke"', run(suite('101')))).toEqual([
      'asked for a suite titled "Smoke", but no suite this run created has that title',
    ]);
  });

  it('another parent of the named type made by this run is not asked for', () => {
    expect(check('a test in suite 101', run(suite('102'), test('1', '101')))).toEqual([
      `suite 102 (${P}/suites/102) was created by this run and left, but the request asks for no suite`,
    ]);
  });

  it('a project link field must be named after the project type and name the project', () => {
    const linked = (id: string, links: Record<string, string>): Partial<Effect> => ({
      key: `/api/suites/${id}`,
      id,
      type: 'suite',
      observed: { links },
    });
    const context = run(
      linked('7', { projectIdea: 'alpha-shop' }),
      linked('8', { project: 'alpha-shop' }),
      linked('9', { projectId: 'beta', ownerId: 'alpha-shop' }),
    );
    expect(check('3 suites in project alpha-shop', context)).toEqual([
      'suite 7 (/api/suites/7) is not in project alpha-shop, which the request named',
      'suite 9 (/api/suites/9) is not in project alpha-shop, which the request named',
    ]);
  });

  it('a named scope without its type word is a project; a blank run scope names nothing', () => {
    const stated: FishContract = {
      entities: [{ ref: 'suite', type: 'suite', count: 1 }],
      scope: 'alpha-shop',
    };
    const inBeta: Partial<Effect> = { key: '/api/beta/suites/7', id: '7', type: 'suite' };
    expect(check(stated, run(inBeta), { path: '  ', fallback: false })).toEqual([
      'suite 7 (/api/beta/suites/7) is not in project alpha-shop, which the request named',
    ]);
  });

  it('only HTTP resources are checked against the scope; an untyped one is an item', () => {
    const untyped: Partial<Effect> = { key: '/api/beta/things/7', id: '7' };
    const file: Partial<Effect> = { space: 'fs', key: 'notes.txt', type: 'file' };
    expect(check('a suite', run(suite('101'), untyped, file), alphaShop)).toEqual([
      'item 7 (/api/beta/things/7) is outside the requested scope /projects/alpha-shop',
      'item 7 (/api/beta/things/7) was created by this run and left, but the request asks for no such item',
    ]);
  });

  it('claimed items without a type are not counted against a type', () => {
    const context = run(suite('101'));
    context.verified.push({ target: 'notes.txt', via: 'write', evidenceSeq: 1 });
    expect(check('a suite', context)).toEqual([]);
  });

  it("a claimed item whose type names only one of a group's types is counted", () => {
    const stated: FishContract = {
      entities: [
        { ref: 'a', type: 'suite', count: 1 },
        { ref: 'b', type: 'test suite', count: 1 },
      ],
    };
    const smoke = (id: string): Partial<Effect> => ({
      key: `${P}/smoke_suites/${id}`,
      id,
      type: 'smoke_suites',
    });
    const context = run(smoke('1'), smoke('2'));
    context.verified.push(context.verified[0] as VerifiedItem);
    expect(check(stated, context)).toEqual([
      '3 suites claimed, 2 distinct suites exist: smoke_suites 1 claimed 2 times',
    ]);
  });

  it('repeated claims and claims of resources not created are listed together', () => {
    const context = run(suite('101'), suite('102'));
    const item = context.verified[0] as VerifiedItem;
    const other = (id: string): VerifiedItem => ({
      target: id,
      type: 'suite',
      resource: `${P}/suites/${id}`,
      via: 'GET',
      evidenceSeq: 1,
    });
    context.verified = [item, item, context.verified[1] as VerifiedItem, other('55'), other('56')];
    expect(check('2 suites', context)).toEqual([
      `5 suites claimed, 2 distinct suites exist: suite 101 claimed 2 times; ${P}/suites/55, ${P}/suites/56 not created by this run`,
    ]);
  });
});
