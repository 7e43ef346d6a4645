import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAMED_RANGE_LIMITS, bandOverlaps, type RangeBand } from '#common/named-range.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  createNamedRange,
  updateNamedRange,
  type NamedRange,
} from '#client/api/product-extras-client.ts';
import { Button } from '#client/ui/button.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { DialogForm } from './dialog-form.tsx';
import { lookupNameSchema } from './product-forms.ts';

interface BandText {
  from: string;
  to: string;
  value: string;
}

const toText = (band: RangeBand): BandText => ({
  from: String(band.from),
  to: band.to === null ? '' : String(band.to),
  value: String(band.value),
});

/** A number as typed: a decimal point or comma; empty is null. */
function parseNumber(text: string): number | null | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

const cell = 'py-1 pr-2 align-top';
const input =
  'w-28 rounded-md border border-slate-400 bg-white px-2 py-1 text-slate-900 aria-[invalid=true]:border-red-700';

/**
 * Adds or edits a named range: its name and its bands (from, to, value), checked here as the
 * service checks them (numbers, from below to, no overlaps) so that the form says which band is
 * wrong before saving. An edit carries the version it was based on; when someone else saved in
 * between, the service's answer says so and a second save overwrites their change.
 */
export function NamedRangeDialog({
  accountIndex,
  productVersionId,
  range,
  onClose,
}: {
  accountIndex: number;
  productVersionId: number;
  range: NamedRange | null;
  onClose: (savedName: string | null) => void;
}) {
  const { t } = useTranslation('products');
  const [name, setName] = useState(range?.name ?? '');
  const [bands, setBands] = useState<BandText[]>(
    range ? range.bands.map(toText) : [{ from: '', to: '', value: '' }],
  );
  const [basedOn, setBasedOn] = useState(range?.version ?? 1);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [bandErrors, setBandErrors] = useState<{ band: number | null; text: string }[]>([]);
  const nameLabel = t('ranges.name');

  const setBand = (index: number, key: keyof BandText) => (value: string) =>
    setBands((current) => current.map((b, i) => (i === index ? { ...b, [key]: value } : b)));

  /** The bands as numbers, or the problems with their band numbers (1-based). */
  const checkBands = (): RangeBand[] | null => {
    const problems: { band: number | null; text: string }[] = [];
    const parsed: RangeBand[] = [];
    bands.forEach((band, index) => {
      const from = parseNumber(band.from);
      const to = parseNumber(band.to);
      const value = parseNumber(band.value);
      if (from == null || to === undefined || value == null) {
        problems.push({ band: index, text: t('ranges.band_number', { band: index + 1 }) });
      } else if (to !== null && from >= to) {
        problems.push({ band: index, text: t('ranges.band_order', { band: index + 1 }) });
      } else parsed.push({ from, to, value });
    });
    if (bands.length === 0) problems.push({ band: null, text: t('ranges.no_bands') });
    if (!problems.length) {
      for (const { index, other } of bandOverlaps(parsed)) {
        problems.push({
          band: index,
          text: t('ranges.band_overlaps', { band: index + 1, other: other + 1 }),
        });
      }
    }
    setBandErrors(problems);
    return problems.length ? null : parsed;
  };

  const submit = () => {
    const result = validateForm(lookupNameSchema(nameLabel), { name });
    setErrors(result.errors);
    const parsed = checkBands();
    if (!result.success || !parsed) return false;
    const saved = range
      ? updateNamedRange(accountIndex, range.id, {
          name: result.output.name,
          bands: parsed,
          version: basedOn,
        })
      : createNamedRange(accountIndex, {
          productVersionId,
          name: result.output.name,
          bands: parsed,
        });
    return saved.then(
      (done) => {
        onClose(done.name);
        return true;
      },
      (error: unknown) => {
        // The next save is based on what is saved now: saving again overwrites it.
        const current =
          error instanceof ApiError ? (error.body as { namedRange?: NamedRange }) : null;
        if (current?.namedRange) setBasedOn(current.namedRange.version);
        throw error;
      },
    );
  };

  const invalidBands = new Set(bandErrors.map((e) => e.band));
  const errorsId = 'named-range-band-errors';

  return (
    <DialogForm
      title={range ? t('ranges.edit') : t('ranges.new')}
      submitLabel={range ? t('actions.save') : t('actions.add')}
      submit={submit}
      onCancel={() => onClose(null)}
      wide
    >
      <TextInput
        label={nameLabel}
        value={name}
        onChange={setName}
        required
        errors={errors.name}
        hint={t('ranges.name_hint')}
        maxLength={63}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">{t('ranges.bands')}</legend>
        <p className="text-xs text-slate-600">{t('ranges.bands_hint')}</p>
        <table className="text-left text-sm">
          <thead>
            <tr>
              <th scope="col" className={cell}>
                {t('ranges.from')}
              </th>
              <th scope="col" className={cell}>
                {t('ranges.to')}
              </th>
              <th scope="col" className={cell}>
                {t('ranges.value')}
              </th>
              <th scope="col" className={cell}>
                <span className="sr-only">{t('columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {bands.map((band, index) => {
              const invalid = invalidBands.has(index) || undefined;
              const a11y = {
                'aria-invalid': invalid,
                'aria-describedby': invalid ? errorsId : undefined,
                inputMode: 'decimal' as const,
                className: input,
              };
              return (
                <tr key={index}>
                  <td className={cell}>
                    <input
                      {...a11y}
                      aria-label={t('ranges.from_band', { band: index + 1 })}
                      value={band.from}
                      onChange={(event) => setBand(index, 'from')(event.target.value)}
                    />
                  </td>
                  <td className={cell}>
                    <input
                      {...a11y}
                      aria-label={t('ranges.to_band', { band: index + 1 })}
                      placeholder={t('ranges.open_end')}
                      value={band.to}
                      onChange={(event) => setBand(index, 'to')(event.target.value)}
                    />
                  </td>
                  <td className={cell}>
                    <input
                      {...a11y}
                      aria-label={t('ranges.value_band', { band: index + 1 })}
                      value={band.value}
                      onChange={(event) => setBand(index, 'value')(event.target.value)}
                    />
                  </td>
                  <td className={cell}>
                    <Button
                      variant="ghost"
                      aria-label={t('ranges.remove_band', { band: index + 1 })}
                      disabled={bands.length === 1}
                      onClick={() => setBands((current) => current.filter((_, i) => i !== index))}
                    >
                      ✕
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {bandErrors.length ? (
          <ul id={errorsId} className="text-sm text-red-700">
            {bandErrors.map((error) => (
              <li key={error.text}>{error.text}</li>
            ))}
          </ul>
        ) : null}
        <div>
          <Button
            variant="secondary"
            disabled={bands.length >= NAMED_RANGE_LIMITS.maxBands}
            onClick={() => {
              const last = bands[bands.length - 1];
              setBands((current) => [...current, { from: last?.to ?? '', to: '', value: '' }]);
            }}
          >
            {t('ranges.add_band')}
          </Button>
        </div>
      </fieldset>
    </DialogForm>
  );
}
