import type { AccountService } from './accounts/service.ts';
import type { AccountStore } from './accounts/store.ts';
import type { CatalogService } from './catalog/service.ts';
import type { CatalogWriter } from './catalog/writer.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import type { FileStore } from './media/file-store.ts';
import type { MediaSigner } from './media/signing.ts';
import type { QuotaStore } from './quota/quota.ts';

/** Everything a route, a tool or a command may call. Built once by `createServices`. */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  catalog: CatalogService;
  catalogWriter: CatalogWriter;
  accountStore: AccountStore;
  accounts: AccountService;
  quota: QuotaStore;
  signer: MediaSigner;
  /** The key of the dashboard's CSRF tokens (generated into the data folder). */
  csrfSecret: string;
  files: FileStore;
  /** Milliseconds since the epoch; tests move it. */
  clock: () => number;
  /** The `{base_url}` of links and signed URLs. */
  baseUrl: () => string;
  /** Tells the services where the server listens (PORT=0 picks a free port). */
  listeningAt(url: string): void;
  close(): Promise<void>;
}
