import { SEARCH_BOUNDS } from '../../catalog/limits.ts';
import { RENDITION_PRICE, RENDITION_PRICE_SECONDS } from '../../media/rendition-work.ts';
import { CATEGORIES, SEARCH_SORTS, type Category, type SearchSort } from '../../catalog/sound.ts';
import { html, type Html } from '../html.ts';
import type { Visitor } from '../sessions/visitor.ts';
import { formatCount } from './format.ts';
import { csrfField, layout, notice } from './layout.ts';
import { soundCard, soundGrid, type SoundView } from './sound-card.ts';
import { upgradeCallout } from './upgrade.ts';

/** The search form's values as the reader typed them, so the form comes back filled in. */
export interface CatalogForm {
  q: string;
  categories: Category[];
  tags: string;
  min_duration: string;
  max_duration: string;
  max_onset_ms: string;
  min_lufs: string;
  max_lufs: string;
  sort: string;
  order: string;
}

export interface CatalogResults {
  views: SoundView[];
  page: number;
  totalPages: number;
  total: number;
}

export interface CatalogPage {
  visitor: Visitor;
  form: CatalogForm;
  errors: string[];
  results: CatalogResults | null;
  /** Builds the link to another page of the same search. */
  pageLink: (page: number) => string;
}

const CATEGORY_LABELS: Record<Category, string> = {
  SFX: 'Sound effects',
  MUSIC: 'Music',
  LOFI: 'Lo-fi',
  AMBIENT: 'Ambient',
};
const SORT_LABELS: Record<SearchSort, string> = {
  downloads: 'Downloads',
  relevance: 'Relevance',
  created_at: 'Newest',
  duration: 'Duration',
  name: 'Name',
};

export function catalogPage(page: CatalogPage): Html {
  const { form, results } = page;
  return layout({
    title: 'Catalog',
    visitor: page.visitor,
    path: '/dashboard/catalog',
    main: html`<div class="page-head"><h1>Catalog</h1><p>The whole catalog, with the filters of \
<code>GET /api/v1/sounds</code>.</p></div>
<form class="search-form card" method="get" action="/dashboard/catalog" role="search" aria-label="Search the catalog">
<div class="search-row">
<div class="field field-grow"><label for="q">Keywords</label>\
<input id="q" name="q" type="search" value="${form.q}" maxlength="200" placeholder="glass break, rain, synth…"></div>
<div class="field"><label for="tags">Tags <span class="hint">(all of)</span></label>\
<input id="tags" name="tags" type="text" value="${form.tags}" maxlength="500" placeholder="impact, short"></div>
</div>
<div class="search-row">
<fieldset class="field chips"><legend>Category</legend>
${CATEGORIES.map(
  (category) => html`<label class="chip">\
<input type="checkbox" name="category" value="${category}"\
${form.categories.includes(category) && html` checked`}> ${CATEGORY_LABELS[category]}</label>`,
)}
</fieldset>
<div class="field field-small"><label for="min_duration">Min seconds</label>\
<input id="min_duration" name="min_duration" type="number" min="0" step="any" inputmode="decimal" \
value="${form.min_duration}"></div>
<div class="field field-small"><label for="max_duration">Max seconds</label>\
<input id="max_duration" name="max_duration" type="number" min="0" step="any" inputmode="decimal" \
value="${form.max_duration}"></div>
<div class="field field-small"><label for="max_onset_ms">Starts within (ms)</label>\
<input id="max_onset_ms" name="max_onset_ms" type="number" min="0" step="any" inputmode="decimal" \
value="${form.max_onset_ms}"></div>
<div class="field field-small"><label for="min_lufs">Min LUFS</label>\
<input id="min_lufs" name="min_lufs" type="number" min="${SEARCH_BOUNDS.lufs.min}" \
max="${SEARCH_BOUNDS.lufs.max}" step="any" inputmode="decimal" value="${form.min_lufs}"></div>
<div class="field field-small"><label for="max_lufs">Max LUFS</label>\
<input id="max_lufs" name="max_lufs" type="number" min="${SEARCH_BOUNDS.lufs.min}" \
max="${SEARCH_BOUNDS.lufs.max}" step="any" inputmode="decimal" value="${form.max_lufs}"></div>
</div>
<div class="search-row">
<div class="field field-small"><label for="sort">Sort by</label>\
<select id="sort" name="sort">${SEARCH_SORTS.map(
      (field) => html`\
<option value="${field}"${form.sort === field && html` selected`}>${SORT_LABELS[field]}</option>`,
    )}</select></div>
<div class="field field-small"><label for="order">Order</label><select id="order" name="order">\
<option value="desc"${form.order !== 'asc' && html` selected`}>Descending</option>\
<option value="asc"${form.order === 'asc' && html` selected`}>Ascending</option></select></div>
<div class="field field-actions"><button type="submit" class="button">Search</button></div>
</div>
</form>
${
  page.errors.length > 0 &&
  notice(
    'error',
    html`<p>Check the filters:</p><ul>${page.errors.map(
      (error) => html`\
<li>${error}</li>`,
    )}</ul>`,
  )
}
${results && resultsSection(page.visitor, results, page.pageLink)}`,
  });
}

