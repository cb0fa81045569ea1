import type { Meter, Payer } from '../metering/meter.ts';
import type { QuotaDecision } from '../quota/quota.ts';
import type { RenditionPayment } from './renditions.ts';

/** Who pays for a rendition: the account (a signed URL names it) and the key that spent, if any. */
export type RenditionPayer = Payer;

/** The payer's daily quota cannot cover the price: nothing was counted. */
export class RenditionQuotaError extends Error {
  constructor(
    readonly decision: QuotaDecision,
    readonly price: number,
  ) {
    super(`making this costs ${price} requests of the daily quota, more than is left today`);
  }
}

/**
 * Requests taken from a payer's daily quota for renditions, and given back (to the day they were
 * taken from) for what is not made after all: whole, or in parts when one charge paid for several
 * (a pack's). Never more is given back than was taken.
 */
export class RenditionCharge implements RenditionPayment {
  private left: number;

  private constructor(
    private readonly meter: Meter,
    private readonly payer: RenditionPayer,
    private readonly chargedAt: number,
    price: number,
  ) {
    this.left = price;
  }

  /**
   * The one way renditions are paid for, whichever door asked (media URL, pack, preview): `price`
   * requests of the payer's day, charged through the meter, or RenditionQuotaError when fewer are left.
   */
  static async take(meter: Meter, clock: () => number, payer: RenditionPayer, price: number): Promise<RenditionCharge> {
    const chargedAt = clock();
    const decision = await meter.charge(payer, price, chargedAt);
    if (!decision.allowed) throw new RenditionQuotaError(decision, price);
    return new RenditionCharge(meter, payer, chargedAt, price);
  }

  /** Gives back `cost` of what is left of the charge (all of it by default). */
  async refund(cost = this.left): Promise<void> {
    const back = Math.min(cost, this.left);
    if (back <= 0) return;
    this.left -= back;
    await this.meter.refund(this.payer, back, this.chargedAt);
  }

  /** A part of the charge that pays for one rendition: its refund gives back that part, once. */
  part(cost: number): RenditionPayment {
    let refunded = false;
    return {
      refund: async () => {
        if (refunded) return;
        refunded = true;
        await this.refund(cost);
      },
    };
  }
}
