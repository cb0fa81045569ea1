import type { DashboardServices } from '../services.ts';

/** What every dashboard route needs besides the request: its services and the cookie rule. */
export interface Dashboard extends DashboardServices {
  /** Cookies get `Secure` when the public address is https. */
  secureCookies: boolean;
}

export function createDashboard(services: DashboardServices): Dashboard {
  return { ...services, secureCookies: services.baseUrl().startsWith('https:') };
}
