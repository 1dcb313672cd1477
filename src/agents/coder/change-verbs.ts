/**
 * The change verbs the Coder's claim readers look for, in English and in the languages of the
 * reports they read, and the kind of change each says.
 */

/**
 * How the model's text describes a change: `written` covers both created and updated;
 * `changed` is a file named in a change list without a verb, or one said converted (any
 * change fits).
 */
export type SaidChange = 'created' | 'written' | 'updated' | 'deleted' | 'moved' | 'changed' | 'restored';

/**
 * The common change verbs of French, Spanish, Portuguese, Italian and German reports
 * (`J'ai créé a.txt`, `He borrado a.txt`, `Ich habe a.txt gelöscht`), as past participles.
 */
const FOREIGN_VERBS: Record<string, SaidChange> = Object.fromEntries(
  (
    [
      ['created', 'créé créée creado creé criado criei creato erstellt angelegt'],
      [
        'written',
        'ajouté écrit añadido agregado escrito escribí adicionado aggiunto scritto hinzugefügt geschrieben',
      ],
      [
        'updated',
        'modifié édité corrigé modificado actualizado editado corregido atualizado corrigido modificato aggiornato corretto geändert aktualisiert bearbeitet korrigiert',
      ],
      [
        'deleted',
        'supprimé effacé eliminado borrado excluído removido apagado eliminato cancellato rimosso gelöscht entfernt',
      ],
      ['moved', 'déplacé renommé movido renombrado renomeado spostato rinominato verschoben umbenannt'],
    ] as const
  ).flatMap(([said, words]) => words.split(' ').map((word) => [word, said as SaidChange])),
);

const VERBS: Record<string, SaidChange> = {
  created: 'created',
  generated: 'created',
  scaffolded: 'created',
  added: 'written',
  wrote: 'written',
  written: 'written',
  saved: 'written',
  rewrote: 'written',
  rewritten: 'written',
  replaced: 'written',
  overwrote: 'written',
  overwritten: 'written',
  put: 'written',
  populated: 'written',
  touched: 'updated',
  updated: 'updated',
  modified: 'updated',
  changed: 'updated',
  edited: 'updated',
  fixed: 'updated',
  patched: 'updated',
  refactored: 'updated',
  adjusted: 'updated',
  amended: 'updated',
  tweaked: 'updated',
  bumped: 'updated',
  upgraded: 'updated',
  downgraded: 'updated',
  wired: 'updated',
  'hooked up': 'updated',
  inlined: 'updated',
  simplified: 'updated',
  'commented out': 'updated',
  reworked: 'updated',
  restructured: 'updated',
  reorganized: 'updated',
  migrated: 'updated',
  // `applied the fix to src/a.ts`; what it was applied from is unchanged (see `fromIsSource`).
  applied: 'updated',
  deleted: 'deleted',
  removed: 'deleted',
  dropped: 'deleted',
  trashed: 'deleted',
  erased: 'deleted',
  purged: 'deleted',
  'got rid of': 'deleted',
  moved: 'moved',
  renamed: 'moved',
  implemented: 'written',
  introduced: 'written',
  made: 'written',
  authored: 'created',
  'set up': 'created',
  'cleaned up': 'updated',
  new: 'created',
  gone: 'deleted',
  reverted: 'restored',
  restored: 'restored',
  undid: 'restored',
  // A conversion (`converted src/a.js to TypeScript`, `ported a.js to TS`, `converted a.js to
  // a.ts`) claims a change of each file it names, of any kind: the source edited in place,
  // deleted (beside a created a.ts) or moved away; a named destination created, moved there or
  // edited. A created a.ts beside an untouched a.js is no conversion of a.js: it is flagged.
  converted: 'changed',
  ported: 'changed',
  ...FOREIGN_VERBS,
};
/**
 * Phrases that say a file is gone, after it: `src/b.ts no longer exists`, `… is no longer
 * there`, `… doesn't exist anymore`. Read like `gone`: said of a file, they claim its deletion.
 */
const GONE_PHRASE = String.raw`no\s+longer\s+(?:exists?|there|present)|(?:does\s+not|doesn['\u2019]t)\s+exist\s+any\s*more`;
/** A sentence that presents a created file: `There's a new file, src/z.ts`, `there are two new test files: …`. */
const NEW_FILE_PHRASE = String.raw`there(?:['\u2019]s|\s+is|\s+are)\s+(?:now\s+)?(?:(?:a|an|one|two|three|four|five|\d{1,3})\s+)?new\s+(?:\p{L}+\s+)?files?`;
/**
 * A file's new content stated after it: `src/a.ts now exports 10`, `src/z.ts now contains the
 * helper`. Said of a file, it claims the file was written this turn.
 */
