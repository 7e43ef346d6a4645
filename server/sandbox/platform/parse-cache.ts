/**
 * The parsed form of texts that never change once saved (a deployed BPMN version, a decision
 * table's version), kept for the `size` texts used last: an instance of a version then costs no
 * XML parse of its own, where the engine would otherwise parse the same diagram for every
 * instance it starts or resumes. Keyed by the text itself, so a new version is a new entry and a
 * stale parse cannot be served; a failed parse is not kept. Each process keeps its own: the
 * cache holds nothing another instance of the sandbox would need.
 */
export function parseCache<T>(
  parse: (text: string) => Promise<T>,
  size = 64,
): (text: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (text) => {
    const hit = cache.get(text);
    if (hit) {
      // Used again: last to go.
      cache.delete(text);
      cache.set(text, hit);
      return hit;
    }
    const parsed = parse(text);
    cache.set(text, parsed);
    parsed.catch(() => cache.delete(text));
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return parsed;
  };
}
