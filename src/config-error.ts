/**
 * A setting or a stored secret the service cannot start with: the command line prints its message
 * as the one-line reason. At the bottom of the import graph, so the database and the secrets can
 * refuse a start without importing the config parser.
 */
export class ConfigError extends Error {}
