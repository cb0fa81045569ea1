import type { DashboardServices } from '../services.ts';
import type { SignInThrottle } from './sessions/sign-in-throttle.ts';

/** What every dashboard route needs besides the request: its services, the sign-in throttle, the cookie rule. */
export interface Dashboard extends DashboardServices {
  signInThrottle: SignInThrottle;
  /** Cookies get `Secure` when the public address is https. */
  secureCookies: boolean;
}

export function createDashboard(services: DashboardServices, signInThrottle: SignInThrottle): Dashboard {
  return { ...services, signInThrottle, secureCookies: services.baseUrl().startsWith('https:') };
}
