/**
 * A random Idempotency-Key for a payment or an invoice (upstream contract: the same key twice
 * creates one): 128 random bits as 32 hex digits. From `crypto.getRandomValues`, which browsers
 * offer outside secure contexts too (`randomUUID` needs HTTPS or localhost).
 */
export function idempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
