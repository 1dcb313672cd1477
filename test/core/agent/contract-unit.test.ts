import { describe, expect, it, vi } from 'vitest';
import {
  type ContractSpec,
  contractFromRequest,
  contractProblems,
  contractRecord,
  crossChecked,
  type RequestCheckContext,
  type RequestContract,
  recordContract,
} from '../../../src/core/agent/contract.js';
import type { RunRecorder } from '../../../src/core/ledger/ledger.js';

const context: RequestCheckContext = { net: new Map(), entries: [], verified: [] };
const stated = { description: '2 suites', data: { n: 2 }, words: ['2', 'suites'] };
const contract = (extra: Partial<RequestContract> = {}): RequestContract => ({
  ...stated,
  source: 'model',
  ...extra,
});
const spec = (check: ContractSpec['check']): ContractSpec => ({ check });

describe('crossChecked: a stated contract against the request', () => {
  it('a contract that accounts for every word has no `dropped` key at all', () => {
    const checked = crossChecked(stated, 'create 2 suites', {}, 'model');
    expect(checked).toEqual({ ...stated, source: 'model' });
    expect('dropped' in checked).toBe(false);
  });

  it('without type words from the agent, only the request words count', () => {
    expect(crossChecked(stated, 'create 3 suites', {}, 'request').dropped).toEqual(['3']);
  });

  it("the agent's type words must be stated too", () => {
    const checked = crossChecked(
      { ...stated, words: ['2'] },
      'create 2 suites',
      { typeWords: () => ['suites'] },
      'model',
    );
    expect(checked.dropped).toEqual(['suites']);
  });
});

describe('contractProblems: why a run with this contract is not success', () => {
  it('no contract or no spec: nothing to check', async () => {
    const check = vi.fn(() => ['never']);
    expect(await contractProblems(undefined, spec(check), context)).toEqual([]);
    expect(await contractProblems(contract(), undefined, context)).toEqual([]);
    expect(check).not.toHaveBeenCalled();
  });

  it('dropped words come first, quoted, then what the check found', async () => {
    const problems = await contractProblems(
      contract({ dropped: ['two', 'Smoke'] }),
      spec(() => ['suite b is missing']),
      context,
    );
    expect(problems).toEqual([
      'the stated contract ("2 suites") leaves out words of the request: "two", "Smoke"',
      'suite b is missing',
    ]);
  });

  it('an empty `dropped` list is no problem; a met check is no problem', async () => {
    expect(
      await contractProblems(
        contract({ dropped: [] }),
        spec(() => []),
        context,
      ),
    ).toEqual([]);
  });

  it('a check that throws fails closed, with its message', async () => {
    const error = await contractProblems(
      contract(),
      spec(() => {
        throw new Error('store offline');
      }),
      context,
    );
    expect(error).toEqual(['the contract could not be checked: store offline']);
    const rejected = await contractProblems(
      contract(),
      spec(() => Promise.reject('timeout')),
      context,
    );
    expect(rejected).toEqual(['the contract could not be checked: timeout']);
  });
});

describe('the contract in the ledger', () => {
  it('the record carries `dropped` only when words were dropped', () => {
    expect(contractRecord(contract())).toEqual({
      source: 'model',
      description: '2 suites',
      data: { n: 2 },
      words: ['2', 'suites'],
    });
    expect('dropped' in contractRecord(contract({ dropped: [] }))).toBe(false);
    expect(contractRecord(contract({ dropped: ['two'] })).dropped).toEqual(['two']);
  });

  it('a complete contract is `stated`, one that dropped words `incomplete`', () => {
    const appended: unknown[] = [];
    const recorder = { append: (entry: unknown) => appended.push(entry) } as unknown as RunRecorder;
    recordContract(recorder, contract());
    recordContract(recorder, contract({ dropped: [] }));
    recordContract(recorder, contract({ source: 'request', dropped: ['two'] }));
    expect(appended).toEqual([
      { kind: 'contract', name: 'model', outcome: 'stated', data: contractRecord(contract()) },
      { kind: 'contract', name: 'model', outcome: 'stated', data: contractRecord(contract()) },
      {
        kind: 'contract',
        name: 'request',
        outcome: 'incomplete',
        data: { ...contractRecord(contract({ source: 'request' })), dropped: ['two'] },
      },
    ]);
  });
});

describe('contractFromRequest', () => {
  it('reads the request when the agent can, as a `request` contract', () => {
    const onError = vi.fn();
    expect(contractFromRequest({ fromRequest: () => stated, check: () => [] }, 'task', onError)).toEqual({
      ...stated,
      source: 'request',
    });
    expect(
      contractFromRequest({ fromRequest: () => undefined, check: () => [] }, 'task', onError),
    ).toBeUndefined();
    expect(contractFromRequest({ check: () => [] }, 'task', onError)).toBeUndefined();
    expect(contractFromRequest(undefined, 'task', onError)).toBeUndefined();
    expect(onError).not.toHaveBeenCalled();
  });

  it('a parser that throws reads nothing and is reported', () => {
    const onError = vi.fn();
    const throwing: ContractSpec = {
      fromRequest: () => {
        throw new Error('bad');
      },
      check: () => [],
    };
    expect(contractFromRequest(throwing, 'task', onError)).toBeUndefined();
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
