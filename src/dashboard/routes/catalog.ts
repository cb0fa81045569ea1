import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_SEARCH_PAGE, SEARCH_BOUNDS } from '../../catalog/limits.ts';
import { DomainError } from '../../errors.ts';
import { packIds } from '../../packs/schemas.ts';
import { PACK_MAX_SOUNDS, PackQuotaError } from '../../packs/service.ts';
import {
  categoryList,
  contradictoryBounds,
  lufs,
  mediaQuery,
  milliseconds,
  renditionChoiceOf,
  renditionQuery,
  searchFiltersOf,
  seconds,
  sortField,
  sortOrder,
  strictInt,
} from '../../shapes/params.ts';
import type { Dashboard } from '../context.ts';
import { catalogLockedPage, catalogPage, similarPage, type CatalogForm } from '../pages/catalog.ts';
import { formatCount } from '../pages/format.ts';
import { requireAccount } from '../sessions/visitor.ts';
import { soundViews } from '../sound-views.ts';
import { spendQuota } from './metering.ts';
import { PageError } from './page-errors.ts';
import { sendPage } from './send-page.ts';

const PAGE_SIZE = 20;
/** The name of a sound's "Add to pack" box, before its id (pages/sound-card.ts). */
const PICK = 'pick:';
/** Sounds on a "More like this" page. */
const SIMILAR_COUNT = 12;

/** The search endpoint's own parameter rules (shapes/params.ts), so the two never disagree. */
const searchQuery = z.object({
  q: z.string().max(200).optional(),
  category: categoryList,
  tags: z.string().max(500).optional(),
  min_duration: seconds,
  max_duration: seconds,
  max_onset_ms: milliseconds,
  min_lufs: lufs,
  max_lufs: lufs,
  sort: sortField,
  order: sortOrder,
  page: strictInt(1, MAX_SEARCH_PAGE, 1),
});

/** What to tell the reader when bounds contradict each other (shapes/params.ts names the field). */
const BOUNDS_HELP: Record<string, string> = {
  max_duration: 'Max seconds must not be smaller than min seconds.',
  max_lufs: 'Max LUFS must not be smaller than min LUFS.',
};

/** What to tell the reader when a field is refused; zod's own wording is written for programmers. */
const FIELD_HELP: Record<string, string> = {
  q: 'Keywords: use at most 200 characters.',
  tags: 'Tags: use at most 500 characters.',
  min_duration: `Min seconds: enter a number from 0 to ${formatCount(SEARCH_BOUNDS.maxSeconds)}.`,
  max_duration: `Max seconds: enter a number from 0 to ${formatCount(SEARCH_BOUNDS.maxSeconds)}.`,
  max_onset_ms: `Starts within (ms): enter a number from 0 to ${formatCount(SEARCH_BOUNDS.maxOnsetMs)}.`,
  min_lufs: `Min LUFS: enter a number from ${SEARCH_BOUNDS.lufs.min} to ${SEARCH_BOUNDS.lufs.max}.`,
  max_lufs: `Max LUFS: enter a number from ${SEARCH_BOUNDS.lufs.min} to ${SEARCH_BOUNDS.lufs.max}.`,
  sort: 'Sort by: choose downloads, relevance, newest, duration or name.',
  order: 'Order: choose ascending or descending.',
  page: `Page: a whole number from 1 to ${formatCount(MAX_SEARCH_PAGE)}.`,
};

/** The pack form's fields as its page labels them, to name the one refused. */
const PACK_FIELD_LABELS: Record<string, string> = {
  format: 'Format',
  sample_rate: 'Sample rate',
  channels: 'Channels',
  bit_depth: 'Bit depth',
  loudness: 'Loudness',
  trim: 'Trim',
};

type RawQuery = Record<string, string | string[] | undefined>;

/**
 * A browser sends every field, empty ones too (`min_duration=`), and one `category` per ticked
 * box. Empty means "no filter"; several categories are the API's comma-separated list.
 */
function normalize(query: RawQuery): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    const text = (Array.isArray(value) ? value.join(',') : (value ?? '')).trim();
    if (text !== '') fields[name] = text;
  }
  return fields;
}

