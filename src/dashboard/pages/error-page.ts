import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { layout } from './layout.ts';

/** Before the visitor is known (an error in the very first hook), the page is drawn for nobody. */
export const NOBODY: Visitor = { account: null, sessionId: null, csrfToken: '', csrfBinding: '' };

export function errorPage(visitor: Visitor | null, status: number, title: string, message: string): Html {
  return layout({
    title,
    visitor: visitor ?? NOBODY,
    path: '',
    main: html`<section class="auth-card" aria-labelledby="error-title">
<p class="eyebrow">Error ${status}</p>
<h1 id="error-title">${title}</h1>
<p>${message}</p>
<p class="button-row"><a class="button" href="/dashboard">Go to the dashboard</a> \
<a class="button button-quiet" href="/">Home</a></p>
</section>`,
  });
}
