import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';

export interface PageShell {
  title: string;
  visitor: Visitor;
  /** The path of the page, so the navigation can mark where the reader is. */
  path: string;
  main: Html;
}

interface NavLink {
  href: string;
  label: string;
  show: (visitor: Visitor) => boolean;
}

const NAV: NavLink[] = [
  { href: '/', label: 'Samples', show: () => true },
  { href: '/dashboard/catalog', label: 'Catalog', show: () => true },
  { href: '/dashboard', label: 'Overview', show: (v) => v.account !== null },
  { href: '/dashboard/keys', label: 'API keys', show: (v) => v.account !== null },
  { href: '/dashboard/upgrade', label: 'Plans', show: () => true },
  { href: '/dashboard/operator', label: 'Operator', show: (v) => v.account?.isOperator === true },
  { href: '/docs', label: 'API docs', show: () => true },
];

const LOGO = html`<svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">\
<rect width="32" height="32" rx="8"/><path d="M7 16h2M11 11v10M15 7v18M19 12v8M23 9v14M27 15v2"/></svg>`;

export function layout(page: PageShell): Html {
  const { visitor } = page;
  const links = NAV.filter((link) => link.show(visitor)).map(
    (link) =>
      html`<li><a href="${link.href}"${link.href === page.path ? html` aria-current="page"` : ''}>${link.label}</a>\
</li>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Sound Catalog</title>
<link rel="icon" href="/dashboard/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<link rel="stylesheet" href="/dashboard/assets/phone.css" media="(max-width: 640px)">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<div class="site-header-inner">
<a class="brand" href="/">${LOGO}<span>Sound Catalog</span></a>
<nav class="site-nav" aria-label="Main"><ul>${links}</ul></nav>
<div class="site-account">${accountArea(visitor)}</div>
</div>
</header>
<main id="main" tabindex="-1">
${page.main}
</main>
<footer class="site-footer"><p>Every sound is CC0 1.0: use it anywhere, no attribution needed. \
<a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a></p></footer>
</body>
</html>
`;
}

function accountArea(visitor: Visitor): Html {
  if (!visitor.account) {
    return html`<a class="nav-plain" href="/dashboard/sign-in">Sign in</a> \
<a class="button button-small" href="/dashboard/sign-up">Sign up</a>`;
  }
  return html`<span class="who"><span class="who-email">${visitor.account.email}</span> \
<span class="plan-badge plan-${visitor.account.plan.name}">${visitor.account.plan.label}</span></span>
<form method="post" action="/dashboard/sign-out" class="inline-form">${csrfField(visitor)}\
<button type="submit" class="button button-small button-quiet">Sign out</button></form>`;
}

export function csrfField(visitor: Visitor): Html {
  return html`<input type="hidden" name="_csrf" value="${visitor.csrfToken}">`;
}

/** A notice above a form: role=alert for errors so screen readers announce them at once. */
export function notice(kind: 'error' | 'success' | 'info', message: Html | string | null | undefined): Html {
  if (!message) return html``;
  return html`\
<div class="notice notice-${kind}"${kind === 'error' ? html` role="alert"` : html` role="status"`}>${message}</div>`;
}
