import * as v from 'valibot';

/**
 * Product settings (`/management/product-settings`): per product, two tenant settings that the
 * spec names (`bf_custom_css_{x}`, `summary_label_setting_{x}`, x the product slug), stored through
 * the tenant service's settings like every other tenant setting. The booking funnel of a product
 * applies its CSS; its summary step uses the label as its heading. Shared by the sandbox
 * (validation, permissions) and the settings screen.
 */

export const PRODUCT_SETTING_KINDS = ['bookingFunnelCss', 'summaryLabel'] as const;
export type ProductSettingKind = (typeof PRODUCT_SETTING_KINDS)[number];

const PREFIX: Record<ProductSettingKind, string> = {
  bookingFunnelCss: 'bf_custom_css_',
  summaryLabel: 'summary_label_setting_',
};

export const productSettingKey = (kind: ProductSettingKind, productSlug: string) =>
  `${PREFIX[kind]}${productSlug}`;

/** Which product setting a tenant setting key is, if any. */
export function productSettingOf(
  key: string,
): { kind: ProductSettingKind; productSlug: string } | null {
  for (const kind of PRODUCT_SETTING_KINDS) {
    const prefix = PREFIX[kind];
    if (key.startsWith(prefix) && /^[a-z0-9][a-z0-9-]{0,62}$/.test(key.slice(prefix.length))) {
      return { kind, productSlug: key.slice(prefix.length) };
    }
  }
  return null;
}

export const PRODUCT_CSS_MAX_LENGTH = 10_000;
export const SUMMARY_LABEL_MAX_LENGTH = 100;

/**
 * The funnel's CSS is the tenant's own styling, shown to customers: it may not leave the page
 * (no @import, no url(), which could load or leak to other hosts) nor break out of its style
 * element (no `<`), and its braces must pair.
 */
export function cssProblem(css: string): string | null {
  if (css.length > PRODUCT_CSS_MAX_LENGTH) return 'too_long';
  if (css.includes('<')) return 'css_markup';
  if (/@import|url\s*\(|expression\s*\(|javascript:|-moz-binding|behavior\s*:/i.test(css)) {
    return 'css_external';
  }
  let depth = 0;
  for (const c of css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '')) {
    if (c === '{') depth += 1;
    if (c === '}') depth -= 1;
    if (depth < 0) return 'css_braces';
  }
  return depth === 0 ? null : 'css_braces';
}

const MESSAGES: Record<string, string> = {
  too_long: `at most ${PRODUCT_CSS_MAX_LENGTH} characters`,
  css_markup: 'CSS may not contain <',
  css_external: 'CSS may not load anything (@import, url(), expression())',
  css_braces: 'the braces { } of the CSS do not pair',
};

export const ProductCssValue = v.nullable(
  v.pipe(
    v.string('CSS text'),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = cssProblem(dataset.value);
      if (problem) addIssue({ message: MESSAGES[problem] ?? problem });
    }),
  ),
);

export const SummaryLabelValue = v.nullable(
  v.pipe(
    v.string('text'),
    v.trim(),
    v.maxLength(SUMMARY_LABEL_MAX_LENGTH, `at most ${SUMMARY_LABEL_MAX_LENGTH} characters`),
  ),
);

export const PRODUCT_SETTING_SCHEMAS = {
  bookingFunnelCss: ProductCssValue,
  summaryLabel: SummaryLabelValue,
} as const;
