/**
 * The project's changes, one at a time in this process. An edit reads, changes and renames;
 * two edits of one file in flight together each read the same old text, and the second
 * rename drops the first edit while both report success, with the same read-back hash.
 * Every tool that changes files (write, edit, move, delete) waits here for the one before it,
 * across sessions and roots: changes take a millisecond, and a client sending them in
 * parallel gets them in order instead of lost.
 */
const queue: { last: Promise<unknown> } = { last: Promise.resolve() };

const settled = () => undefined;

export function oneChangeAtATime<T>(change: () => Promise<T>): Promise<T> {
  const run = queue.last.then(change, change);
  queue.last = run.then(settled, settled);
  return run;
}
