import { describe, expect, it } from 'vitest';
import { claimCreatedVariables, estimatedDamageCents } from './claim-event.ts';

describe('claim.created variables', () => {
  it('turns the euro estimate into integer cents for the decision tables', () => {
    expect(estimatedDamageCents({ estimatedDamage: 500 })).toBe(50_000);
    expect(estimatedDamageCents({ estimatedDamage: 2500.75 })).toBe(250_075);
    // Float noise must not leak a fraction of a cent: 0.1 + 0.2 euros is 30 cents.
    expect(estimatedDamageCents({ estimatedDamage: 0.1 + 0.2 })).toBe(30);
    expect(estimatedDamageCents({ estimatedDamage: '1200' })).toBe(120_000);
  });

  it('answers 0 (the table says manual) when no usable estimate is given', () => {
    expect(estimatedDamageCents(null)).toBe(0);
    expect(estimatedDamageCents({})).toBe(0);
    expect(estimatedDamageCents({ estimatedDamage: 'a lot' })).toBe(0);
    expect(estimatedDamageCents({ estimatedDamage: -5 })).toBe(0);
    // The old key the event read by mistake is not an estimate.
    expect(estimatedDamageCents({ estimatedAmount: 500 })).toBe(0);
  });

  it('carries the claim type and status beside the amount', () => {
    expect(
      claimCreatedVariables({
        claim_type: 'damage',
        status: 'open',
        custom_fields: { estimatedDamage: 800, damageLocation: 'Berlin' },
      }),
    ).toEqual({ claimType: 'damage', status: 'open', amount: 80_000 });
  });
});
