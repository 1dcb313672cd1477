import { Ledger } from '../../src/core/ledger/ledger.js';

const [path, count] = process.argv.slice(2) as [string, string];
const ledger = Ledger.open(path);
const recorder = ledger.startRun({ agent: 'bench', task: 'parallel appends' });
process.send?.('ready');
process.once('message', () => {
  for (let index = 0; index < Number(count); index++) {
    recorder.append({
      kind: 'tool_call',
      name: 'bench',
      outcome: 'ok',
      data: { index, input: { path: `src/file-${index}.ts` } },
    });
    if (index % 10 === 9) ledger.flush();
  }
  ledger.close();
  process.send?.('done');
});
