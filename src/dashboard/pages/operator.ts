import { PLANS } from '../../accounts/plans.ts';
import type { Account } from '../../accounts/store.ts';
import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { formatCount, formatUtc } from './format.ts';
import { csrfField, layout, notice } from './layout.ts';

export interface OperatorPage {
  visitor: Visitor;
  accounts: Account[];
  /** How many accounts match before the list is cut to what a page can show. */
  matching: number;
  q: string;
  success?: string;
  error?: string;
}

export function operatorPage(page: OperatorPage): Html {
  return layout({
    title: 'Operator',
    visitor: page.visitor,
    path: '/dashboard/operator',
    main: html`<div class="page-head"><h1>Accounts</h1>\
<p>Only operators see this page. A plan change applies at once to the account's keys.</p></div>
${notice('success', page.success)}
${notice('error', page.error)}
<form class="filter-bar" method="get" action="/dashboard/operator" role="search" aria-label="Find accounts">
<div class="field field-grow"><label for="account-q">Email contains</label>\
<input id="account-q" name="q" type="search" value="${page.q}" maxlength="254"></div>
<div class="field field-actions"><button type="submit" class="button">Find</button>${
      page.q &&
      html` \
<a class="button button-quiet" href="/dashboard/operator">Show all</a>`
    }</div>
</form>
<section class="card" aria-labelledby="accounts-title">
<h2 id="accounts-title">${formatCount(page.matching)} \
${page.matching === 1 ? 'account' : 'accounts'}${
  page.matching > page.accounts.length
    ? html` <span \
class="muted">(first ${page.accounts.length} shown; narrow the search)</span>`
    : ''
}</h2>
<table class="responsive-table">
<thead><tr><th scope="col">Email</th><th scope="col">Created</th><th scope="col">Plan</th></tr></thead>
<tbody>${page.accounts.map((account) => accountRow(page.visitor, account))}</tbody>
</table>
</section>`,
  });
}

function accountRow(visitor: Visitor, account: Account): Html {
  const selectId = `plan-${account.id}`;
  return html`<tr>
<th scope="row" data-label="Email"><span>${account.email}${
    account.isOperator &&
    html` \
<span class="plan-badge plan-operator">Operator</span>`
  }</span></th>
<td data-label="Created"><time datetime="${account.createdAt}">${formatUtc(account.createdAt)}</time></td>
<td data-label="Plan"><form method="post" action="/dashboard/operator/plan" class="plan-form">
${csrfField(visitor)}
<input type="hidden" name="account_id" value="${account.id}">
<label class="visually-hidden" for="${selectId}">Plan for ${account.email}</label>
<select id="${selectId}" name="plan">${Object.values(PLANS).map(
    (plan) => html`\
<option value="${plan.name}"${plan === account.plan && html` selected`}>${plan.label}</option>`,
  )}</select>
<button type="submit" class="button button-small">Save<span class="visually-hidden"> plan for ${account.email}</span>\
</button>
</form></td>
</tr>`;
}
