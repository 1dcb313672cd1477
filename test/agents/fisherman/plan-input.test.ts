import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalContract, fishContractSchema } from '../../../src/agents/fisherman/fish-contract.js';
import { parseFishContract } from '../../../src/agents/fisherman/parse-fish-contract.js';
import {
  contractFromPlan,
  fishTypeWords,
  planInputSchema,
  typeWordsMissing,
} from '../../../src/agents/fisherman/plan-input.js';

const known = ['projects', 'suites', 'tests', 'milestones', 'test_cases'];

describe('the plan tool input', () => {
  it('a stated plan becomes the contract the parser reads from the same words', () => {
    const input = planInputSchema().parse({
      entities: [
        { type: 'Suites', count: 2 },
        { type: 'tests', count: 3, parentRef: 'suites' },
        { type: 'milestone', count: 1, titles: ['Release 1'] },
        { type: 'tests', count: 4, parentType: 'suite', parentId: '#101' },
      ],
      scope: 'alpha-shop',
      scopeType: 'Project',
    });
    const stated = contractFromPlan(input);
    expect(stated).toEqual({
      entities: [
        { ref: 'suite', type: 'suites', count: 2 },
        { ref: 'test', type: 'tests', count: 3, parent: { ref: 'suite' }, perParent: true },
        { ref: 'milestone', type: 'milestone', count: 1, titles: ['Release 1'] },
        { ref: 'test-2', type: 'tests', count: 4, parent: { type: 'suite', id: '101' } },
      ],
      scope: 'alpha-shop',
      scopeType: 'project',
    });
    expect(fishContractSchema().parse(stated)).toEqual(stated);
    const parsed = parseFishContract(
      '2 suites with 3 tests each, a milestone "Release 1" and 4 tests in suite 101, in project alpha-shop',
    );
    expect(parsed && canonicalContract(parsed)).toEqual(canonicalContract(stated));
  });

  it('`each: false` states a total', () => {
    const input = planInputSchema().parse({
      entities: [
        { ref: 'root', type: 'folder', count: 1 },
        { type: 'folders', count: 2, parentRef: 'root', each: false },
      ],
    });
    expect(contractFromPlan(input).entities[1]).toEqual({
      ref: 'folder',
      type: 'folders',
      count: 2,
      parent: { ref: 'root' },
      perParent: false,
    });
  });

  it.each([
    [{ entities: [] }, 'Too small'],
    [{ entities: [{ type: 'suites', count: 0 }] }, 'Too small'],
    [{ entities: [{ type: 'suites', count: 1001 }] }, 'Too big'],
    [{ entities: [{ type: 'tests', count: 2, parentRef: 'suite' }] }, 'parent "suite" is not an entity'],
    [
      { entities: [{ type: 'tests', count: 2, parentRef: 'x', parentType: 'suite', parentId: '1' }] },
      'not both',
    ],
    [{ entities: [{ type: 'tests', count: 2, parentType: 'suite' }] }, 'parentType and parentId go together'],
    [{ entities: [{ type: 'tests', count: 2, each: true }] }, 'each needs a parentRef'],
    [{ entities: [{ type: 'suites', count: 1, titles: ['A', 'B'] }] }, '2 titles for 1 items'],
    [{ entities: [{ type: 'suites', count: 1, parent: { ref: 'x' } }] }, 'Unrecognized key'],
    [
      {
        entities: [
          { ref: 'a', type: 'suites', count: 1, parentRef: 'b' },
          { ref: 'b', type: 'tests', count: 1, parentRef: 'a' },
        ],
      },
      'cycle',
    ],
  ])('refuses %j', (input, why) => {
    const result = planInputSchema().safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join('\n')).toContain(why);
  });

  it('is served to models as a JSON Schema with its descriptions', () => {
    const schema = z.toJSONSchema(planInputSchema(), { io: 'input', unrepresentable: 'any' }) as unknown as {
      properties: { entities: { items: { properties: Record<string, { description?: string }> } } };
    };
    expect(schema.properties.entities.items.properties.parentRef?.description).toContain('ref of the entity');
  });
});

describe('fishTypeWords', () => {
  it('the words of a request that name a type the app knows, longest first, outside quotes', () => {
    expect(fishTypeWords('2 suites with 3 tests each in project alpha-shop', known)).toEqual([
      'suites',
      'tests',
      'project',
    ]);
    expect(fishTypeWords('a suite "Milestones review" with 10 test cases', known)).toEqual([
      'suite',
      'test cases',
    ]);
    expect(fishTypeWords('a test suite', ['test_suites'])).toEqual(['test suite']);
    expect(fishTypeWords('a suite and another suite', known)).toEqual(['suite']);
    expect(fishTypeWords('whatever you like', known)).toEqual([]);
  });

  it('a type the request negates is no type word a plan must name', () => {
    expect(fishTypeWords('2 suites but no tests', known)).toEqual(['suites']);
    expect(fishTypeWords('two suites, without any tests please', known)).toEqual(['suites']);
    expect(fishTypeWords('2 suites and not a single test', known)).toEqual(['suites', 'test']);
  });

  it('what a stated contract leaves unaccounted', () => {
    const request = 'a suite with 2 tests and a milestone in project alpha-shop';
    const stated = contractFromPlan(
      planInputSchema().parse({
        entities: [
          { type: 'suite', count: 1 },
          { type: 'tests', count: 2, parentRef: 'suite' },
        ],
      }),
    );
    expect(typeWordsMissing(request, stated, known)).toEqual(['milestone', 'project']);
    const whole = { ...stated, entities: [...stated.entities, { ref: 'm', type: 'milestone', count: 1 }] };
    expect(typeWordsMissing(request, { ...whole, scope: 'alpha-shop', scopeType: 'project' }, known)).toEqual(
      [],
    );
  });
});
