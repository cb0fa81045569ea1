import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { heroArt } from './hero-art.ts';
import { layout } from './layout.ts';
import { planCards } from './plan-cards.ts';
import { soundGrid, type SoundView } from './sound-card.ts';

export interface HomePage {
  visitor: Visitor;
  samples: SoundView[];
  q: string;
  tags: string;
}

/** The front door: what the service is, the public samples to listen to, and the plans. */
export function homePage(page: HomePage): Html {
  const signedIn = page.visitor.account !== null;
  const filtered = page.q !== '' || page.tags !== '';
  return layout({
    title: 'CC0 sound effects and music',
    visitor: page.visitor,
    path: '/',
    main: html`<section class="hero">
<div class="hero-text">
<p class="eyebrow">Sound effects and music · CC0 1.0</p>
<h1>A catalog of sounds you can use anywhere.</h1>
<p class="lead">Search thousands of measured, ready-to-ship sounds through a simple REST API, or your AI \
agent through MCP. No attribution, no strings.</p>
<p class="hero-actions">${
      signedIn
        ? html`<a class="button" href="/dashboard">Go to your dashboard</a> \
<a class="button button-quiet" href="/dashboard/catalog">Search the catalog</a>`
        : html`<a class="button" href="/dashboard/sign-up">Create a free account</a> \
<a class="button button-quiet" href="/docs">Read the API docs</a>`
    }</p>
</div>
${heroArt()}
</section>
<section class="section" aria-labelledby="samples-title">
<div class="section-head">
<h2 id="samples-title">Free samples</h2>
<p>Anyone can listen to these. Paid plans search the full catalog.</p>
</div>
<form class="filter-bar" method="get" action="/" role="search" aria-label="Filter samples">
<div class="field"><label for="sample-q">Keywords</label>\
<input id="sample-q" name="q" type="search" value="${page.q}" maxlength="200" placeholder="e.g. glass"></div>
<div class="field"><label for="sample-tags">Tags <span class="hint">(any of, comma-separated)</span></label>\
<input id="sample-tags" name="tags" type="text" value="${page.tags}" maxlength="500" placeholder="impact, whoosh"></div>
<div class="field field-actions"><button type="submit" class="button">Filter</button>${
      filtered &&
      html` \
<a class="button button-quiet" href="/">Clear</a>`
    }</div>
</form>
${soundGrid(page.samples, null, filtered ? 'No sample matches these filters.' : 'No samples have been published yet.')}
</section>
<section class="section" aria-labelledby="plans-title">
<div class="section-head"><h2 id="plans-title">Plans</h2>\
<p>Pick the one that fits; the operator of this service switches plans.</p></div>
${planCards(page.visitor.account?.plan ?? null)}
</section>`,
  });
}
