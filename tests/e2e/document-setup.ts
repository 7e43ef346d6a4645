import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.ts';

export interface SeededClaimDocument {
  code: string;
  filename: string;
  s3Key: string;
  description: string;
}

/**
 * A document of one of the oldest seeded claims of the workspace, read through the BFF: specs
 * upload only to claims of their own, so this one stays while they run.
 */
export async function seededClaimDocument(api: APIRequestContext): Promise<SeededClaimDocument> {
  const claims = await api.get('/api/0/claimservice/v1/claims?pageSize=10&order=createdAt:ASC');
  expect(claims.ok()).toBe(true);
  for (const claim of (await claims.json()).items as { id: number }[]) {
    const filter = encodeURIComponent(`entityType=ClaimDocument&entityId=${claim.id}`);
    const docs = await api.get(`/api/0/documentservice/v1/documents?pageSize=100&filter=${filter}`);
    const items = (await docs.json()).items as SeededClaimDocument[];
    if (items.length) return items[0]!;
  }
  throw new Error('no seeded claim document');
}