const NOW_HOLDS_PHRASE = String.raw`now\s+(?:contains|exports|includes|defines|declares|exposes|imports|returns|has|uses|handles|calls|supports|accepts|validates|throws|wraps)`;
/** A label that lists created files: `New file: src/z.ts`, `New files: a.ts, b.ts`. */
const NEW_FILE_LABEL = String.raw`new\s+files?\s*:`;
const IS_NOW_HOLDS_PHRASE = new RegExp(`^(?:${NOW_HOLDS_PHRASE})$`, 'iu');
const IS_NEW_FILE_LABEL = new RegExp(`^(?:${NEW_FILE_LABEL})$`, 'iu');
const IS_GONE_PHRASE = new RegExp(`^(?:${GONE_PHRASE})$`, 'iu');
const IS_NEW_FILE_PHRASE = new RegExp(`^(?:${NEW_FILE_PHRASE})$`, 'iu');

// `made` claims nothing in `made sure`; two-word verbs may be spaced any way.
const VERB_SOURCE = `${NEW_FILE_LABEL}|${NEW_FILE_PHRASE}|${GONE_PHRASE}|${NOW_HOLDS_PHRASE}|${Object.keys(
  VERBS,
)
  .filter((verb) => verb !== 'made')
  .map((verb) => verb.replaceAll(' ', '\\s+'))
  .join('|')}|made(?!\\s+(?:sure|certain)\\b)`;
// Word edges by Unicode letters, so accented verbs (`créé`, `gelöscht`) end where a word ends.
/** A change verb or phrase anywhere in a text. */
export const VERB_PATTERN = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${VERB_SOURCE})(?![\\p{L}\\p{N}_])`, 'giu');
/** A change verb or phrase at the start of a text. */
export const LEADING_VERB = new RegExp(`^(?:${VERB_SOURCE})(?![\\p{L}\\p{N}_])`, 'iu');

/** A matched verb as claims spell it: lower case, single spaces. */
export function verbText(match: string): string {
  return match.toLowerCase().replace(/\s+/g, ' ');
}

/** The kind of change a verb or phrase (as `verbText` spells it) says. */
export function saidOf(verb: string): SaidChange {
  if (IS_GONE_PHRASE.test(verb)) return 'deleted';
  if (IS_NEW_FILE_PHRASE.test(verb) || IS_NEW_FILE_LABEL.test(verb)) return 'created';
  if (IS_NOW_HOLDS_PHRASE.test(verb)) return 'written';
  return VERBS[verb] as SaidChange;
}

/** The verbs of adding, in each language the readers know: as a file's status they say it is new. */
const ADDING = new Set(['added', 'ajouté', 'añadido', 'agregado', 'adicionado', 'aggiunto', 'hinzugefügt']);

/**
 * What a change word says when it is a file's status, not a verb with an object inside the file:
 * `src/z.ts — added`, `Added: src/z.ts`, `I added src/z.ts.` say the file is new, so a file that
 * existed before the turn is no fit (`added a test to src/a.ts` is an edit, read by `saidOf`).
 */
export function statusOf(verb: string): SaidChange {
  return ADDING.has(verb) ? 'created' : saidOf(verb);
}

/** A content edit inside a file (`removed the import from src/a.ts`), not a file-level change. */
const INSIDE = /\b(in|into|inside|within|from|to|of|for)\b/i;

/**
 * What a verb says of a file with words (`gap`, the other files left out) between them: with a
 * preposition a content edit (`added a test to src/a.ts`: `written`), except a move of a file
 * to a file (`moved src/a.ts to src/b.ts`; `moved the helper to src/b.ts` edits src/b.ts), a
 * rename's destination (`src/b.ts renamed to lib/b.ts`, a table cell), a restore (`restored
 * src/a.ts from HEAD`) and a conversion (`converted src/a.js to src/a.ts`: any change).
 */
export function placedKind(said: SaidChange, gap: string, gapHasFile: boolean): SaidChange {
  const renamedTo = said === 'moved' && /^\s*(?:to|into|as)\s*$/i.test(gap);
  if ((said === 'moved' && gapHasFile) || renamedTo || said === 'restored' || said === 'changed') return said;
  return INSIDE.test(gap) ? 'written' : said;
}

/** Verbs whose `from` names where something came from, left as it was: `applied the patch from fix.diff`. */
export function fromIsSource(verb: string): boolean {
  return verb === 'applied';
}

/**
 * Words that claim only after the file (`src/h.ts is new`, `src/b.ts no longer exists`):
 * before it they describe (`the new src/h.ts`).
 */
export function afterOnly(verb: string): boolean {
  return verb === 'new' || verb === 'gone' || IS_GONE_PHRASE.test(verb) || IS_NOW_HOLDS_PHRASE.test(verb);
}

/** Adjectives that claim only with a verb between (`src/h.ts is new`; `src/a.ts: new tests` claims nothing). */
export function needsAuxiliary(verb: string): boolean {
  return verb === 'new' || verb === 'gone';
}
