import { Worker } from 'node:worker_threads';
import {
  Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult,
} from 'kysely';
import type { Database } from './schema.ts';

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/**
 * One thread with its own read-only SQLite connection, for the queries that can be slow: list
 * queries that miss the cache (a two-word search at 100,000 sounds reads thousands of rows). On
 * the main thread, such a query stops every other request for its whole length, cached ones
 * included; here it waits its turn while the event loop goes on. WAL mode lets the reader see
 * every committed write at the start of each query. Started on first use, so commands that never
 * search never start it; a thread that dies fails its queries and the next query starts another.
 */
export class ReaderThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly file: string) {}

  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Held by the process only while it has work: an idle reader lets a command exit.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
    this.fail(new Error('the database is closed'));
  }

  private start(): Worker {
    const worker = new Worker(new URL('./read-worker.js', import.meta.url), { workerData: { file: this.file }, execArgv: [] });
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const task = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if (message.error) task?.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else task?.resolve(message.rows!);
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      this.fail(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the reader thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    for (const task of this.pending.values()) task.reject(error);
    this.pending.clear();
  }
}

/** A Kysely instance whose queries run on the reader thread: SELECTs only, no transactions. */
export function readerKysely(reader: ReaderThread): Kysely<Database> {
  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      return { rows: (await reader.query(compiled.sql, compiled.parameters)) as R[] };
    },
    streamQuery() {
      throw new Error('the reader thread does not stream');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {
      throw new Error('the reader thread runs no transactions');
    },
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: () => reader.close(),
  };
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
