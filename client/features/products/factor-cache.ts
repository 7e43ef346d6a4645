/**
 * The factor tables of a product version, cached per version and account (spec section 9: "cached
 * per product version and refreshed when the newest updatedAt differs"). Each read first asks the
 * service for the newest change (one item); the tables are fetched again only when it differs from
 * the one they were fetched at. A failed check counts as the key 'invalid' (spec section 8), which
 * is never fresh, so a failure cannot keep stale tables on screen.
 */

export const INVALID_CACHE_KEY = 'invalid';
/** The key of a version without factor tables. */
export const EMPTY_CACHE_KEY = 'none';

export const factorCacheKey = (newestUpdatedAt: string | null): string =>
  newestUpdatedAt ?? EMPTY_CACHE_KEY;

/** The cache rule: an entry serves only while the newest change is the one it was loaded at. */
export function isFactorCacheFresh(entry: { key: string } | undefined, key: string): boolean {
  return entry !== undefined && key !== INVALID_CACHE_KEY && entry.key === key;
}

export class FactorCache<T> {
  private readonly entries = new Map<string, { key: string; value: T }>();

  constructor(
    /** The newest updatedAt of the version's factors, null without any. */
    private readonly newest: (
      scope: number,
      versionId: number,
      signal?: AbortSignal,
    ) => Promise<string | null>,
    private readonly load: (scope: number, versionId: number, signal?: AbortSignal) => Promise<T>,
  ) {}

  async get(scope: number, versionId: number, signal?: AbortSignal): Promise<T> {
    let key: string;
    try {
      key = factorCacheKey(await this.newest(scope, versionId, signal));
    } catch (error) {
      if (signal?.aborted) throw error;
      key = INVALID_CACHE_KEY;
    }
    const id = `${scope}:${versionId}`;
    const entry = this.entries.get(id);
    if (entry && isFactorCacheFresh(entry, key)) return entry.value;
    const value = await this.load(scope, versionId, signal);
    this.entries.set(id, { key, value });
    return value;
  }

  /**
   * Drops a version's entry after an own change: deleting an older table leaves the newest
   * updatedAt as it was, so the check alone would not see it.
   */
  forget(scope: number, versionId: number): void {
    this.entries.delete(`${scope}:${versionId}`);
  }
}
