import { describe, expect, it } from 'vitest';
import { textOfDocx as text } from '#tests/support/docx.ts';
import { checkDocx, docxValues, fillDocx, makeDocx } from './docx-templates.ts';
import { documentVariablesOf } from '#server/sandbox/services/notification/index.ts';

describe('docx templates', () => {
  it('takes a template whose tags are the entity variables, loops included', () => {
    const file = makeDocx([
      'Vertrag {policy.number} für {policy.holder.name}',
      '{#policy.premiumItems}{name}: {amount} ({policy.number}){/policy.premiumItems}',
    ]);
    const check = checkDocx(file, 'policy');
    expect(check.problems).toEqual([]);
    expect(check.tags).toEqual([
      'policy.number',
      'policy.holder.name',
      'policy.premiumItems',
      'name',
      'amount',
    ]);
  });

  it('names each problem with its tag, paragraph and character', () => {
    expect(checkDocx(makeDocx(['Hallo', 'a {/loop} b']), 'policy').problems).toEqual([
      { path: 'file', code: 'unopened_loop', name: 'loop', line: 2, column: 3 },
    ]);
    expect(checkDocx(makeDocx(['x', 'Nr. {claim.number}']), 'policy').problems).toEqual([
      { path: 'file', code: 'unknown_tag', name: 'claim.number', line: 2, column: 5 },
    ]);
    // Raw XML would make a record's text markup of the document.
    expect(checkDocx(makeDocx(['{@policy.number}']), 'policy').problems).toEqual([
      { path: 'file', code: 'raw_tag_refused', name: 'policy.number', line: 1, column: 1 },
    ]);
    expect(checkDocx(new TextEncoder().encode('no zip'), 'policy').problems).toEqual([
      { path: 'file', code: 'not_docx' },
    ]);
  });

  it('fills days, amounts and lists; what the record lacks prints empty', () => {
    const file = makeDocx([
      '{policy.number} ab {policy.startDate}: {policy.premium}',
      '{#policy.premiumItems}{name} {amount}{/policy.premiumItems}',
      '[{policy.holder.email}]',
    ]);
    const filled = fillDocx(file, 'policy', {
      policy: {
        number: 'P-7',
        startDate: '2026-02-03',
        premiumCents: 48872,
        premiumItems: [{ name: 'Haftpflicht', amountCents: 31240 }],
        holder: { name: 'Ana' },
      },
    });
    const out = text(filled).replace(/\u00a0/g, ' ');
    expect(out).toContain('P-7 ab 03.02.2026: 488,72 €');
    expect(out).toContain('Haftpflicht 312,40 €');
    expect(out).toContain('[]');
  });

  it('passes only catalogue variables, never other keys of the facts', () => {
    const values = docxValues(documentVariablesOf('claim'), {
      claim: { number: 'C-1', secret: 'x' },
      constructor: 'y',
    });
    expect(values['claim.number']).toBe('C-1');
    expect(Object.keys(values)).not.toContain('claim.secret');
    expect(Object.keys(values)).not.toContain('constructor');
  });
});
