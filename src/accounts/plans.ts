/** Plans are data: what each one allows. Code asks these fields, never a plan's name. */
export interface Plan {
  name: PlanName;
  label: string;
  apiAccess: boolean;
  /** Requests per day, shared by all keys of an account; reset at midnight UTC. */
  dailyQuota: number;
  maxKeys: number;
  priceUsdPerMonth: number;
}

export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const PLANS: Record<PlanName, Plan> = {
  free: { name: 'free', label: 'Free', apiAccess: false, dailyQuota: 0, maxKeys: 0, priceUsdPerMonth: 0 },
  pro: { name: 'pro', label: 'Pro', apiAccess: true, dailyQuota: 2500, maxKeys: 2, priceUsdPerMonth: 15 },
  enterprise: {
    name: 'enterprise',
    label: 'Enterprise',
    apiAccess: true,
    dailyQuota: 50000,
    maxKeys: 20,
    priceUsdPerMonth: 49,
  },
};

export function planOf(name: string): Plan {
  const plan = PLANS[name as PlanName];
  if (!plan) throw new Error(`unknown plan "${name}"`);
  return plan;
}
