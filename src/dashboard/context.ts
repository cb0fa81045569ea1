import type { Services } from '../services.ts';
import { SessionStore } from './sessions/session-store.ts';
import { SignInThrottle } from './sessions/sign-in-throttle.ts';

/** What every dashboard route needs besides the request: the services and the dashboard's own stores. */
export interface Dashboard {
  services: Services;
  sessions: SessionStore;
  throttle: SignInThrottle;
  /** Cookies get `Secure` when the public address is https. */
  secureCookies: boolean;
}

export function createDashboard(services: Services): Dashboard {
  const { db } = services.database;
  return {
    services,
    sessions: new SessionStore(db, services.clock),
    throttle: new SignInThrottle(db, services.clock),
    secureCookies: (services.config.publicUrl ?? '').startsWith('https:'),
  };
}
