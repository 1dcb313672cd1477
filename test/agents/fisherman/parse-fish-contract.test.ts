import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContractEntity,
  canonicalContract,
  contractWords,
  describeContract,
  type FishContract,
  pluralOf,
} from '../../../src/agents/fisherman/fish-contract.js';
import {
  parseDataRequest,
  planShapeOf,
  toDataRequest,
} from '../../../src/agents/fisherman/parse-data-request.js';
import { parseFishContract } from '../../../src/agents/fisherman/parse-fish-contract.js';

const entity = (
  ref: string,
  type: string,
  count: number,
  extra: Partial<ContractEntity> = {},
): ContractEntity => ({
  ref,
  type,
  count,
  ...extra,
});
const under = (ref: string, perParent = true) => ({ parent: { ref }, perParent });
const suitesWithTests = (suites: number, tests: number, suiteWord = 'suites', perParent = true) => [
  entity('suite', suiteWord, suites),
  entity('test', 'tests', tests, under('suite', perParent)),
];

const parsed: [string, FishContract][] = [
  ['2 suites with 3 tests each', { entities: suitesWithTests(2, 3) }],
  ['a suite with two tests in it', { entities: suitesWithTests(1, 2, 'suite') }],
  ['a new suite with two tests in it', { entities: suitesWithTests(1, 2, 'suite') }],
  ['two suites, each with three tests', { entities: suitesWithTests(2, 3) }],
  ['2 suites each with 3 tests', { entities: suitesWithTests(2, 3) }],
  ['2 suites with 3 tests apiece', { entities: suitesWithTests(2, 3) }],
  ['2 suites with 3 tests under each', { entities: suitesWithTests(2, 3) }],
  ['1 suite with 2 tests under it', { entities: suitesWithTests(1, 2, 'suite') }],
  ['2 suites with 3 tests per suite', { entities: suitesWithTests(2, 3) }],
  ['2 suites with 3 tests in each suite', { entities: suitesWithTests(2, 3) }],
  ['2 suites containing 3 tests each', { entities: suitesWithTests(2, 3) }],
  // Children after "and" or a comma, known as children by their "each" marker.
  ['3 suites and 2 tests in each', { entities: suitesWithTests(3, 2) }],
  ['3 suites, 2 tests in each', { entities: suitesWithTests(3, 2) }],
  ['2 suites, 3 tests per suite', { entities: suitesWithTests(2, 3) }],
  ['2 suites and 3 tests for each suite', { entities: suitesWithTests(2, 3) }],
  ['2 suites with 3 tests for each', { entities: suitesWithTests(2, 3) }],
  ['2 suites with 3 tests in every suite', { entities: suitesWithTests(2, 3) }],
  ['create 2 suites and 3 tests each, please', { entities: suitesWithTests(2, 3) }],
  // Without a marker, "and" joins two items; "in every" without what it is every one of is unsure.
  ['2 suites and 3 users', { entities: [entity('suite', 'suites', 2), entity('user', 'users', 3)] }],
  // Children in brackets, read as without them.
  ['3 suites (3 tests each)', { entities: suitesWithTests(3, 3) }],
  ['3 suites (with 2 tests each)', { entities: suitesWithTests(3, 2) }],
  ['3 suites (each with 2 tests)', { entities: suitesWithTests(3, 2) }],
  ['2 suites (each containing 3 tests)', { entities: suitesWithTests(2, 3) }],
  ['2 suites (3 tests per suite)', { entities: suitesWithTests(2, 3) }],
  ['2 suites (3 tests in each)', { entities: suitesWithTests(2, 3) }],
  ['2 suites (with 6 tests in total)', { entities: suitesWithTests(2, 6, 'suites', false) }],
  // A colon introduces the children as a comma does.
  ['3 suites: 3 tests each', { entities: suitesWithTests(3, 3) }],
  ['3 suites: each with 2 tests', { entities: suitesWithTests(3, 2) }],
  ['2 suites: 3 tests per suite', { entities: suitesWithTests(2, 3) }],
  [
    'for project alpha-shop: 3 suites: 3 tests each',
    { entities: suitesWithTests(3, 3), scope: 'alpha-shop', scopeType: 'project' },
  ],
  [
    '3 suites (3 tests each) in project alpha-shop',
    { entities: suitesWithTests(3, 3), scope: 'alpha-shop', scopeType: 'project' },
  ],
  // Items in ONE new parent: the contract of "a suite with 10 tests".
  ['10 tests in a new suite', { entities: suitesWithTests(1, 10, 'suite') }],
  ['3 tests under a new suite', { entities: suitesWithTests(1, 3, 'suite') }],
  ['add 3 tests to a new suite', { entities: suitesWithTests(1, 3, 'suite') }],
  ['5 tests in one new suite', { entities: suitesWithTests(1, 5, 'suite') }],
  ['5 tests in a single new suite', { entities: suitesWithTests(1, 5, 'suite') }],
  ['5 tests in a brand new suite', { entities: suitesWithTests(1, 5, 'suite') }],
  ['create 10 tests in new suite, please', { entities: suitesWithTests(1, 10, 'suite') }],
  [
    '5 tests in a new suite called Checkout',
    {
      entities: [
        entity('suite', 'suite', 1, { titles: ['Checkout'] }),
        entity('test', 'tests', 5, under('suite')),
      ],
    },
  ],
  [
    '2 tests in a new suite in project alpha-shop',
    { entities: suitesWithTests(1, 2, 'suite'), scope: 'alpha-shop', scopeType: 'project' },
  ],
  [
    '10 tests in a new suite and 2 milestones',
    { entities: [...suitesWithTests(1, 10, 'suite'), entity('milestone', 'milestones', 2)] },
  ],
  // Already read: other wordings of the same structures.
  ['a suite containing 4 tests', { entities: suitesWithTests(1, 4, 'suite') }],
  ['2 suites each containing 3 tests', { entities: suitesWithTests(2, 3) }],
  ['2 suites, each with 3 tests', { entities: suitesWithTests(2, 3) }],
  ['one suite with five tests', { entities: suitesWithTests(1, 5, 'suite') }],
  ['2 suites with 6 tests in total', { entities: suitesWithTests(2, 6, 'suites', false) }],
  ['2 suites with 6 tests between them', { entities: suitesWithTests(2, 6, 'suites', false) }],
  ['a dozen tests', { entities: [entity('test', 'tests', 12)] }],
  ['half a dozen milestones', { entities: [entity('milestone', 'milestones', 6)] }],
  ['twenty-one tests', { entities: [entity('test', 'tests', 21)] }],
  ['twenty one tests', { entities: [entity('test', 'tests', 21)] }],
  ['two dozen tests', { entities: [entity('test', 'tests', 24)] }],
  ['one hundred users', { entities: [entity('user', 'users', 100)] }],
  ['2 Suites', { entities: [entity('suite', 'suites', 2)] }],
  ['create 10 test cases.', { entities: [entity('test-case', 'test cases', 10)] }],
  // Heads that only say "one of" come off whole: what is left is one word.
  ['2 suite records', { entities: [entity('suite-record', 'suite records', 2)] }],
  ['2 test case items', { entities: [entity('test-case-item', 'test case items', 2)] }],
  ['2 test_cases', { entities: [entity('test-case', 'test_cases', 2)] }],
  ['please make 2 suites for me', { entities: [entity('suite', 'suites', 2)] }],
  [
    '5 tests in suite 101',
    { entities: [entity('test', 'tests', 5, { parent: { type: 'suite', id: '101' } })] },
  ],
  [
    '5 tests under suite #7',
    { entities: [entity('test', 'tests', 5, { parent: { type: 'suite', id: '7' } })] },
  ],
  [
    'add 3 tests to suite 101',
    { entities: [entity('test', 'tests', 3, { parent: { type: 'suite', id: '101' } })] },
  ],
  // A parent named before the children clause is the item's.
  [
    '2 suites in suite 101 with 3 tests each',
    {
      entities: [
        entity('suite', 'suites', 2, { parent: { type: 'suite', id: '101' } }),
        entity('test', 'tests', 3, under('suite')),
      ],
    },
  ],
  // Comments, reviews and votes are "on" what they belong to: refused before.
  [
    '2 comments on post 1',
    { entities: [entity('comment', 'comments', 2, { parent: { type: 'post', id: '1' } })] },
  ],
  [
    '2 posts with 3 comments on each',
    { entities: [entity('post', 'posts', 2), entity('comment', 'comments', 3, under('post'))] },
  ],
  [
    '3 tests for suite login-flow',
    { entities: [entity('test', 'tests', 3, { parent: { type: 'suite', id: 'login-flow' } })] },
  ],
  [
    '3 tests in suite 101 and 2 tests in suite 102',
    {
      entities: [
        entity('test', 'tests', 3, { parent: { type: 'suite', id: '101' } }),
        entity('test-2', 'tests', 2, { parent: { type: 'suite', id: '102' } }),
      ],
    },
  ],
  [
    '2 suites in project alpha-shop',
    { entities: [entity('suite', 'suites', 2)], scope: 'alpha-shop', scopeType: 'project' },
  ],
  [
    '2 suites for project alpha-shop',
    { entities: [entity('suite', 'suites', 2)], scope: 'alpha-shop', scopeType: 'project' },
  ],
  ['2 suites in alpha-shop', { entities: [entity('suite', 'suites', 2)], scope: 'alpha-shop' }],
  ['2 suites for alpha-shop', { entities: [entity('suite', 'suites', 2)], scope: 'alpha-shop' }],
  [
    '2 suites in the alpha-shop project',
    { entities: [entity('suite', 'suites', 2)], scope: 'alpha-shop', scopeType: 'project' },
  ],
  [
    'In project alpha-shop, create 2 suites',
    { entities: [entity('suite', 'suites', 2)], scope: 'alpha-shop', scopeType: 'project' },
  ],
  [
    'for workspace "Acme QA": 3 users',
    { entities: [entity('user', 'users', 3)], scope: 'Acme QA', scopeType: 'workspace' },
  ],
  [
    '2 suites, each with 3 tests, in project alpha-shop',
    { entities: suitesWithTests(2, 3), scope: 'alpha-shop', scopeType: 'project' },
  ],
  [
    '3 tests in suite 101 in project alpha-shop',
    {
      entities: [entity('test', 'tests', 3, { parent: { type: 'suite', id: '101' } })],
      scope: 'alpha-shop',
      scopeType: 'project',
    },
  ],
  [
    'a suite "Smoke" with 2 tests',
    {
      entities: [
        entity('suite', 'suite', 1, { titles: ['Smoke'] }),
        entity('test', 'tests', 2, under('suite')),
      ],
    },
  ],
  ['suites "A" and "B"', { entities: [entity('suite', 'suites', 2, { titles: ['A', 'B'] })] }],
  ['2 suites called "A" and "B"', { entities: [entity('suite', 'suites', 2, { titles: ['A', 'B'] })] }],
  ["a suite called 'Smoke test'", { entities: [entity('suite', 'suite', 1, { titles: ['Smoke test'] })] }],
  ['a suite named Smoke', { entities: [entity('suite', 'suite', 1, { titles: ['Smoke'] })] }],
  ['a suite with the title "Smoke"', { entities: [entity('suite', 'suite', 1, { titles: ['Smoke'] })] }],
  [
    'a suite with tests “Login” and “Logout”',
    {
      entities: [
        entity('suite', 'suite', 1),
        entity('test', 'tests', 2, { ...under('suite'), titles: ['Login', 'Logout'] }),
      ],
    },
  ],
  ['2 suites and 3 users', { entities: [entity('suite', 'suites', 2), entity('user', 'users', 3)] }],
  [
    '2 suites, 3 users and a milestone',
    {
      entities: [
        entity('suite', 'suites', 2),
        entity('user', 'users', 3),
        entity('milestone', 'milestone', 1),
      ],
    },
  ],
  [
    '2 suites with 3 tests each and 1 milestone',
    { entities: [...suitesWithTests(2, 3), entity('milestone', 'milestone', 1)] },
  ],
  [
    '2 suites, each with 3 tests, and 3 users, in project x-1',
    {
      entities: [...suitesWithTests(2, 3), entity('user', 'users', 3)],
      scope: 'x-1',
      scopeType: 'project',
    },
  ],
  [
    'a suite with 2 tests and a tag in it',
    {
      entities: [
        entity('suite', 'suite', 1),
        entity('test', 'tests', 2, under('suite')),
        entity('tag', 'tag', 1, under('suite')),
      ],
    },
  ],
];

