import type SQLiteModule from 'better-sqlite3';

export declare const nodeApiVersion: number;
declare const SQLite: typeof SQLiteModule;
export default SQLite;
