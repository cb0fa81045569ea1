import type { FastifyError, FastifyInstance } from 'fastify';
import type { DashboardServices } from '../services.ts';
import { createDashboard, type Dashboard } from './context.ts';
import { errorPage } from './pages/error-page.ts';
import { registerAssetRoutes } from './routes/assets.ts';
import { registerAuthRoutes } from './routes/auth.ts';
import { registerCatalogRoutes } from './routes/catalog.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerOperatorRoutes } from './routes/operator.ts';
import { registerPictureRoutes } from './routes/pictures.ts';
import { PageError, Redirect } from './routes/page-errors.ts';
import { registerHomeRoute, registerOverviewRoutes } from './routes/pages.ts';
import { sendPage } from './routes/send-page.ts';
import { applySecurityHeaders } from './security/headers.ts';
import { addCookieSupport } from './security/cookies.ts';
import { addCsrfProtection, isCsrfRefusal } from './security/csrf.ts';
import { addFormBodyParser } from './security/form-body.ts';
import { HashingBusy } from './security/hashing-gate.ts';
import { addSignInThrottle } from './sessions/sign-in-throttle.ts';
import { addVisitorHooks } from './sessions/visitor.ts';

/**
 * Mounts the web dashboard at / and /dashboard. Everything lives in its own encapsulated plugin:
 * the form parser, the session hooks and the HTML error pages never touch the API's routes.
 */
export function registerDashboard(app: FastifyInstance, services: DashboardServices): void {
  const secureCookies = services.baseUrl().startsWith('https:');
  app.register(async (root) => {
    applySecurityHeaders(root, services.baseUrl, secureCookies);
    await registerAssetRoutes(root);
    root.register(async (pages) => {
      const dashboard = createDashboard(services, await addSignInThrottle(pages, services.signInFailures));
      addCookieSupport(pages);
      addCsrfProtection(pages, services.csrfSecret, secureCookies);
      addFormBodyParser(pages);
      addVisitorHooks(pages, dashboard);
      setHtmlErrorHandler(pages);
      registerHomeRoute(pages, dashboard);
      pages.register(async (section) => registerSection(section, dashboard), { prefix: '/dashboard' });
    });
  });
}

function registerSection(section: FastifyInstance, dashboard: Dashboard): void {
  section.setNotFoundHandler((request, reply) =>
    sendPage(
      reply.code(404),
      errorPage(request.visitor, 404, 'Page not found', 'There is no dashboard page at this address.'),
    ),
  );
  registerOverviewRoutes(section, dashboard);
  registerAuthRoutes(section, dashboard);
  registerKeyRoutes(section, dashboard);
  registerCatalogRoutes(section, dashboard);
  registerPictureRoutes(section, dashboard);
  registerOperatorRoutes(section, dashboard);
}

/** Password checks wait at most a few seconds for a turn; one refused may try again soon after. */
const BUSY_RETRY_SECONDS = 5;

const CLIENT_ERRORS: Record<number, string> = {
  413: 'That form was larger than this site accepts.',
  415: 'That form was sent in a format this site does not read.',
};

function setHtmlErrorHandler(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | PageError | Redirect | HashingBusy, request, reply) => {
    if (error instanceof Redirect) return reply.redirect(error.location, 303);
    if (isCsrfRefusal(error as FastifyError)) {
      return sendPage(
        reply.code(403),
        errorPage(
          request.visitor,
          403,
          'This form has expired',
          'The page was open too long or came from another site. Go back, reload the page and try again.',
        ),
      );
    }
    if (error instanceof HashingBusy) {
      return sendPage(
        reply.code(503).header('retry-after', BUSY_RETRY_SECONDS),
        errorPage(
          request.visitor,
          503,
          'Too busy right now',
          'Too many people are signing in at this moment. Wait a few seconds and try again.',
        ),
      );
    }
    if (error instanceof PageError) {
      return sendPage(
        reply.code(error.statusCode).headers(error.headers),
        errorPage(request.visitor, error.statusCode, error.title, error.message),
      );
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'dashboard request failed');
      return sendPage(
        reply.code(500),
        errorPage(request.visitor, 500, 'Something went wrong', 'The page could not be shown. Try again in a moment.'),
      );
    }
    const message = CLIENT_ERRORS[status] ?? 'The request could not be understood. Go back and try again.';
    return sendPage(reply.code(status), errorPage(request.visitor, status, 'That did not work', message));
  });
}
