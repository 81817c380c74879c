import type { TRouterSettings } from '@radflow/core';
import type { SettingsSource } from './ports.js';

/** Names that hold a credential: never shown, whatever the configuration grows to hold. */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|KEY|CREDENTIAL/i;
export const REDACTED = '(set, not shown)';

/**
 * GET /setting/get from the router's validated configuration (config.ts): every setting by name,
 * a credential's value replaced by REDACTED, anything structured as its JSON text.
 */
export function settingsOf(config: Readonly<Record<string, unknown>>): SettingsSource {
  return {
    settings(): TRouterSettings {
      const out: TRouterSettings = {};
      for (const [name, value] of Object.entries(config)) {
        if (SECRET_NAME.test(name)) out[name] = value === undefined || value === '' ? null : REDACTED;
        else if (value === undefined || value === null) out[name] = null;
        else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          out[name] = value;
        } else out[name] = JSON.stringify(value);
      }
      return out;
    },
  };
}
