import type { FastifyInstance } from 'fastify';
import { etagMatches } from '../../media/pictures.ts';
import { RenditionsBusyError, RenditionTimeoutError } from '../../media/renditions.ts';
import type { Dashboard } from '../context.ts';
import { requireAccount } from '../sessions/visitor.ts';
import { spendQuota } from './metering.ts';
import { PageError } from './page-errors.ts';

/**
 * A sound card's spectrogram, the API's small one: the same stored picture, counted as the API
 * counts GET /api/v1/sounds/{id}/spectrogram.png (one request of the account's daily quota, a 304
 * too). The browser keeps it a day, so a catalog page seen again asks for none. Cards link it
 * with spectrogramPath (pages/sound-card.ts).
 */
export function registerPictureRoutes(scope: FastifyInstance, dashboard: Dashboard): void {
  scope.get<{ Params: { id: string } }>('/catalog/sounds/:id/spectrogram.png', async (request, reply) => {
    const account = requireAccount(request);
    if (!account.plan.apiAccess) {
      throw new PageError(403, 'A paid feature', 'Spectrograms come with the plans that include the catalog.');
    }
    await spendQuota(dashboard, account, reply);
    const sound = await dashboard.catalog.findById(request.params.id);
    if (!sound) throw new PageError(404, 'Sound not found', 'No sound has this id: it may have been removed.');
    const picture = await dashboard.pictures.get(sound, 'spectrogram', 'small').catch((error: unknown) => {
      if (error instanceof RenditionsBusyError || error instanceof RenditionTimeoutError) {
        throw new PageError(503, 'Busy', 'Pictures are being made; try again in a few seconds.', { 'retry-after': 5 });
      }
      throw error;
    });
    reply.headers({ etag: picture.etag, 'cache-control': 'private, max-age=86400' });
    if (etagMatches(request.headers['if-none-match'], picture.etag)) return reply.code(304).send();
    return reply.type('image/png').send(picture.png);
  });
}
