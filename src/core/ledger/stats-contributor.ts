/**
 * A query a stats contributor asks of a ledger, once per backend: SQLite binds the period's
 * start as `@since`, PostgreSQL as `$1`. JSON is text in both (json_extract / `::jsonb`).
 */
export interface DialectSql {
  sqlite: string;
  postgres: string;
}

/** One row of a contributor's query; counts may come as text (PostgreSQL's bigint). */
export type StatsRow = Record<string, unknown>;

/** What a contributor may read of one ledger: the rows of its own read-only queries over a period. */
export interface StatsSource {
  readonly backend: 'sqlite' | 'postgres';
  /** The period's start (an ISO time), already bound to each query. */
  readonly since: string;
  rows(sql: DialectSql): Promise<StatsRow[]>;
}

/**
 * A pack's or an agent's share of `tally stats`: core counts runs, endings, fires, rejections
 * and fail-opens, and asks each registered contributor for its own figures. The database counts
 * (the contributor's SQL) and only the groups cross into JavaScript; counts of several ledgers
 * add up (`merge`), and the figures (rates) are derived once, from the sums.
 */
export interface StatsContributor<Counts = unknown, Figures = unknown> {
  /** The figures' key in `tally stats --json` (`chatTurns`): a word of the contributor's own. */
  readonly name: string;
  /** One ledger's counts; undefined when it has nothing to count there (no section is shown). */
  count(source: StatsSource): Promise<Counts | undefined>;
  merge(into: Counts, from: Counts): Counts;
  figures(counts: Counts): Figures;
  /** Its section of the text `tally stats` prints. */
  lines(figures: Figures): string[];
}

/** A contributor of any counts and figures, as lists of them are held. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds contributors of different counts; each one's own methods agree.
export type AnyStatsContributor = StatsContributor<any, any>;