export function registerCatalogRoutes(scope: FastifyInstance, dashboard: Dashboard): void {
  const services = dashboard;
  scope.get<{ Querystring: RawQuery }>('/catalog', async (request, reply) => {
    const account = requireAccount(request);
    if (!account.plan.apiAccess) return sendPage(reply.code(403), catalogLockedPage(request.visitor));
    // One search, one request: as the API counts it, refused filters included.
    await spendQuota(dashboard, account, reply);
    const fields = normalize(request.query);
    const parsed = searchQuery.safeParse(fields);
    const form: CatalogForm = {
      q: fields.q ?? '',
      tags: fields.tags ?? '',
      min_duration: fields.min_duration ?? '',
      max_duration: fields.max_duration ?? '',
      max_onset_ms: fields.max_onset_ms ?? '',
      min_lufs: fields.min_lufs ?? '',
      max_lufs: fields.max_lufs ?? '',
      sort: fields.sort ?? 'downloads',
      order: fields.order ?? 'desc',
      categories: parsed.success ? (parsed.data.category ?? []) : [],
    };
    const pageLink = (page: number) => `/dashboard/catalog?${new URLSearchParams({ ...fields, page: String(page) })}`;
    const errors = parsed.success
      ? []
      : [
          ...new Set(
            parsed.error.issues.map((issue) => {
              const field = String(issue.path[0] ?? '');
              return FIELD_HELP[field] ?? `Category: ${issue.message}.`;
            }),
          ),
        ];
    if (parsed.success) errors.push(...contradictoryBounds(parsed.data).map(({ param }) => BOUNDS_HELP[param]!));
    if (!parsed.success || errors.length > 0) {
      return sendPage(
        reply.code(400),
        catalogPage({ visitor: request.visitor, form, errors, results: null, pageLink }),
      );
    }
    const query = parsed.data;
    const found = await services.catalog.search(searchFiltersOf({ ...query, limit: PAGE_SIZE }));
    const results = {
      views: await soundViews(services, found.items),
      page: query.page,
      total: found.total,
      totalPages: Math.ceil(found.total / PAGE_SIZE),
    };
    return sendPage(reply, catalogPage({ visitor: request.visitor, form, errors, results, pageLink }));
  });

  // The download button, a form POST behind the CSRF check: counts one request of the daily quota
  // and one download, as the API does, then sends the browser to the signed URL of the file or of
  // the rendition chosen (loudness and trim, read like the API's). A new rendition's cost is
  // charged to this account when the URL is first fetched.
  scope.post<{ Params: { id: string }; Body: RawQuery }>('/download/:id', async (request, reply) => {
    const account = requireAccount(request);
    if (!account.plan.apiAccess) return sendPage(reply.code(403), catalogLockedPage(request.visitor));
    await spendQuota(dashboard, account, reply);
    const choice = renditionQuery.safeParse(normalize(request.body ?? {}));
    if (!choice.success)
      throw new PageError(400, 'That download did not work', 'Choose a loudness from the list and try again.');
    if (!(await services.meter.countDownload(request.params.id))) {
      throw new PageError(404, 'Sound not found', 'No sound has this id: it may have been removed.');
    }
    return reply.redirect(
      services.signer.sign(request.params.id, 'download', renditionChoiceOf(choice.data), account.id).url,
      303,
    );
  });

  // The pack button: the sounds ticked on a catalog page as one ZIP in the format chosen, priced
  // and counted as GET /api/v1/packs does (this POST is the first request of it), behind the CSRF check.
  scope.post<{ Body: RawQuery }>('/pack', async (request, reply) => {
    const account = requireAccount(request);
    if (!account.plan.apiAccess) return sendPage(reply.code(403), catalogLockedPage(request.visitor));
    await spendQuota(dashboard, account, reply);
    const fields = normalize(request.body ?? {});
    // One box per sound, `pick:<id>`: the form parser keeps one value per name, so the ids are in the names.
    const picked = Object.keys(fields)
      .filter((name) => name.startsWith(PICK))
      .map((name) => name.slice(PICK.length));
    const ids = packIds.safeParse(picked.join(','));
    if (!ids.success)
      throw new PageError(
        400,
        'Pick the sounds first',
        `Tick "Add to pack" on 1 to ${PACK_MAX_SOUNDS} sounds, then download the pack.`,
      );
    // The download endpoint's parameters and rules (mediaQuery): a combination no encoder makes is
    // refused here, not when the ZIP is half sent.
    const choice = mediaQuery.safeParse({
      loudness: fields.loudness,
      trim: fields.trim,
      format: fields.format,
      sample_rate: fields.sample_rate,
      channels: fields.channels,
      bit_depth: fields.bit_depth,
    });
    if (!choice.success) {
      const problems = choice.error.issues.map(
        (issue) => `${PACK_FIELD_LABELS[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`,
      );
      throw new PageError(
        400,
        'That pack cannot be made',
        `${[...new Set(problems)].join('; ')}. Choose another format or rate and try again.`,
      );
    }
    try {
      const pack = await services.packs.prepare(
        { accountId: account.id, keyId: null, dailyQuota: account.plan.dailyQuota },
        ids.data,
        renditionChoiceOf(choice.data),
      );
      return reply.redirect(pack.downloadUrl, 303);
    } catch (error) {
      if (error instanceof PackQuotaError)
        throw new PageError(
          429,
          "Today's quota cannot cover this pack",
          `${error.message}. Pick fewer sounds, or wait for midnight UTC.`,
        );
      if (error instanceof DomainError && error.kind === 'not_found')
        throw new PageError(404, 'Sound not found', `${error.message}: they may have been removed.`);
      throw error;
    }
  });

  // Downloads were once links: a GET changes nothing now, it only says where the button is.
  scope.get('/download/:id', async () => {
    throw new PageError(
      405,
      'Download with the button',
      'A download is counted against your quota, so it starts from the Download button on a sound in the catalog.',
      { allow: 'POST' },
    );
  });

  scope.get<{ Params: { id: string } }>('/catalog/similar/:id', async (request, reply) => {
    const account = requireAccount(request);
    if (!account.plan.apiAccess) return sendPage(reply.code(403), catalogLockedPage(request.visitor));
    // As GET /api/v1/sounds/{id}/similar: one request.
    await spendQuota(dashboard, account, reply);
    const [sound, neighbours] = await Promise.all([
      services.catalog.findById(request.params.id),
      services.catalog.similar(request.params.id, SIMILAR_COUNT),
    ]);
    if (!sound || !neighbours)
      throw new PageError(404, 'Sound not found', 'No sound has this id: it may have been removed.');
    const [view] = await soundViews(services, [sound]);
    const views = await soundViews(
      services,
      neighbours.map((neighbour) => neighbour.sound),
    );
    for (const [i, neighbour] of neighbours.entries()) views[i]!.similarity = neighbour.similarity;
    return sendPage(reply, similarPage(request.visitor, view!, views));
  });
}
