import type { Plan } from '../../accounts/plans.ts';
import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { formatCount } from './format.ts';
import { layout } from './layout.ts';
import { paidPlans, planCards } from './plan-cards.ts';

/** Shown wherever a plan without API access meets something that needs it. */
export function upgradeCallout(plan: Plan): Html {
  return html`<section class="callout" aria-labelledby="upgrade-title">
<h2 id="upgrade-title">Your ${plan.label} plan has no API access</h2>
<p>API keys, full catalog search and downloads come with a paid plan:</p>
<ul class="check-list">${paidPlans().map(
    (paid) => html`<li><strong>${paid.label}</strong> \
($${paid.priceUsdPerMonth}/month): ${formatCount(paid.dailyQuota)} requests a day, \
up to ${formatCount(paid.maxKeys)} API keys</li>`,
  )}</ul>
<p><a class="button" href="/dashboard/upgrade">How to upgrade</a></p>
</section>`;
}

export function upgradePage(visitor: Visitor): Html {
  const email = visitor.account?.email ?? 'you@example.com';
  return layout({
    title: 'Plans',
    visitor,
    path: '/dashboard/upgrade',
    main: html`<div class="page-head">
<h1>Plans</h1>
<p>Every plan plays the free samples. Paid plans open the REST API, the MCP server and the whole catalog.</p>
</div>
${planCards(visitor.account?.plan ?? null)}
<section class="card" aria-labelledby="how-title">
<div class="card-head"><h2 id="how-title">How to upgrade</h2></div>
<p>There is no card payment here: the operator of this service changes plans by hand. ${
      visitor.account
        ? html`Send them the email of your account, <strong>${email}</strong>, and the plan you want.`
        : html`<a href="/dashboard/sign-up">Create a free account\
</a> first, then send the operator its email and the plan you want.`
    }</p>
<p>Operators can switch it on the operator page, or from the command line:</p>
<pre class="code"><code>sound-catalog accounts set-plan --email ${email} --plan pro</code></pre>
<p>The change applies at once: reload your dashboard and create a key.</p>
</section>`,
  });
}
