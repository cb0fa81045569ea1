import type { Account } from '../../accounts/store.ts';
import { NARROW_CHART, shortDate, usageChartSvg, WIDE_CHART } from '../drawing/usage-chart.ts';
import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import type { UsageSummary } from '../usage.ts';
import { formatCount, formatUtc, formatWait } from './format.ts';
import { layout } from './layout.ts';
import { upgradeCallout } from './upgrade.ts';

export interface OverviewPage {
  visitor: Visitor;
  account: Account;
  usage: UsageSummary;
  keyCount: number;
  baseUrl: string;
}

export function overviewPage(page: OverviewPage): Html {
  const { account, usage } = page;
  return layout({
    title: 'Overview',
    visitor: page.visitor,
    path: '/dashboard',
    main: html`<div class="page-head">
<h1>Overview</h1>
<p>Signed in as <strong>${account.email}</strong> on the <strong>${account.plan.label}</strong> plan.</p>
</div>
${account.plan.apiAccess ? usageStats(page) : upgradeCallout(account.plan)}
<section class="card" aria-labelledby="chart-title">
<div class="card-head"><h2 id="chart-title">Requests, last ${usage.days.length} days</h2>\
<p class="muted">Counted per day in UTC, across all your keys.</p></div>
<div class="chart-frame">${usageChartSvg(usage.days, WIDE_CHART)}${usageChartSvg(usage.days, NARROW_CHART)}</div>
<details class="chart-table"><summary>Show the numbers</summary>
<table><thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="number">Requests</th></tr></thead>
<tbody>${[...usage.days].reverse().map(
      (d) => html`<tr><td>${shortDate(d.day)}, ${d.day.slice(0, 4)}</td>\
<td class="number">${formatCount(d.count)}</td></tr>`,
    )}</tbody></table>
</details>
</section>
${account.plan.apiAccess && quickStart(page)}`,
  });
}

function usageStats(page: OverviewPage): Html {
  const { usage, account } = page;
  return html`<section class="stat-grid" aria-label="Today">
<div class="stat"><p class="stat-label">Requests today</p><p class="stat-value">${formatCount(usage.today)}</p>
<progress max="${usage.limit}" value="${Math.min(usage.today, usage.limit)}" aria-label="Share of today's \
quota used">${formatCount(usage.today)} of ${formatCount(usage.limit)}</progress>
<p class="stat-note">of ${formatCount(usage.limit)} a day</p></div>
<div class="stat"><p class="stat-label">Remaining today</p><p class="stat-value">${formatCount(usage.remaining)}</p>\
<p class="stat-note">requests until the reset</p></div>
<div class="stat"><p class="stat-label">Resets in</p><p class="stat-value">${formatWait(usage.secondsToReset)}</p>\
<p class="stat-note">at <time datetime="${new Date(usage.reset * 1000).toISOString()}">\
${formatUtc(new Date(usage.reset * 1000).toISOString())}</time></p></div>
<div class="stat"><p class="stat-label">API keys</p><p class="stat-value">${page.keyCount} \
<span class="stat-of">of ${account.plan.maxKeys}</span></p><p class="stat-note"><a href="/dashboard/keys">Manage keys\
</a></p></div>
</section>`;
}

function quickStart(page: OverviewPage): Html {
  return html`<section class="card" aria-labelledby="start-title">
<div class="card-head"><h2 id="start-title">Make a first request</h2>\
<p class="muted">Keep keys on your server, never in a browser or app bundle.</p></div>
<pre class="code"><code>curl -H "x-api-key: &lt;API_KEY&gt;" \\
  "${page.baseUrl}/api/v1/sounds?q=glass&amp;limit=5"</code></pre>
<p>Every response carries <code>X-RateLimit-Remaining</code>. The <a href="/docs">API reference\
</a> lists every endpoint.</p>
</section>`;
}
