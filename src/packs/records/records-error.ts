import { TallyError } from '../../core/errors.js';

/** Could not search at all (missing root, unreadable store): exit 3. */
export class RecordsUnavailableError extends TallyError {}

/** A usage error or a refused --cat: exit 2, nothing printed. */
export class RecordsUsageError extends TallyError {}
