import { PLANS, type Plan } from '../../accounts/plans.ts';
import { html, type Html } from '../html.ts';
import { formatCount } from './format.ts';

/** The plans that open the API, read from the plan table: a new plan shows up here by itself. */
export function paidPlans(): Plan[] {
  return Object.values(PLANS).filter((plan) => plan.apiAccess);
}

export function planFeatures(plan: Plan): string[] {
  if (!plan.apiAccess) return ['Browse and play the public samples', 'No API access, no keys'];
  return [
    `${formatCount(plan.dailyQuota)} API requests a day`,
    `Up to ${formatCount(plan.maxKeys)} API keys`,
    'Full catalog search with every filter',
    'Unlimited downloads, signed stream and download links',
    'The same key works with the MCP server',
  ];
}

/** Cards of every plan; `current` marks the reader's own. */
export function planCards(current: Plan | null): Html {
  return html`<div class="plan-grid">${Object.values(PLANS).map(
    (plan) => html`\
<section class="plan-card${plan === current ? ' plan-card-current' : ''}" aria-labelledby="plan-${plan.name}">
<h3 id="plan-${plan.name}">${plan.label}${
      plan === current &&
      html` \
<span class="plan-badge plan-${plan.name}">Your plan</span>`
    }</h3>
<p class="plan-price"><span class="plan-amount">$${plan.priceUsdPerMonth}</span> / month</p>
<ul class="check-list">${planFeatures(plan).map((feature) => html`<li>${feature}</li>`)}</ul>
</section>`,
  )}</div>`;
}
