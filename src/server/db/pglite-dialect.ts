import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely dialect for PGlite. PGlite is one connection, so the driver hands out that connection to
 * one user at a time (a FIFO lock): a transaction holds it from BEGIN to COMMIT/ROLLBACK.
 */
class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly pg: PGlite,
    private readonly isClosed: () => boolean,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // A query that was waiting for the connection when the database was closed: the PGlite may
    // now serve someone else (tests hand one on), so it must not run there.
    if (this.isClosed()) throw new Error('The database was closed');
    const result = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[], {
      rowMode: 'object',
    });
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursors; streaming is unsupported here.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not support streaming');
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  private release: (() => void) | undefined;

  constructor(
    private readonly pg: PGlite,
    isClosed: () => boolean,
  ) {
    this.connection = new PGliteConnection(pg, isClosed);
  }

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const iso = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await conn.executeQuery(CompiledQuery.raw(`begin${iso}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    // The owner of the PGlite instance closes it.
  }
}

export class PGliteDialect implements Dialect {
  /** `isClosed`: true once the Database this dialect serves was closed (its queries then fail). */
  constructor(
    private readonly pg: PGlite,
    private readonly isClosed: () => boolean = () => false,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg, this.isClosed);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