function resultsSection(visitor: Visitor, results: CatalogResults, pageLink: (page: number) => string): Html {
  return html`<section class="section" aria-labelledby="results-title">
<div class="section-head">\
<h2 id="results-title">${formatCount(results.total)} ${results.total === 1 ? 'sound' : 'sounds'}</h2>
${results.totalPages > 1 && html`<p>Page ${results.page} of ${formatCount(results.totalPages)}</p>`}</div>
${soundGrid(results.views, visitor, 'No sound matches these filters. Try fewer words or a wider duration.', true)}
${results.views.length > 0 && packForm(visitor)}
${
  results.totalPages > 1 &&
  html`<nav class="pager" aria-label="Pages">
${
  results.page > 1
    ? html`<a class="button button-quiet" rel="prev" href="${pageLink(results.page - 1)}">← Previous\
</a>`
    : html`<span></span>`
}
<span class="pager-position">Page ${results.page} of ${formatCount(results.totalPages)}</span>
${
  results.page < results.totalPages
    ? html`\
<a class="button button-quiet" rel="next" href="${pageLink(results.page + 1)}">Next →</a>`
    : html`<span></span>`
}
</nav>`
}
</section>`;
}

/**
 * One download for the sounds ticked on this page ("Add to pack" on each card, tied to this form
 * by its id): a ZIP with a manifest, as GET /api/v1/packs makes it.
 */
function packForm(visitor: Visitor): Html {
  const select = (
    name: string,
    label: string,
    options: Array<[string, string]>,
  ) => html`<div class="field field-small"><label for="pack-${name}">${label}</label>
<select id="pack-${name}" name="${name}">${options.map(
    ([value, text]) => html`<option value="${value}">${text}\
</option>`,
  )}</select></div>`;
  return html`\
<form id="pack-form" class="pack-form card" method="post" action="/dashboard/pack" aria-label="Download the \
ticked sounds as one pack">
${csrfField(visitor)}
<p>Tick "Add to pack" on the sounds you want, then download them as one ZIP with a manifest and the CC0 \
licence (one request of your quota per sound, and, when it downloads, ${RENDITION_PRICE} more per started \
${RENDITION_PRICE_SECONDS / 60} minutes of each file it makes in another format, more for high rates and 24 bits).</p>
<div class="search-row">
${select('format', 'Format', PACK_FORMATS)}
${select('sample_rate', 'Sample rate', PACK_RATES)}
${select('channels', 'Channels', PACK_CHANNELS)}
<div class="field field-actions"><button type="submit" class="button">Download pack</button></div>
</div>
</form>`;
}

/**
 * The pack form's choices: the formats game engines and web apps import, and the common rates (any
 * format takes 48 kHz).
 */
const PACK_FORMATS: Array<[string, string]> = [
  ['mp3', 'MP3 (as stored)'],
  ['wav', 'WAV (16-bit PCM)'],
  ['flac', 'FLAC'],
  ['ogg', 'Ogg Vorbis'],
  ['opus', 'Opus'],
];
const PACK_RATES: Array<[string, string]> = [
  ['', "Each sound's own"],
  ['22050', '22.05 kHz'],
  ['44100', '44.1 kHz'],
  ['48000', '48 kHz'],
];
const PACK_CHANNELS: Array<[string, string]> = [
  ['', "Each sound's own"],
  ['1', 'Mono'],
  ['2', 'Stereo'],
];

/** "More like this": the sound, then the sounds nearest to it by their audio. */
export function similarPage(visitor: Visitor, sound: SoundView, similar: SoundView[]): Html {
  return layout({
    title: `Sounds like ${sound.sound.name}`,
    visitor,
    path: '/dashboard/catalog',
    main: html`<div class="page-head"><h1>Sounds like ${sound.sound.name}</h1>\
<p>The sounds nearest to this one by their audio (timbre, spectral shape, envelope and loudness), most \
similar first, as <code>GET /api/v1/sounds/{id}/similar</code> gives them. <a href="/dashboard/catalog">Back \
to the catalog</a></p></div>
<div class="sound-grid">${soundCard(sound, visitor)}</div>
<section class="section" aria-labelledby="similar-title">
<div class="section-head">\
<h2 id="similar-title">${formatCount(similar.length)} similar ${similar.length === 1 ? 'sound' : 'sounds'}</h2></div>
${soundGrid(
  similar,
  visitor,
  "No similar sounds are known yet: this sound's audio has not been described \
(sound-catalog analyze --missing).",
)}
</section>`,
  });
}

export function catalogLockedPage(visitor: Visitor): Html {
  return layout({
    title: 'Catalog',
    visitor,
    path: '/dashboard/catalog',
    main: html`<div class="page-head"><h1>Catalog</h1><p>Searching the full catalog is part of the paid plans. The \
<a href="/">free samples</a> are open to everyone.</p></div>
${upgradeCallout(visitor.account!.plan)}`,
  });
}
