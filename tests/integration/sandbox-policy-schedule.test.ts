import { describe, expect, it } from 'vitest';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import { pdfPages } from '#tests/support/pdf.ts';

// The policy schedule (issue 19): issued as a document of the policy when it is created and on
// each new version, printed on its first download from what was kept when it was issued.
const kit = withSandbox({ care: 'care@demo.test', manager: 'manager@demo.test' });
const { care, manager } = kit.sessions;
const insurance = serviceCalls(kit, '/insuranceservice/v1');
const documents = serviceCalls(kit, '/documentservice/v1');

interface Doc {
  code: string;
  description: string;
  filename: string;
  requester: string;
  templateSlug: string | null;
  contentType: string;
}

async function carVersion() {
  const rows = await kit.db().query<{ version_id: number; object_id: number; name: string }>(
    `SELECT v.id AS version_id, o.id AS object_id, o.name
       FROM product_versions v JOIN products p ON p.id = v.product_id
       JOIN tenants t ON t.id = p.tenant_id
       JOIN insured_objects o ON o.product_version_id = v.id
      WHERE t.slug = 'demo' AND p.slug = 'car-comfort' AND v.status = 'active'
      ORDER BY v.id DESC, o.id`,
  );
  const id = rows[0]!.version_id;
  return {
    id,
    objects: Object.fromEntries(
      rows.filter((r) => r.version_id === id).map((r) => [r.name, r.object_id]),
    ),
  };
}

/** The policy's schedules, once the document service has issued them (it hears the event). */
async function schedulesOf(policyCode: string, count: number): Promise<Doc[]> {
  for (let i = 0; i < 100; i++) {
    const res = await documents.call(
      care,
      `/documents?filter=${encodeURIComponent(`policyCode=${policyCode}`)}`,
    );
    expect(res.status).toBe(200);
    const items = (res.body.items as Doc[]).filter((d) => d.templateSlug === 'policy-schedule');
    if (items.length >= count) return items;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${count} schedule(s) for ${policyCode}`);
}

async function download(code: string): Promise<string> {
  const address = await documents.call(care, `/documents/${code}/download-url`);
  expect(address.status).toBe(200);
  const res = await fetch(new URL(address.body.url, kit.base));
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return (await pdfPages(bytes)).join('\n').replace(/\u00a0/g, ' ');
}

describe('the policy schedule', () => {
  it('is issued at creation, downloads as a PDF with the holder and the premium, and stays as issued', async () => {
    const car = await carVersion();
    const data: Record<string, Record<string, unknown>> = {
      default: {
        policyStartDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        policyDurationUnit: 'year',
        policyDurationValue: 1,
      },
      vehicle: { vehicleValue: 20000, vehicleType: 'car', isCommercial: false },
      driver: { birthDate: '1990-06-15', sfClass: 10 },
    };
    const created = await insurance.send(care, 'POST', '/policies', {
      productVersionId: car.id,
      holder: {
        type: 'person',
        firstName: 'Zofia',
        lastName: 'Łukasiewicz-Größ',
        street: 'Hauptstraße',
        houseNumber: '5',
        zipCode: '20095',
        city: 'Hamburg',
      },
      policyObjects: Object.entries(data).map(([name, values]) => ({
        insuredObjectId: car.objects[name]!,
        data: values,
      })),
    });
    expect(created.status).toBe(201);
    const policy = created.body.policy;
    const [schedule] = await schedulesOf(policy.code, 1);
    expect(schedule).toMatchObject({
      contentType: 'application/pdf',
      requester: 'documentservice',
      filename: `Versicherungsschein-${policy.policyNumber}-v1.pdf`,
    });
    const text = await download(schedule!.code);
    expect(text).toContain('Versicherungsschein');
    expect(text).toContain('Zofia Łukasiewicz-Größ');
    expect(text).toContain(policy.policyNumber);
    const grandTotal = policy.versions[0].timeline[0].premium.grandTotal as number;
    const premium = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })
      .format(grandTotal)
      .replace(/\u00a0/g, ' ');
    expect(text).toContain(premium);
    expect(text).toMatch(/Seite 1 von \d/);

    // A later change of the template does not change the schedule already issued.
    const template = (await documents.call(manager, '/doc-templates?filter=slug%3Dpolicy-schedule'))
      .body.items[0];
    const changed = await documents.send(manager, 'PUT', `/doc-templates/${template.id}`, {
      data: { bodyTemplate: '<h1>Neuer Schein</h1>{{ policy.holder.name }}' },
    });
    expect(changed.status).toBe(200);
    expect(await download(schedule!.code)).toContain('Versicherte Gegenstände');
  });

  it('is issued again for a new version, by the template of the day', async () => {
    const [policyRow] = await kit.db().query<{ code: string }>(
      `SELECT p.code FROM policies p JOIN documents d ON d.policy_code = p.code
        WHERE d.template_slug = 'policy-schedule' ORDER BY p.id DESC LIMIT 1`,
    );
    const read = await insurance.call(care, `/policies/${policyRow!.code}`);
    const policy = read.body.policy;
    const vehicle = (await carVersion()).objects.vehicle!;
    const drafted = await insurance.send(care, 'POST', `/policies/${policy.id}/draft`, {
      basedOnVersionId: policy.currentVersionId,
    });
    expect(drafted.status).toBe(201);
    const patched = await insurance.send(care, 'PATCH', `/policies/${policy.id}/draft`, {
      basedOnVersionId: drafted.body.policy.draftVersionId,
      policyObjects: [{ insuredObjectId: vehicle, data: { vehicleValue: 30000 } }],
    });
    expect(patched.status).toBe(200);
    const applied = await insurance.send(care, 'PUT', `/policies/${policy.id}`, {
      basedOnVersionId: patched.body.policy.draftVersionId,
    });
    expect(applied.status).toBe(200);
    const schedules = await schedulesOf(policy.code, 2);
    const second = schedules.find((d) => d.filename.endsWith('-v2.pdf'))!;
    expect(second.description).toContain('Version 2');
    const text = await download(second.code);
    // The template as the first test left it.
    expect(text).toContain('Neuer Schein');
    expect(text).toContain('Zofia Łukasiewicz-Größ');
  });
});
