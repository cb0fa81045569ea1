import { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.ts';

/**
 * How many sockets each kind of S3 request may hold, and how long it may take. The SDK's default
 * is one pool of 50 sockets without timeouts: 50 clients reading media slowly would hold every
 * socket (a stream's S3 body is read at its reader's pace), and every other request, readiness
 * included, would wait behind them. So requests are split by whose pace they go at:
 *
 * - `streams`: media bodies (GetObject), read as fast as a client (or a pack, or a rendition's
 *   copy) takes them. Each client connection streams one body at a time, so the pool has as many
 *   sockets as the server takes connections (MAX_CONNECTIONS): readers hold sockets of their own,
 *   never ones another stream is waiting for. A body that moves no byte for `streamIdleMs` (its
 *   reader or the store stalled) is cut, and its socket freed.
 * - `uploads`: PutObject and multipart parts, at the service's own pace (ingest, renditions).
 * - `control`: small requests answered at once (HEAD of an object, of the bucket for readiness,
 *   DELETE): a pool of their own, so neither streams nor uploads can make them wait, and a short
 *   deadline, so a store that does not answer is reported rather than waited for.
 *
 * In every pool a request that finds no free socket waits at most `connectMs` (counted with the
 * connection itself) and then fails as a store that does not answer (503).
 */
export interface S3Bounds {
  /** Connecting, and waiting for a free socket first: past it the store is taken as down. */
  connectMs: number;
  streamSockets: number;
  /** Until the response's headers: a store that takes longer is taken as down. */
  streamHeadersMs: number;
  /** No byte of a body for this long: the body is cut (its reader sees an error). */
  streamIdleMs: number;
  uploadSockets: number;
  /** No byte sent or received for this long: the upload fails. */
  uploadIdleMs: number;
  controlSockets: number;
  /** The whole of a small request. */
  controlMs: number;
}

export const S3_BOUNDS: S3Bounds = {
  connectMs: 3_000,
  streamSockets: 1000,
  streamHeadersMs: 10_000,
  streamIdleMs: 30_000,
  uploadSockets: 50,
  uploadIdleMs: 30_000,
  controlSockets: 16,
  controlMs: 10_000,
};

export interface S3Pools {
  streams: S3Client;
  uploads: S3Client;
  control: S3Client;
}

export function s3Pools(settings: S3Config, bounds: S3Bounds): S3Pools {
  type Timeouts = { requestTimeout?: number; socketTimeout: number };
  const pool = (sockets: number, timeouts: Timeouts) =>
    s3Client(settings, {
      connectionTimeout: bounds.connectMs,
      // Without throwOnRequestTimeout the SDK only logs a warning past requestTimeout.
      ...(timeouts.requestTimeout !== undefined && {
        requestTimeout: timeouts.requestTimeout,
        throwOnRequestTimeout: true,
      }),
      socketTimeout: timeouts.socketTimeout,
      httpAgent: { keepAlive: true, maxSockets: sockets },
      httpsAgent: { keepAlive: true, maxSockets: sockets },
    });
  return {
    streams: pool(bounds.streamSockets, { requestTimeout: bounds.streamHeadersMs, socketTimeout: bounds.streamIdleMs }),
    // No deadline for the whole: a large part on a slow link may take long while it moves.
    uploads: pool(bounds.uploadSockets, { socketTimeout: bounds.uploadIdleMs }),
    control: pool(bounds.controlSockets, { requestTimeout: bounds.controlMs, socketTimeout: bounds.controlMs }),
  };
}

function s3Client(settings: S3Config, requestHandler: Record<string, unknown>): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials && { credentials: settings.credentials }),
    // Plain bodies: compatible stores (Swift, older MinIO) refuse the SDK's aws-chunked uploads
    // with trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // One retry: a store that is down answers 503 at once rather than after several back-offs.
    maxAttempts: 2,
    requestHandler,
  });
}
