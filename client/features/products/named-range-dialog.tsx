import { useTranslation } from 'react-i18next';
import { NAMED_RANGE_LIMITS, bandOverlaps, type RangeBand } from '#common/named-range.ts';
import {
  createNamedRange,
  updateNamedRange,
  type NamedRange,
} from '#client/api/product-extras-client.ts';
import { Button } from '#client/ui/button.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import type { ConflictKey } from '#client/entities/record/conflict-panel.tsx';
import { TextInput } from '#client/ui/form/fields.tsx';
import {
  ListErrors,
  PartDialog,
  listEdits,
  usePartEdit,
  type ConflictShape,
} from './record-dialog.tsx';
import { lookupNameSchema } from './product-forms.ts';

interface BandText {
  from: string;
  to: string;
  value: string;
}

interface RangeValues {
  name: string;
  bands: BandText[];
}
type RangeField = keyof RangeValues;

const rangeValuesOf = (range: NamedRange): RangeValues => ({
  name: range.name,
  bands: range.bands.map(toText),
});

/** A band's problems are kept at `band-{index}` (the inputs marked invalid), their texts at `bands`. */
const bandKey = (index: number) => `band-${index}`;

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
 * wrong before saving. On the record-edit machine: an edit carries the version it was based on;
 * when someone else saved in between (409), the conflict shows their change beside this input,
 * to load theirs, save this input over it, or combine the two.
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
  const { t: tRange } = useTranslation('products', { keyPrefix: 'ranges' });
  const { t: tObject } = useTranslation('products', { keyPrefix: 'objects' });
  const nameLabel = t('ranges.name');

  /** The bands as numbers, or the problems with their band numbers (0-based here). */
  const checkBands = (bands: BandText[]): RangeBand[] | FieldErrors => {
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
    if (!problems.length) return parsed;
    const errors: FieldErrors = { bands: problems.map((problem) => problem.text) };
    for (const { band } of problems) if (band !== null) errors[bandKey(band)] = ['invalid'];
    return errors;
  };

  // The conflict panel's own texts are the range's; its table and buttons are the editor's.
  const conflict: ConflictShape<RangeValues, RangeField> = {
    property: 'namedRange',
    fields: ['name', 'bands'],
    shown: (values) => ({
      name: values.name,
      bands: values.bands
        .map((b) => `${b.from} – ${b.to || t('ranges.open_end')}: ${b.value}`)
        .join('; '),
    }),
    translate: (key: ConflictKey, values) =>
      key === 'conflict.title' || key === 'conflict.message'
        ? tRange(key, values)
        : tObject(key, values),
    label: (field) => (field === 'name' ? nameLabel : t('ranges.bands')),
  };
  const form = usePartEdit({
    record: range,
    valuesOf: rangeValuesOf,
    emptyValues: () => ({ name: '', bands: [{ from: '', to: '', value: '' }] }),
    validate: (values: RangeValues) => {
      const result = validateForm(lookupNameSchema(nameLabel), { name: values.name });
      const parsed = checkBands(values.bands);
      if (!result.success || !Array.isArray(parsed)) {
        return {
          ok: false,
          errors: { ...result.errors, ...(Array.isArray(parsed) ? {} : parsed) },
        };
      }
      return { ok: true, input: { name: result.output.name, bands: parsed } };
    },
    create: (input) => createNamedRange(accountIndex, { productVersionId, ...input }),
    update: (record, input, version) =>
      updateNamedRange(accountIndex, record.id, { ...input, version }),
    conflict,
    onSaved: (saved) => onClose(saved.name),
  });
  const { errors } = form;
  const { name, bands } = form.values;
  const setName = (value: string) => form.setValues((current) => ({ ...current, name: value }));
  const bandEdits = listEdits(form, 'bands');
  const setBand = (index: number, key: keyof BandText) => (value: string) =>
    bandEdits.change(index, { [key]: value });

  const errorsId = 'named-range-band-errors';

  return (
    <PartDialog
      form={form}
      conflict={conflict}
      title={range ? t('ranges.edit') : t('ranges.new')}
      submitLabel={range ? t('actions.save') : t('actions.add')}
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
              const invalid = errors[bandKey(index)] !== undefined || undefined;
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
                      onClick={() => bandEdits.remove(index)}
                    >
                      ✕
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <ListErrors id={errorsId} errors={errors.bands ?? []} />
        <div>
          <Button
            variant="secondary"
            disabled={bands.length >= NAMED_RANGE_LIMITS.maxBands}
            onClick={() => {
              const last = bands[bands.length - 1];
              bandEdits.set((current) => [...current, { from: last?.to ?? '', to: '', value: '' }]);
            }}
          >
            {t('ranges.add_band')}
          </Button>
        </div>
      </fieldset>
    </PartDialog>
  );
}
