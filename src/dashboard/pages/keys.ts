import type { Account, ApiKeyRecord } from '../../accounts/store.ts';
import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { formatCount, formatUtc } from './format.ts';
import { csrfField, layout, notice } from './layout.ts';
import { paidPlans } from './plan-cards.ts';
import { upgradeCallout } from './upgrade.ts';

export interface KeyRow extends ApiKeyRecord {
  requestsToday: number;
  requests30Days: number;
}

export interface KeysPage {
  visitor: Visitor;
  account: Account;
  keys: KeyRow[];
  /** The full key, present only in the answer to the form that created it. */
  created?: { key: string; name: string };
  error?: string;
  success?: string;
  name?: string;
}

export const KEY_NAME_MAX_LENGTH = 60;

export function keysPage(page: KeysPage): Html {
  return layout({
    title: 'API keys',
    visitor: page.visitor,
    path: '/dashboard/keys',
    main: html`<div class="page-head">
<h1>API keys</h1>
<p>Send a key in the <code>x-api-key</code> header. Keys share your plan's daily quota.</p>
</div>
${notice('success', page.success)}
${notice('error', page.error)}
${page.created && createdKeyPanel(page.created)}
${page.account.plan.apiAccess ? createSection(page) : upgradeCallout(page.account.plan)}
${keyTable(page)}`,
  });
}

function createdKeyPanel(created: { key: string; name: string }): Html {
  return html`<section class="new-key" aria-labelledby="new-key-title">
<h2 id="new-key-title">Your new key “${created.name}”</h2>
<p class="warning" role="alert"><strong>Copy it now: it will not be shown again.\
</strong> Only a hash is stored, so nobody can show it to you later. Lost keys are revoked and replaced.</p>
<div class="copy-row">
<label class="visually-hidden" for="new-key-value">New API key</label>
<input id="new-key-value" class="key-value" type="text" readonly value="${created.key}" spellcheck="false" \
autocomplete="off">
<button type="button" class="button" data-copy-from="new-key-value" hidden>Copy key</button>
</div>
<p class="copy-status" role="status" aria-live="polite" data-copy-status></p>
</section>`;
}

function createSection(page: KeysPage): Html {
  const { plan } = page.account;
  const atLimit = page.keys.length >= plan.maxKeys;
  return html`<section class="card" aria-labelledby="create-title">
<div class="card-head"><h2 id="create-title">Create a key</h2>\
<p class="muted">${page.keys.length} of ${plan.maxKeys} keys in use on the ${plan.label} plan.</p></div>
${
  atLimit
    ? html`\
<p class="notice notice-info">The ${plan.label} plan allows ${plan.maxKeys} API keys and all of them are in use. \
Revoke one to create another${
        paidPlans().some((bigger) => bigger.maxKeys > plan.maxKeys)
          ? html`, or \
<a href="/dashboard/upgrade">move to a bigger plan</a>`
          : ''
      }.</p>`
    : html`<form method="post" action="/dashboard/keys" class="inline-fields">
${csrfField(page.visitor)}
<div class="field"><label for="key-name">Key name</label>
<input id="key-name" name="name" type="text" required maxlength="${KEY_NAME_MAX_LENGTH}" \
value="${page.name ?? ''}" aria-describedby="key-name-hint" placeholder="e.g. Production server">
<p class="field-hint" id="key-name-hint">Say where the key is used, so you know which one to revoke.</p></div>
<div class="field field-actions"><button type="submit" class="button">Create key</button></div>
</form>`
}
</section>`;
}

function keyTable(page: KeysPage): Html {
  if (page.keys.length === 0) {
    return html`<section class="card" aria-labelledby="list-title"><h2 id="list-title">Your keys</h2>\
<p class="empty">No keys yet.</p></section>`;
  }
  return html`<section class="card" aria-labelledby="list-title">
<h2 id="list-title">Your keys</h2>
<table class="responsive-table">
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used\
</th><th scope="col" class="number">Requests today</th><th scope="col" class="number">Last 30 days</th>\
<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${page.keys.map(
    (key) => html`<tr>
<th scope="row" data-label="Name">${key.name}</th>
<td data-label="Prefix"><code>${key.prefix}…</code></td>
<td data-label="Created"><time datetime="${key.createdAt}">${formatUtc(key.createdAt)}</time></td>
<td data-label="Last used">${
      key.lastUsedAt
        ? html`<time datetime="${key.lastUsedAt}">${formatUtc(key.lastUsedAt)}\
</time>`
        : 'Never'
    }</td>
<td data-label="Requests today" class="number">${formatCount(key.requestsToday)}</td>
<td data-label="Last 30 days" class="number">${formatCount(key.requests30Days)}</td>
<td class="actions">\
<a class="button button-small button-danger-quiet" href="/dashboard/keys/${key.prefix}/revoke">Revoke\
<span class="visually-hidden"> ${key.name}</span></a></td>
</tr>`,
  )}</tbody>
</table>
</section>`;
}

export function revokeConfirmPage(visitor: Visitor, key: ApiKeyRecord): Html {
  return layout({
    title: 'Revoke key',
    visitor,
    path: '/dashboard/keys',
    main: html`<section class="auth-card" aria-labelledby="revoke-title">
<h1 id="revoke-title">Revoke “${key.name}”?</h1>
<p>The key <code>${key.prefix}…</code> stops working at once: every program that uses it gets <strong>401 Unauthorized\
</strong> from then on. This cannot be undone.</p>
<form method="post" action="/dashboard/keys/${key.prefix}/revoke" class="button-row">
${csrfField(visitor)}
<button type="submit" class="button button-danger">Revoke key</button>
<a class="button button-quiet" href="/dashboard/keys">Keep it</a>
</form>
</section>`,
  });
}