const unsure = [
  // "New" must say the parent is made, and how many: one.
  'tests in a new suite',
  '10 tests in a suite',
  '10 tests in the new suite',
  '10 tests in 2 new suites',
  '10 tests in new suites',
  '10 tests in a new suite in suite 101',
  '10 tests in suite 101 in a new suite',
  '10 tests in a new suite with 3 steps each',
  '2 tests with 3 steps each in a new suite',
  '5 tests in a new suite called "A" and "B"',
  '5 tests in a new suite named Checkout flow',
  // Brackets only around a children clause that says "each" (or "in total" after "with").
  '3 suites (3 tests)',
  '3 suites (3 tests in total)',
  // A colon with no "each": as "3 suites, 3 tests", neither per suite nor in total.
  '3 suites: 3 tests',
  '3 suites:: 3 tests each',
  '3 suites (3 tests each',
  '3 suites 3 tests each)',
  '(3 suites)',
  '3 suites ()',
  '3 suites (3 tests each) with 2 milestones each',
  'a suite (with 3 tests) called X',
  '2 suites with 3 tests in every',
  '2 suites, and 3 tests in total',
  'make me some suites',
  'suites with tests',
  '0 suites',
  'no suites',
  'a few suites',
  'a couple of suites',
  'several tests',
  '3 tests in suite',
  '3 tests in suite smoke',
  'please make one smoke suite',
  '2 suites or 3 tests',
  'two or three suites',
  'at least 2 suites',
  'up to 5 tests',
  'a suite with 2 tests and 3 users',
  '2 suites in project a and 3 users',
  '2 suites in project a in project b',
  '3 suites "A" and "B"',
  '1001 suites',
  'delete 2 suites',
  'update suite 101',
  '2 suites in staging',
  '2 suites with 3 tests each with 2 steps each',
  '2 suites, each with 6 tests in total',
  '2 suites with 3 tests per milestone',
  '2 things',
  '2 suites (smoke)',
  'a suite "Smoke',
  '2.5 suites',
  '-2 suites',
  '2 suites 3 tests',
  '2 suites each',
  // A qualifier is not the thing: these are not tests, whatever head noun they end in.
  '2 flaky test cases',
  '2 smoke test cases',
  '2 high-priority test cases',
  '3 suites with 2 failing test cases each',
  '2 smoke-tests',
  '2 smoke_tests',
  '2 failingTests',
  'a suite with 2 smoke-tests',
  // Number words are no type ("1 thousand and 1 test").
  'a thousand and one tests',
  '3 tests and a thousand',
  '2 suites and a million',
  // One existing parent: a plural type or a range of ids names several.
  '3 tests in suites #7',
  '3 tests in suites 101 and 102',
  '3 tests in suite 101-103',
  '3 tests in suite 101..103',
  // After a children clause, a parent may be the children's ("the first of the 2 suites"?).
  '2 suites with 2 tests in suite 1',
  '2 suites with 3 tests each in suite 101',
  '3 tests with 2 steps each in suite 101',
  '3 suites (3 tests each) in suite 101',
  '',
  '   ',
];

