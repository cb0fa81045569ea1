import type { AccountService } from './accounts/service.ts';
import type { SessionStore } from './accounts/sessions.ts';
import type { FailureLog } from './accounts/sign-in-failures.ts';
import type { CatalogService } from './catalog/service.ts';
import type { CatalogWriter } from './catalog/writer.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import type { RenditionService } from './media/renditions.ts';
import type { PictureService } from './media/pictures.ts';
import type { MediaSigner } from './media/signing.ts';
import type { MediaStore } from './media/store.ts';
import type { Meter } from './metering/meter.ts';
import type { PackService } from './packs/service.ts';
import type { QuotaCounter } from './quota/quota.ts';
import type { UsageHistory } from './quota/usage-history.ts';

/**
 * Every service, built once by `createServices` (wiring.ts). Commands get the whole set; each
 * HTTP plugin gets only the few it names below, picked out in app.ts.
 */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  catalog: CatalogService;
  catalogWriter: CatalogWriter;
  accounts: AccountService;
  /** The daily quota's counter; entry points charge it through `meter`, never directly. */
  quota: QuotaCounter;
  /** What every entry point charges through: the daily quota and the downloads served. */
  meter: Meter;
  /** Requests per account and key per day, for the dashboard. */
  usageHistory: UsageHistory;
  signer: MediaSigner;
  /** The dashboard's sessions and its failed sign-ins, in the database like everything else. */
  sessions: SessionStore;
  signInFailures: FailureLog;
  /** The key of the dashboard's CSRF tokens (generated once into the database). */
  csrfSecret: string;
  /** Every media file delivered (originals and renditions): a folder or an S3 bucket. */
  files: MediaStore;
  /** Loudness-normalized and trimmed copies of the MP3s, made on first request, bounded in disk and threads. */
  renditions: RenditionService;
  /** Waveform and spectrogram PNGs (issue 40), made like renditions, for REST, MCP and the dashboard. */
  pictures: PictureService;
  /** Packs of sounds in one ZIP (issue 30), for REST, MCP, the dashboard and the pack URL's route. */
  packs: PackService;
  /** Milliseconds since the epoch; tests move it. */
  clock: () => number;
  /** The `{base_url}` of links and signed URLs. */
  baseUrl: () => string;
  /** Resolves when every store answers; rejects with a NotReadyError naming the first that does not. */
  ready(): Promise<void>;
  /** Tells the services where the server listens (PORT=0 picks a free port). */
  listeningAt(url: string): void;
  close(): Promise<void>;
}

/** A dependency of the service does not answer: /readyz names it. */
export class NotReadyError extends Error {
  constructor(
    readonly dependency: 'database' | 'quota counters' | 'media store',
    cause: unknown,
  ) {
    super(`the ${dependency} does not answer`, { cause });
  }
}

/** The REST endpoints and the MCP tools: the catalog, the caller's key and quota, signed URLs. */
export type ApiServices = Pick<
  Services,
  'catalog' | 'accounts' | 'meter' | 'signer' | 'packs' | 'pictures' | 'clock' | 'baseUrl'
>;

/** The MCP server: the API's services, and the files and renditions that resources and previews read. */
export type McpServices = ApiServices & Pick<Services, 'files' | 'renditions'>;

/** The dashboard's pages and forms. */
export type DashboardServices = Pick<
  Services,
  | 'catalog'
  | 'accounts'
  | 'meter'
  | 'usageHistory'
  | 'signer'
  | 'packs'
  | 'pictures'
  | 'sessions'
  | 'signInFailures'
  | 'csrfSecret'
  | 'clock'
  | 'baseUrl'
>;
