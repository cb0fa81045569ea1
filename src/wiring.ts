import { AccountService } from './accounts/service.ts';
import { SessionStore } from './accounts/sessions.ts';
import { FailureLog } from './accounts/sign-in-failures.ts';
import { AccountStore } from './accounts/store.ts';
import { DatabaseChangeFeed } from './catalog/database-change-feed.ts';
import { DownloadCounts } from './catalog/download-counts.ts';
import { CatalogService } from './catalog/service.ts';
import { CatalogStore } from './catalog/store.ts';
import { CatalogWriter } from './catalog/writer.ts';
import type { Config } from './config.ts';
import { sql } from 'kysely';
import { openDatabase } from './db/index.ts';
import { TurnCommit } from './db/turn-commit.ts';
import { FolderStore } from './media/folder-store.ts';
import { PictureService } from './media/pictures.ts';
import { RenditionService } from './media/renditions.ts';
import type { RenderTimeLimit } from './media/rendition-work.ts';
import { RenditionStore } from './media/rendition-store.ts';
import { MediaSigner } from './media/signing.ts';
import { Meter } from './metering/meter.ts';
import { PackService } from './packs/service.ts';
import { S3Store } from './media/s3-store.ts';
import type { MediaStore } from './media/store.ts';
import { InProcessQuotaCounter } from './quota/in-process.ts';
import { RedisQuotaCounter } from './quota/redis.ts';
import type { QuotaCounter } from './quota/quota.ts';
import { UsageHistory } from './quota/usage-history.ts';
import { databaseSecret } from './secrets.ts';
import { NotReadyError, type Services } from './services.ts';

export interface ServiceOptions {
  clock?: () => number;
  /** Where failures of background work (following the catalog's changes) are reported. */
  onError?: (error: unknown) => void;
  /** How long a rendition's job may run (media/rendition-work.ts's default when absent). */
  renderTimeLimit?: RenderTimeLimit;
}

/** The composition root of the services: picks each backend from config. */
export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  // Not built yet: refuse rather than run on SQLite while the operator believes otherwise.
  const clock = options.clock ?? Date.now;
  // PUBLIC_URL wins; otherwise the address we listen on, known for sure only after listen().
  let listeningUrl = `http://${config.host}:${config.port}`;
  const baseUrl = () => config.publicUrl ?? listeningUrl;
  // Checked before anything else is opened: a missing bucket or refused credentials stop the start in one line.
  const files: MediaStore = config.s3
    ? new S3Store(config.s3, config.dataDir, config.mediaRedirect, { streamSockets: config.maxConnections })
    : new FolderStore(config.dataDir);
  try {
    await files.ready();
  } catch (error) {
    files.close();
    throw error;
  }
  const database = await openDatabase(config);
  // SIGNING_SECRET wins; generated secrets live in the database every instance shares (secrets.ts).
  let signer: MediaSigner;
  let csrfSecret: string;
  try {
    signer = new MediaSigner(
      config.signingSecrets ?? [await databaseSecret(database.db, config.dataDir, 'signing')],
      () => baseUrl(),
      clock,
    );
    // Its own secret: a dashboard token never shares a key with a media signature.
    csrfSecret = await databaseSecret(database.db, config.dataDir, 'csrf');
  } catch (error) {
    await database.close();
    files.close();
    throw error;
  }
  const accountStore = new AccountStore(database.db, database.dataVersion);
  // One group commit for what is charged and what is served (db/turn-commit.ts).
  const ledger = new TurnCommit(database.db);
  const usageHistory = new UsageHistory(database.db, ledger);
  let quota: QuotaCounter;
  try {
    quota = config.redisUrl
      ? await RedisQuotaCounter.connect(config.redisUrl, usageHistory)
      : new InProcessQuotaCounter(usageHistory);
  } catch (error) {
    await usageHistory.close();
    await database.close();
    throw error;
  }
  const renditions = new RenditionService(files, new RenditionStore(database.db), {
    maxBytes: config.renditionsMaxBytes,
    concurrency: config.renditionsConcurrency,
    clock,
    onError: options.onError,
    ...(options.renderTimeLimit && { timeLimit: options.renderTimeLimit }),
  });
  const downloads = new DownloadCounts(database.db, database.dialect, ledger);
  const catalog = new CatalogService(
    new CatalogStore(database.db),
    new DatabaseChangeFeed(database.db, database.dialect),
    downloads,
    options.onError,
  );
  const accounts = new AccountService(accountStore, clock);
  const meter = new Meter(quota, catalog, clock);
  return {
    config,
    database,
    catalog,
    catalogWriter: new CatalogWriter(database.db, files, clock, () => catalog.changed()),
    accounts,
    quota,
    meter,
    usageHistory,
    signer,
    csrfSecret,
    sessions: new SessionStore(database.db, clock),
    signInFailures: new FailureLog(database.db, clock),
    files,
    renditions,
    pictures: new PictureService(files, renditions),
    // Reads the catalog's files and renditions and is paid through the meter, whichever door asks.
    packs: new PackService({ catalog, accounts, meter, signer, renditions, files, clock }),
    clock,
    baseUrl,
    async ready() {
      await sql`SELECT 1`.execute(database.db).catch((error: unknown) => {
        throw new NotReadyError('database', error);
      });
      await quota.ready().catch((error: unknown) => {
        throw new NotReadyError('quota counters', error);
      });
      await files.ready().catch((error: unknown) => {
        throw new NotReadyError('media store', error);
      });
    },
    listeningAt(url: string) {
      listeningUrl = url;
    },
    async close() {
      await catalog.close();
      await renditions.close();
      await quota.close();
      await usageHistory.close();
      await database.close();
      files.close();
    },
  };
}