describe('parseFishContract', () => {
  it.each(parsed)('reads "%s"', (text, contract) => {
    expect(parseFishContract(text)).toEqual(contract);
  });

  it.each(unsure)('is unsure of "%s"', (text) => {
    expect(parseFishContract(text)).toBeUndefined();
  });

  it('reads a type of several words when the app knows it by exactly those words', () => {
    expect(parseFishContract('2 test suites')).toBeUndefined();
    expect(parseFishContract('2 test suites', { knownTypes: ['test_suites', 'tests'] })).toEqual({
      entities: [entity('test-suite', 'test suites', 2)],
    });
    // A known `suites` does not account for "smoke": that may be a title, not a type.
    expect(parseFishContract('one smoke suite', { knownTypes: ['suites'] })).toBeUndefined();
  });

  it('reads words joined into one type (`user-groups`, `smoke_tests`) only as spaced ones are read', () => {
    expect(parseFishContract('2 user-groups')).toBeUndefined();
    expect(parseFishContract('2 user-groups', { knownTypes: ['user_groups'] })).toEqual({
      entities: [entity('user-group', 'user-groups', 2)],
    });
    // `tests` known does not make `smoke-tests` or `flaky test cases` tests.
    for (const text of ['2 smoke-tests', '2 flaky test cases', '2 flakyTests'])
      expect(parseFishContract(text, { knownTypes: ['tests', 'suites'] }), text).toBeUndefined();
    expect(parseFishContract('2 smoke-tests', { knownTypes: ['smoke_tests'] })).toEqual({
      entities: [entity('smoke-test', 'smoke-tests', 2)],
    });
    expect(parseFishContract('2 smoke test cases', { knownTypes: ['smoke-tests'] })).toEqual({
      entities: [entity('smoke-test-case', 'smoke test cases', 2)],
    });
  });
});

