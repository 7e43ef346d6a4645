/**
 * Postcodes checked against their country (issue 15 point 5): one rule for the customer form, the
 * organisation forms and the sandbox's services, so that the form refuses what the service would.
 * Formats by country (ISO 3166 alpha-2); a country without a known format takes any postcode.
 */
export const POSTCODE_FORMATS: Readonly<Record<string, RegExp>> = {
  DE: /^\d{5}$/,
  AT: /^\d{4}$/,
  CH: /^\d{4}$/,
  PL: /^\d{2}-\d{3}$/,
};
/** An account has no country of its own yet: its address is read as German, as its phone. */
export const DEFAULT_ADDRESS_COUNTRY = 'DE';

/** Whether a postcode has its country's format; a country without a known format takes any. */
export const isPostcode = (zip: string, country: string = DEFAULT_ADDRESS_COUNTRY): boolean =>
  POSTCODE_FORMATS[country.toUpperCase()]?.test(zip.trim()) ?? zip.trim() !== '';

/**
 * The names an organisation's free-text country field is written with, in the product's
 * languages and English, lower case without accents, by the country's code.
 */
const COUNTRY_NAMES: Readonly<Record<string, readonly string[]>> = {
  DE: ['de', 'deu', 'deutschland', 'germany', 'niemcy', 'bundesrepublik deutschland'],
  AT: ['at', 'aut', 'osterreich', 'oesterreich', 'austria'],
  CH: ['ch', 'che', 'schweiz', 'switzerland', 'szwajcaria', 'suisse', 'svizzera'],
  PL: ['pl', 'pol', 'polen', 'poland', 'polska'],
};
const CODE_BY_NAME = new Map(
  Object.entries(COUNTRY_NAMES).flatMap(([code, names]) => names.map((n) => [n, code] as const)),
);

/** The code of a country as typed ("Deutschland", "Österreich", "PL"), or null when unknown. */
export function countryCodeOf(country: string): string | null {
  const key = country
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ');
  return CODE_BY_NAME.get(key) ?? null;
}

/**
 * Whether the postcode fits the country as typed: DE 5 digits, PL NN-NNN, AT and CH 4 digits,
 * any other country (or none yet) anything. An empty postcode is left to the required rule.
 */
export function postcodeFitsCountry(zip: string, country: string): boolean {
  const code = countryCodeOf(country);
  return zip.trim() === '' || code === null || isPostcode(zip, code);
}

/** The issue code of a postcode that does not fit its country, at `zipCode`. */
export const INVALID_ZIP = 'invalid_zip';
