import * as v from 'valibot';

/**
 * Named ranges of a product version (docs/contracts.md, "Named ranges"): numeric bands mapped to
 * values, read by premium formulas as `range('driverAge', age)`. A band holds x when
 * `from <= x < to` (`to: null` is open-ended), so bands 18-25 and 25-65 meet without a gap or an
 * overlap. Shared by the sandbox (request bodies) and the editor (the same checks while typing).
 */

export const NAMED_RANGE_LIMITS = { maxBands: 200, maxAbs: 1e12 } as const;

export interface RangeBand {
  from: number;
  to: number | null;
  value: number;
}

const bound = v.pipe(
  v.number('a number'),
  v.finite('a number'),
  v.minValue(-NAMED_RANGE_LIMITS.maxAbs, 'too small'),
  v.maxValue(NAMED_RANGE_LIMITS.maxAbs, 'too large'),
);

export const RangeBandSchema = v.pipe(
  v.object({ from: bound, to: v.nullable(bound), value: bound }),
  v.check((band) => band.to === null || band.from < band.to, 'from must be below to'),
);

/** Bands that overlap an earlier one (by from): the later band's index and the other's. */
export function bandOverlaps(bands: readonly RangeBand[]): { index: number; other: number }[] {
  const problems: { index: number; other: number }[] = [];
  const order = bands
    .map((band, index) => ({ band, index }))
    .sort((a, b) => a.band.from - b.band.from);
  for (let i = 1; i < order.length; i += 1) {
    const before = order[i - 1]!;
    const current = order[i]!;
    if (before.band.to === null || current.band.from < before.band.to) {
      problems.push({
        index: Math.max(before.index, current.index),
        other: Math.min(before.index, current.index),
      });
    }
  }
  return problems.sort((a, b) => a.index - b.index);
}

export const NamedRangeName = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,62}$/,
    'a name of letters, digits and _ (not starting with a digit)',
  ),
);

export const RangeBandsSchema = v.pipe(
  v.array(RangeBandSchema),
  v.minLength(1, 'at least one band'),
  v.maxLength(NAMED_RANGE_LIMITS.maxBands, `at most ${NAMED_RANGE_LIMITS.maxBands} bands`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const { index, other } of bandOverlaps(dataset.value)) {
      const message = `band ${index + 1} overlaps band ${other + 1}`;
      addIssue({
        message,
        path: [
          {
            type: 'array',
            origin: 'value',
            input: dataset.value,
            key: index,
            value: dataset.value[index],
          },
        ],
      });
    }
  }),
);

/** The value of the band that holds `x`, or undefined in a gap. */
export function lookupRange(bands: readonly RangeBand[], x: number): number | undefined {
  return bands.find((band) => band.from <= x && (band.to === null || x < band.to))?.value;
}