describe('describeContract', () => {
  it.each([
    [
      '2 suites with 3 tests each in project alpha-shop',
      '2 suites, each with 3 tests, in project alpha-shop',
    ],
    ['a suite with two tests in it', '1 suite with 2 tests'],
    ['suites "A" and "B" and 3 users', '2 suites called "A" and "B" and 3 users'],
    ['a dozen tests in suite #7', '12 tests in suite 7'],
    ['2 suites with 6 tests in total', '2 suites with 6 tests in total'],
    ['a suite with 2 tests and a tag in it', '1 suite with 2 tests and 1 tag in it'],
    ['3 users for alpha-shop', '3 users in alpha-shop'],
  ])('"%s" reads as "%s"', (text, line) => {
    expect(describeContract(parseFishContract(text) as FishContract)).toBe(line);
  });

  it('brackets what the parser cannot nest, and names a stated scope without its word as a project', () => {
    const contract: FishContract = {
      entities: [
        entity('project', 'projects', 1),
        entity('suite', 'suites', 2, under('project')),
        entity('test', 'tests', 3, under('suite')),
      ],
      scope: 'Acme QA',
    };
    expect(describeContract(contract)).toBe(
      '1 project with 2 suites (each with 3 tests) in project "Acme QA"',
    );
    expect(parseFishContract(describeContract(contract))).toBeUndefined();
  });

  it('agrees the type with the count', () => {
    expect(pluralOf('suite')).toBe('suites');
    expect(pluralOf('category')).toBe('categories');
    expect(pluralOf('box')).toBe('boxes');
    expect(pluralOf('test case')).toBe('test cases');
    expect(pluralOf('person')).toBe('people');
    expect(pluralOf('tests')).toBe('tests');
  });
});

