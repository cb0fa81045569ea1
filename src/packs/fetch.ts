import type { StoredSound } from '../catalog/sound.ts';
import { RenditionCharge, type RenditionPayer } from '../media/rendition-payment.ts';
import { renditionPrice } from '../media/rendition-work.ts';
import {
  isRendition,
  type RenditionChoice,
  type RenditionPayment,
  type RenditionRequest,
  type RenditionService,
} from '../media/renditions.ts';
import type { Meter } from '../metering/meter.ts';

/** Pack URLs one account may be fetching at once (on one instance). */
export const PACK_FETCHES_PER_ACCOUNT = 2;
/** Seconds a fetch refused for that is asked to wait: a small pack is done by then. */
export const PACK_FETCH_RETRY_SECONDS = 10;

/** The account is fetching as many packs as it may at once. */
export class PackFetchesBusyError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} packs download at once for one account; try again when one of them has ended`);
  }
}

/**
 * The pack fetches under way, by who pays for them: at most `perAccount` each. A fetch holds its
 * place from its start until its ZIP has ended or its client left. Counted in this process: with
 * several instances an account may fetch `perAccount` packs on each of them (a shared count, in
 * Redis, would hold across instances; what makes a pack costly, its renditions, is paid for and
 * bounded per instance anyway).
 */
export class PackFetches {
  private readonly active = new Map<string, number>();

  constructor(private readonly perAccount = PACK_FETCHES_PER_ACCOUNT) {}

  /** Takes a place for `payer`, or PackFetchesBusyError; the function returned gives it back (once). */
  enter(payer: string): () => void {
    const count = this.active.get(payer) ?? 0;
    if (count >= this.perAccount) throw new PackFetchesBusyError(this.perAccount);
    this.active.set(payer, count + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.active.get(payer) ?? 1) - 1;
      if (now === 0) this.active.delete(payer);
      else this.active.set(payer, now);
    };
  }
}

/** What paying for a pack's renditions asks: the meter that charges, which renditions are stored, the time. */
export interface PackPaymentServices {
  meter: Meter;
  renditions: Pick<RenditionService, 'has'>;
  clock: () => number;
}

/**
 * What one fetch of a pack of renditions pays, the one place it is charged and given back. At
 * its start, before anything is made, the price of every rendition not stored then is taken in
 * one charge (RenditionQuotaError when the quota cannot cover it). Each rendition this fetch's
 * job then makes draws its price from that charge; one removed since (to stay under the bound)
 * and made again is charged then, on its own. A rendition that fails gives its part back, and
 * so does `settle` for every one this fetch did not make (another request made it, or the client
 * left first). After `settle`, nothing more is paid. A pack with a sprite (sprite.ts) pays its
 * price in the same charge; making it draws that part, and its failure, or `settle` when it was
 * never made, gives it back.
 */
export class PackPayment {
  private settled = false;

  private constructor(
    private readonly services: PackPaymentServices,
    private readonly payer: RenditionPayer,
    private readonly charge: RenditionCharge | null,
    private readonly prepaid: Map<string, number>,
    private spritePrice: number,
  ) {}

  static async open(
    services: PackPaymentServices,
    payer: RenditionPayer,
    sounds: StoredSound[],
    choice: RenditionChoice,
    spritePrice = 0,
  ): Promise<PackPayment> {
    const stored = isRendition(choice)
      ? await Promise.all(sounds.map((sound) => services.renditions.has(sound, choice)))
      : sounds.map(() => true);
    const missing = sounds.filter((_sound, index) => !stored[index]);
    const prepaid = new Map(missing.map((sound) => [sound.id, renditionPrice(sound, choice)]));
    const total = [...prepaid.values()].reduce((sum, price) => sum + price, spritePrice);
    const charge = total > 0 ? await RenditionCharge.take(services.meter, services.clock, payer, total) : null;
    return new PackPayment(services, payer, charge, prepaid, spritePrice);
  }

  /** The `pay` of the pack's sprite: its part of the charge, drawn once. */
  async payForSprite(): Promise<RenditionPayment> {
    if (this.settled) throw new Error("the pack's fetch has ended");
    const price = this.spritePrice;
    this.spritePrice = 0;
    if (price === 0 || !this.charge) throw new Error("the pack's sprite was paid for already, or never");
    return this.charge.part(price);
  }

  /** The `pay` of this sound's rendition request. */
  payFor(sound: StoredSound): NonNullable<RenditionRequest['pay']> {
    return async (price: number): Promise<RenditionPayment> => {
      if (this.settled) throw new Error("the pack's fetch has ended");
      const prepaid = this.prepaid.get(sound.id);
      if (prepaid !== undefined && this.charge) {
        this.prepaid.delete(sound.id);
        return this.charge.part(prepaid);
      }
      return RenditionCharge.take(this.services.meter, this.services.clock, this.payer, price);
    };
  }

  /** Gives back what was paid for renditions this fetch did not make; once its ZIP has ended or its client left. */
  async settle(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const unused = [...this.prepaid.values()].reduce((sum, price) => sum + price, this.spritePrice);
    this.prepaid.clear();
    this.spritePrice = 0;
    if (unused > 0) await this.charge?.refund(unused);
  }
}
