/**
 * How {@link McpHostOptions} become the host's parts: the catalogue's naming (mode, separator,
 * per-server prefixes) and the settings every client of the host shares. Each runs once, when the
 * host is made.
 * @module
 */
import { Catalogue } from './catalogue/catalogue.js';
import type { ClientFactoryOptions } from './clientFactory.js';
import type { McpHostOptions } from './hostOptions.js';
import { ConsentMemory } from './policy/consent.js';

/** The host's catalogue, named as `options.naming` and the servers' `prefix` policies say. */
export function catalogueFor(options: McpHostOptions): Catalogue {
  const prefixes: Record<string, string> = {};
  for (const [server, policy] of Object.entries(options.policy ?? {}))
    if (policy.prefix) prefixes[server] = policy.prefix;
  return new Catalogue(
    {
      mode: options.naming?.mode ?? 'onCollision',
      separator: options.naming?.separator ?? '__',
      prefixes,
    },
    options.onNameCollision,
  );
}

/** What every client of the host shares, with the defaults filled in. */
export function clientFactoryOptions(options: McpHostOptions): ClientFactoryOptions {
  return {
    info: options.info ?? { name: 'mcpkit-host', version: '0.1.0' },
    hooks: options.hooks ?? {},
    ...(options.model ? { model: options.model } : {}),
    models: options.models ?? [],
    ...(options.chooseModel ? { chooseModel: options.chooseModel } : {}),
    samplingTools: options.samplingTools ?? false,
    consent: new ConsentMemory(options.consentStore),
    audit: { emit: options.audit, showArguments: options.auditArguments ?? false },
    protocolEra: options.protocolEra,
    apps: options.apps ?? false,
    maxTotalTimeout: options.maxTotalTimeout,
  };
}
