import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The build id versions the locale files (`/locales/{lng}/{ns}.json?v={buildId}`): a hash of
 * their content, computed the same way by the client build and the server, so a new release never
 * reads stale translations from a cache while unchanged ones stay cacheable. */
export function localesBuildId(dir = 'locales'): string {
  const hash = createHash('sha256');
  for (const lng of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, lng)).sort()) {
      hash.update(`${lng}/${file}`).update(readFileSync(join(dir, lng, file)));
    }
  }
  return hash.digest('hex').slice(0, 12);
}
