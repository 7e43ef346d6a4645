/**
 * How the payment method's line says who set it: by name, or "by the system" when the seed or a
 * job of the service set it (`createdBy` is `system`); when the name is not known any more (the
 * user is gone), the line leaves the "set by" out rather than show a dash that reads as missing
 * data (issue 15, point 12).
 */
export function setByText(entry: { createdBy: string; createdByName: string | null }): {
  key: 'policy.since' | 'policy.since_system' | 'policy.since_date';
  name?: string;
} {
  if (entry.createdByName) return { key: 'policy.since', name: entry.createdByName };
  if (entry.createdBy === 'system') return { key: 'policy.since_system' };
  return { key: 'policy.since_date' };
}
