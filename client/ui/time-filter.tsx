import {
  Popover,
  PopoverButton,
  PopoverPanel,
  Radio,
  RadioGroup,
  Tab,
  TabGroup,
  TabList,
  TabPanel,
  TabPanels,
} from '@headlessui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { formatDateTime } from './form/dates.ts';
import { DateTimeInput } from './form/fields.tsx';
import { ChevronDownIcon } from './icons.tsx';
import {
  ALL_DATES,
  changeEnd,
  changeStart,
  customValue,
  RELATIVE_PERIODS,
  type CustomDraft,
  type RelativePeriod,
  type TimeFilterValue,
} from './time-filter-range.ts';

/**
 * The documents time filter (spec, sections 2 and 5): a dropdown with a relative tab (today,
 * last week, current month, last month, all dates) and a custom tab (from/to, 15-minute steps,
 * the start required and valid, the end not before the start). Each tab has Reset and Apply;
 * Reset applies "all dates". Turn the value into ISO bounds with `toRange`.
 */
export function TimeFilter({
  value,
  onChange,
}: {
  value: TimeFilterValue;
  onChange: (value: TimeFilterValue) => void;
}) {
  const { t } = useTranslation('ui');
  const summary =
    value.kind === 'relative'
      ? t(`time_filter.${value.period}`)
      : t('time_filter.range', {
          from: formatDateTime(value.from),
          to: value.to ? formatDateTime(value.to) : t('time_filter.open_end'),
        });
  return (
    <Popover className="relative inline-block">
      <PopoverButton className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100">
        {t('time_filter.button', { range: summary })}
        <ChevronDownIcon />
      </PopoverButton>
      <PopoverPanel
        focus
        // Placed by the button's right edge and kept on the screen: the filter sits at the end
        // of a heading row, where a panel opening rightwards ran off the page.
        anchor={{ to: 'bottom end', gap: 8 }}
        className="z-20 w-80 rounded-md border border-slate-300 bg-white p-4 shadow-lg"
      >
        {({ close }) => (
          <TimeFilterPanel
            value={value}
            onApply={(next) => {
              onChange(next);
              close();
            }}
          />
        )}
      </PopoverPanel>
    </Popover>
  );
}

function TimeFilterPanel({
  value,
  onApply,
}: {
  value: TimeFilterValue;
  onApply: (value: TimeFilterValue) => void;
}) {
  const { t } = useTranslation('ui');
  const [period, setPeriod] = useState<RelativePeriod>(
    value.kind === 'relative' ? value.period : 'all_dates',
  );
  const [draft, setDraft] = useState<CustomDraft>(
    value.kind === 'custom' ? { from: value.from, to: value.to } : { from: null, to: null },
  );
  const applicable = customValue(draft);
  return (
    <TabGroup defaultIndex={value.kind === 'custom' ? 1 : 0}>
      <TabList
        aria-label={t('time_filter.kind')}
        className="mb-3 flex gap-1 border-b border-slate-200"
      >
        {(['relative', 'custom'] as const).map((tab) => (
          <Tab
            key={tab}
            className="-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-slate-700 data-selected:border-slate-900 data-selected:text-slate-950"
          >
            {t(`time_filter.${tab}`)}
          </Tab>
        ))}
      </TabList>
      <TabPanels>
        <TabPanel>
          <RadioGroup
            value={period}
            onChange={setPeriod}
            aria-label={t('time_filter.relative')}
            className="flex flex-col gap-1"
          >
            {RELATIVE_PERIODS.map((option) => (
              <Radio
                key={option}
                value={option}
                className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 data-checked:bg-slate-100 data-focus:outline-2 data-focus:outline-blue-700"
              >
                <span
                  aria-hidden="true"
                  className="size-3 rounded-full border border-slate-500 in-data-checked:border-4 in-data-checked:border-slate-900"
                />
                {t(`time_filter.${option}`)}
              </Radio>
            ))}
          </RadioGroup>
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onApply(ALL_DATES)}>
              {t('time_filter.reset')}
            </Button>
            <Button onClick={() => onApply({ kind: 'relative', period })}>
              {t('time_filter.apply')}
            </Button>
          </div>
        </TabPanel>
        <TabPanel className="flex flex-col gap-3">
          <DateTimeInput
            label={t('time_filter.from')}
            required
            value={draft.from ?? ''}
            max={draft.to ?? undefined}
            onChange={(input) => setDraft((current) => changeStart(current, input))}
          />
          <DateTimeInput
            label={t('time_filter.to')}
            value={draft.to ?? ''}
            min={draft.from ?? undefined}
            onChange={(input) => setDraft((current) => changeEnd(current, input))}
          />
          <div className="mt-1 flex justify-end gap-2">
            <Button
              variant="secondary"
              onClick={() => {
                setDraft({ from: null, to: null });
                onApply(ALL_DATES);
              }}
            >
              {t('time_filter.reset')}
            </Button>
            <Button
              disabled={applicable === null}
              onClick={() => applicable && onApply(applicable)}
            >
              {t('time_filter.apply')}
            </Button>
          </div>
        </TabPanel>
      </TabPanels>
    </TabGroup>
  );
}
