import type { Db } from '#server/sandbox/platform/db.ts';
import { PRODUCT_DOCUMENT_ENTITY_TYPE } from '#common/contracts/product-document.ts';
import {
  activeProductVersions,
  productVersionFacts,
} from '#server/sandbox/services/insurance/index.ts';
import { IPID_TEMPLATE } from './ipid-and-static-templates.ts';
import { issueDocument, type Issuer } from './issued-documents.ts';

/**
 * The product information sheet (IPID) of a product version (issue 19, decision 020): issued
 * when a version goes live (`product_version.published`, which the insurance service sends), a
 * product document of the product (the product page's Documents section lists it) naming its
 * version, from the workspace's system template `ipid` and the facts the insurance service
 * exports. One per version: the description names the version, so a version made active again
 * issues nothing more.
 */
export const ipidIssuer: Issuer = {
  on: ['product_version.published'],
  template: IPID_TEMPLATE,
  onePer: 'description',
  async read(tx, event) {
    const facts = await productVersionFacts(tx, event.tenantId, event.entityCode);
    if (!facts) return null;
    const { name, version, slug } = facts.values;
    return {
      entityType: PRODUCT_DOCUMENT_ENTITY_TYPE,
      entityId: facts.productCode,
      policyCode: null,
      accountCode: null,
      productVersionId: facts.versionId,
      values: { product: facts.values },
      description: (title) => `${title} ${name}, Version ${version}`,
      filename: () => `IPID-${slug}-v${version}.pdf`,
    };
  },
};

/**
 * Every active product version's IPID, as if each had just gone live: the demo products (and an
 * older data directory's) come with theirs. Idempotent (one per version); printed on the first
 * download like every issued document, so a start costs no browser.
 */
export async function issueMissingIpids(db: Db, now: Date): Promise<void> {
  const issued = new Set(
    (
      await db.query<{ id: number }>(
        `SELECT DISTINCT product_version_id AS id FROM documents
          WHERE template_slug = $1 AND product_version_id IS NOT NULL`,
        [IPID_TEMPLATE.slug],
      )
    ).map((row) => row.id),
  );
  for (const version of await activeProductVersions(db)) {
    if (issued.has(version.id)) continue;
    await issueDocument(
      db,
      ipidIssuer,
      { tenantId: version.tenantId, entityCode: version.code, by: 'system' },
      now,
    );
  }
}
