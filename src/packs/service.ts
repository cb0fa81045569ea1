import type { Readable } from 'node:stream';
import type { AccountService } from '../accounts/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { StoredSound } from '../catalog/sound.ts';
import { notFound } from '../errors.ts';
import { isRendition, type RenditionChoice } from '../media/renditions.ts';
import { renditionPrice } from '../media/rendition-work.ts';
import type { MediaSigner, PackOptions } from '../media/signing.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import { estimatePackBytes } from './estimate.ts';
import { PackFetches, PackPayment, type PackPaymentServices } from './fetch.ts';
import { checkSprite, spritePrice } from './sprite.ts';
import { streamPack, type PackStreamServices } from './zip.ts';

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
  /** What asking for the pack cost the account, in requests of its daily quota (the call's own included). */
  cost: number;
  /** What making its renditions not stored at this moment will cost when the URL is fetched (0 when none). */
  renditionsCost: number;
  decision: QuotaDecision | null;
}

/** The daily quota cannot cover the pack: nothing was counted for it beyond the call itself. */
export class PackQuotaError extends Error {
  constructor(
    readonly decision: QuotaDecision,
    readonly cost: number,
  ) {
    super(`This pack costs ${cost} requests of the daily quota (one per sound), more than is left today`);
  }
}

/** What packs use: the sounds, the account a pack URL names, the signature, and what paying and zipping ask. */
export type PackServices = PackPaymentServices &
  PackStreamServices & {
    catalog: Pick<CatalogService, 'findById'>;
    accounts: Pick<AccountService, 'findById'>;
    signer: Pick<MediaSigner, 'signPack'>;
  };

/** Who asks for a pack: the account that pays and the key that spent (null from the dashboard). */
export interface PackCaller {
  accountId: string;
  keyId: string | null;
  dailyQuota: number;
}

/** A fetch of a pack URL under way: its renditions' payment (null when it makes none), ended once. */
export interface PackFetch {
  payment: PackPayment | null;
  /** Called when the ZIP has ended or its client left: frees the fetch's place and gives back what it did not make. */
  end(): Promise<void>;
}

/** The account a pack URL names is gone: nobody can pay for its renditions. */
export class PackPayerGoneError extends Error {}

/**
 * Packs of sounds: one signed URL for a ZIP of up to 100 sounds with a manifest (issue 30).
 * Asking for one costs one request per sound (the call that asks is the first of them), and
 * counts one download per sound. The ZIP behind the URL is built each time it is fetched
 * (zip.ts), and each fetch pays for the renditions it makes, at their price
 * (media/rendition-work.ts), before anything is made (fetch.ts); stored ones cost nothing. Each
 * account fetches at most PACK_FETCHES_PER_ACCOUNT packs at once.
 */
export class PackService {
  private readonly fetches: PackFetches;

  constructor(
    private readonly services: PackServices,
    options: { fetchesPerAccount?: number } = {},
  ) {
    this.fetches = new PackFetches(options.fetchesPerAccount);
  }

  /**
   * `ids` are distinct and at most PACK_MAX_SOUNDS (the callers' schemas refuse others). A sprite
   * of sounds too long for one is refused (SpriteTooLongError) before anything is charged.
   */
  async prepare(
    caller: PackCaller,
    ids: string[],
    choice: RenditionChoice,
    options: PackOptions = {},
  ): Promise<PackTicket> {
    const sounds = await this.findAll(ids);
    if (options.sprite) checkSprite(sounds, choice);
    const cost = sounds.length;
    let decision: QuotaDecision | null = null;
    // The call itself already spent one request, as every API call and dashboard action does.
    if (cost > 1) {
      decision = await this.services.meter.charge(caller, cost - 1);
      if (!decision.allowed) throw new PackQuotaError(decision, cost);
    }
    // One commit for the whole pack: the downloads of one turn go in one transaction.
    await Promise.all(sounds.map((sound) => this.services.meter.countDownload(sound.id)));
    const signed = this.services.signer.signPack(ids, choice, caller.accountId, options);
    return {
      downloadUrl: signed.url,
      expiresAt: signed.expiresAt,
      sounds: sounds.length,
      items: sounds.map(({ id, name }) => ({ id, name })),
      estimatedBytes: estimatePackBytes(sounds, choice, options),
      cost,
      decision,
      renditionsCost: (await this.renditionsCost(sounds, choice)) + (options.sprite ? spritePrice(sounds, choice) : 0),
    };
  }

  /**
   * Starts a fetch of a pack URL: a place among `holder`'s fetches (PackFetchesBusyError when
   * none is free), then, for a pack of renditions, their charge to the account the URL names
   * (RenditionQuotaError when its quota cannot cover them; PackPayerGoneError when it is gone),
   * and of its sprite when it has one.
   */
  async startFetch(
    holder: string,
    accountId: string | null,
    sounds: StoredSound[],
    choice: RenditionChoice,
    options: PackOptions = {},
  ): Promise<PackFetch> {
    const leave = this.fetches.enter(holder);
    let payment: PackPayment | null = null;
    try {
      if (isRendition(choice) || options.sprite) {
        const account = accountId === null ? null : await this.services.accounts.findById(accountId);
        if (!account) throw new PackPayerGoneError('the account this pack URL names is gone');
        const payer = { accountId: account.id, keyId: null, dailyQuota: account.plan.dailyQuota };
        const sprite = options.sprite ? spritePrice(sounds, choice) : 0;
        payment = await PackPayment.open(this.services, payer, sounds, choice, sprite);
      }
    } catch (error) {
      leave();
      throw error;
    }
    return {
      payment,
      end: async () => {
        leave();
        await payment?.settle();
      },
    };
  }

  /** The sounds in the order asked; a 404 naming every id the catalog does not have. */
  async findAll(ids: string[]): Promise<StoredSound[]> {
    const found = await Promise.all(ids.map((id) => this.services.catalog.findById(id)));
    const unknown = ids.filter((_id, index) => found[index] === null);
    if (unknown.length > 0) throw notFound(`Sounds not found: ${unknown.join(', ')}`);
    return found as StoredSound[];
  }

  /** The ZIP of sounds found by `findAll`, written as it is read, paid by `fetch`; aborting `signal` stops the work. */
  stream(
    sounds: StoredSound[],
    choice: RenditionChoice,
    fetch: PackFetch,
    signal: AbortSignal,
    options: PackOptions = {},
  ): Readable {
    const { payment } = fetch;
    return streamPack(sounds, choice, this.services, signal, {
      pay: payment ? (sound) => payment.payFor(sound) : undefined,
      naming: options.naming,
      sprite: options.sprite ? { pay: payment ? () => payment.payForSprite() : undefined } : undefined,
    });
  }

  /** The price of the renditions not stored at this moment: what a fetch now would pay. */
  private async renditionsCost(sounds: StoredSound[], choice: RenditionChoice): Promise<number> {
    if (!isRendition(choice)) return 0;
    const stored = await Promise.all(sounds.map((sound) => this.services.renditions.has(sound, choice)));
    return sounds.reduce((sum, sound, index) => sum + (stored[index] ? 0 : renditionPrice(sound, choice)), 0);
  }
}
