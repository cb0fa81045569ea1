import type { Readable } from 'node:stream';
import type { StoredSound } from '../catalog/sound.ts';
import { notFound } from '../errors.ts';
import { isRendition, RENDITION_COST, type RenditionChoice } from '../media/renditions.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import type { Services } from '../services.ts';
import { estimatePackBytes } from './estimate.ts';
import { streamPack } from './zip.ts';

/** The most sounds one pack holds (issue 30). */
export const PACK_MAX_SOUNDS = 100;

/** What a pack's answer says of it: where to fetch it, until when, what it holds, roughly how big. */
export interface PackTicket {
  downloadUrl: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  sounds: number;
  /** The sounds, in the order asked. */
  items: Array<{ id: string; name: string }>;
  estimatedBytes: number;
  /** What the pack cost the account, in requests of its daily quota (the call's own included). */
  cost: number;
  decision: QuotaDecision | null;
}

/** The daily quota cannot cover the pack: nothing was counted for it beyond the call itself. */
export class PackQuotaError extends Error {
  constructor(readonly decision: QuotaDecision, readonly cost: number) {
    super(`This pack costs ${cost} requests of the daily quota (one per sound, and ${RENDITION_COST} per rendition not made yet), more than is left today`);
  }
}

export type PackServices = Pick<Services, 'catalog' | 'quota' | 'signer' | 'renditions' | 'files' | 'clock'>;

/** Who asks for a pack: the account that pays and the key that spent (null from the dashboard). */
export interface PackCaller {
  accountId: string;
  keyId: string | null;
  dailyQuota: number;
}

/**
 * Packs of sounds: one signed URL for a ZIP of up to 100 sounds with a manifest (issue 30). The
 * whole price is settled here, before anything is made: one request per sound (the call that
 * asks is the first of them) plus, for a pack of renditions, RENDITION_COST for each rendition
 * not stored at this moment; then one download is counted per sound. The ZIP behind the URL is
 * built when it is fetched (zip.ts) and charges nothing more.
 */
export class PackService {
  constructor(private readonly services: PackServices) {}

  /** `ids` are distinct and at most PACK_MAX_SOUNDS (the callers' schemas refuse others). */
  async prepare(caller: PackCaller, ids: string[], choice: RenditionChoice): Promise<PackTicket> {
    const sounds = await this.findAll(ids);
    const cost = await this.costOf(sounds, choice);
    let decision: QuotaDecision | null = null;
    // The call itself already spent one request, as every API call and dashboard action does.
    if (cost > 1) {
      decision = await this.services.quota.consume(caller.accountId, caller.keyId, caller.dailyQuota, this.services.clock(), cost - 1);
      if (!decision.allowed) throw new PackQuotaError(decision, cost);
    }
    for (const sound of sounds) await this.services.catalog.countDownload(sound.id);
    const signed = this.services.signer.signPack(ids, choice, caller.accountId);
    return {
      downloadUrl: signed.url, expiresAt: signed.expiresAt, sounds: sounds.length, items: sounds.map(({ id, name }) => ({ id, name })),
      estimatedBytes: estimatePackBytes(sounds, choice), cost, decision,
    };
  }

  /** The sounds in the order asked; a 404 naming every id the catalog does not have. */
  async findAll(ids: string[]): Promise<StoredSound[]> {
    const found = await Promise.all(ids.map((id) => this.services.catalog.findById(id)));
    const unknown = ids.filter((_id, index) => found[index] === null);
    if (unknown.length > 0) throw notFound(`Sounds not found: ${unknown.join(', ')}`);
    return found as StoredSound[];
  }

  /** The ZIP of sounds found by `findAll`, written as it is read; aborting `signal` stops the work. */
  stream(sounds: StoredSound[], choice: RenditionChoice, signal: AbortSignal): Readable {
    return streamPack(sounds, choice, this.services, signal);
  }

  private async costOf(sounds: StoredSound[], choice: RenditionChoice): Promise<number> {
    if (!isRendition(choice)) return sounds.length;
    const stored = await Promise.all(sounds.map((sound) => this.services.renditions.has(sound, choice)));
    return sounds.length + RENDITION_COST * stored.filter((isStored) => !isStored).length;
  }
}
