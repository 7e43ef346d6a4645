/**
 * How long a locked-out user waits, as people say it: "15 minutes", not "894 seconds". Up to a
 * minute and a half in seconds, above that in whole minutes rounded up (never shorter than the
 * real wait). The words come from Intl in the page's language (`<html lang>`, which both sign-in
 * pages set to the UI language), so the three languages get their plural forms without i18next,
 * which the light sign-in page does not load.
 */
export function waitText(seconds: number, language = pageLanguage()): string {
  const whole = Math.max(1, Math.ceil(seconds));
  const [value, unit] = whole <= 90 ? [whole, 'second'] : [Math.ceil(whole / 60), 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(
    value,
  );
}

function pageLanguage(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en';
}