describe('contractWords', () => {
  it('accounts for counts in digits, types, each count with its type, titles, parent ids and the scope', () => {
    const contract = parseFishContract(
      'a dozen tests called "Login" and "Logout" in suite 101 in project alpha-shop',
    );
    expect(contract).toBeUndefined(); // 12 tests with 2 titles: not certain
    const titled = parseFishContract('a suite "Smoke" with 2 tests in project alpha-shop') as FishContract;
    expect(contractWords(titled)).toEqual([
      '1',
      'suite',
      '1 suite',
      'Smoke',
      '2',
      'tests',
      '2 tests',
      'project',
      'alpha-shop',
    ]);
    expect(contractWords(parseFishContract('5 tests in suite #7') as FishContract)).toEqual([
      '5',
      'tests',
      '5 tests',
      'suite',
      '7',
    ]);
  });
});

describe('the old grammar is a view of the contract', () => {
  it('keeps the planners shape where the contract fits it', () => {
    expect(parseDataRequest('2 suites with 3 tests each')).toEqual({
      count: 2,
      type: 'suites',
      children: { count: 3, type: 'tests' },
    });
    expect(parseDataRequest('5 tests under suite #7')).toEqual({
      count: 5,
      type: 'tests',
      parent: { type: 'suite', id: '7' },
    });
  });

  it.each([
    '2 suites and 3 users',
    'a suite "Smoke" with 2 tests',
    '2 suites with 6 tests in total',
    'a suite with 2 tests and a tag in it',
    '2 suites in project alpha-shop',
  ])('has no planner shape for "%s"', (text) => {
    expect(parseDataRequest(text)).toBeUndefined();
  });

  it('a scope fits only when it names the run scope', () => {
    const contract = parseFishContract('2 suites in project alpha-shop') as FishContract;
    expect(
      toDataRequest(contract, { path: '/projects/alpha-shop/suites', key: 'alpha-shop', fallback: false }),
    ).toEqual({ count: 2, type: 'suites' });
    expect(toDataRequest(contract, { path: '/projects/beta', key: 'beta', fallback: false })).toBeUndefined();
    expect(toDataRequest(contract)).toBeUndefined();
  });

  it('a scope named as a team is not the project of that name the run is scoped to', () => {
    const alpha = { path: '/projects/alpha-shop', key: 'alpha-shop', fallback: false };
    const team = parseFishContract('2 suites in team alpha-shop') as FishContract;
    expect(toDataRequest(team, alpha)).toBeUndefined();
    expect(planShapeOf(team, alpha)).toEqual({
      why: 'the request names team alpha-shop, and in --scope /projects/alpha-shop alpha-shop is another kind of scope: pass --scope for the team',
    });
    expect(
      toDataRequest(team, { path: '/teams/alpha-shop/projects/web', key: 'web', fallback: false }),
    ).toEqual({ count: 2, type: 'suites' });
    // One kind in its spellings; a path segment that is no scope word says nothing.
    const org = parseFishContract('2 suites for org acme') as FishContract;
    expect(toDataRequest(org, { path: '/organizations/acme', key: 'acme', fallback: false })).toEqual({
      count: 2,
      type: 'suites',
    });
    expect(toDataRequest(org, { path: '/o/acme', key: 'acme', fallback: false })).toEqual({
      count: 2,
      type: 'suites',
    });
    expect(
      toDataRequest(parseFishContract('2 suites in projects alpha-shop') as FishContract, alpha),
    ).toEqual({ count: 2, type: 'suites' });
  });

  it('a single parent takes a total as its per-parent count', () => {
    expect(parseDataRequest('a suite with 2 tests in total')).toEqual({
      count: 1,
      type: 'suite',
      children: { count: 2, type: 'tests' },
    });
  });
});

