/**
 * The premium of a policy timeslice or of an application being filled in (upstream contract,
 * Insurance: `{premiumItems: [{premiumFormulaId, total, isOverride}], grandTotal, currency}`).
 * Totals are per their formula's unit (a yearly and a monthly item are not annualised).
 */
export interface PremiumItem {
  premiumFormulaId: number;
  total: number;
  isOverride: boolean;
}

export interface Premium {
  premiumItems: PremiumItem[];
  grandTotal: number;
  currency: string;
}
