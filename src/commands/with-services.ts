import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { createServices } from '../wiring.ts';

/** Opens the services for one command and always closes them. */
export async function withServices<T>(config: Config, work: (services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(config);
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}