/** Well-formed requests built from the grammar's pieces. */
const countWord = fc.constantFrom('2', 'two', 'a dozen', 'twenty-one', '3', 'five');
const typeWord = fc.constantFrom('suites', 'tests', 'users', 'test cases', 'milestones', 'categories');
const titleWord = fc.constantFrom('"Smoke"', '“Lo"gin”', "'Nightly run'", '"a, b"');
const location = fc.constantFrom(
  'in suite 101',
  'under suite #7',
  'to folder x-9',
  'in a new suite',
  'into one new folder called "Q3"',
  '',
);
const marker = fc.constantFrom('each', 'apiece', 'in total', 'in it', '');
const item = fc
  .record({
    count: countWord,
    type: typeWord,
    titled: fc.boolean(),
    title: titleWord,
    location,
    child: fc.option(fc.record({ count: countWord, type: typeWord, marker, bracketed: fc.boolean() }), {
      nil: undefined,
    }),
  })
  .map(({ count, type, titled, title, location, child }) => {
    const head = titled ? `a ${type.replace(/s$/, '')} called ${title}` : `${count} ${type}`;
    const clause = child && `with ${child.count} ${child.type}${child.marker ? ` ${child.marker}` : ''}`;
    const children = child ? (child.bracketed ? ` (${clause})` : ` ${clause}`) : '';
    return `${head}${location ? ` ${location}` : ''}${children}`;
  });
const request = fc
  .record({
    items: fc.array(item, { minLength: 1, maxLength: 3 }),
    scope: fc.constantFrom('', ' in project alpha-shop', ' for workspace "Acme QA"', ' in beta-2'),
    lead: fc.constantFrom('', 'create ', 'please make '),
  })
  .map(({ items, scope, lead }) => `${lead}${items.join(', and ')}${scope}`);
const noise = fc
  .array(
    fc.constantFrom(
      '2',
      'a',
      'two',
      'dozen',
      'suites',
      'tests',
      'with',
      'each',
      'and',
      ',',
      'in',
      'it',
      'suite',
      '101',
      '#7',
      'project',
      'alpha-shop',
      '"Smoke"',
      'called',
      'per',
      'total',
      '“x',
      "'",
      ':',
      'for',
      'the',
      'under',
      'new',
      '(',
      ')',
    ),
    { maxLength: 14 },
  )
  .map((words) => words.join(' '));

describe('properties', () => {
  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), noise, request), (text) => {
        parseFishContract(text);
        parseDataRequest(text);
      }),
      { numRuns: 1500 },
    );
  });

  it('a parsed contract, described, reads back as the same contract', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.oneof(request, noise), (text) => {
        const contract = parseFishContract(text);
        if (!contract) return;
        read++;
        const again = parseFishContract(describeContract(contract));
        expect(again && canonicalContract(again), describeContract(contract)).toEqual(
          canonicalContract(contract),
        );
      }),
      { numRuns: 1500 },
    );
    expect(read).toBeGreaterThan(300);
  });
});
