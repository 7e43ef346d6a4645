import { useCallback } from 'react';
import {
  PARTNER_SELECTOR_PAGE_SIZE,
  listPartners,
  type Partner,
} from '#client/api/partners-client.ts';
import { AsyncCombobox, type AsyncComboboxTexts } from '#client/ui/async-combobox.tsx';

/** What the selector shows; the caller's namespace provides the texts (ui stays small). */
export type PartnerSelectorTexts = AsyncComboboxTexts;

export type PartnerChoice = Pick<Partner, 'code' | 'displayName'>;
type PartnerOption = PartnerChoice & { partnerNumber?: string };

/**
 * The spec's partner selector: an asynchronous combobox that asks the partnerservice for 10
 * partners at a time, ordered by display name, filtered by tag slugs and by what is typed; more
 * load when the list is scrolled to its end or "load more" is chosen. A failed request shows the
 * danger alert and no options.
 */
export function PartnerSelector({
  accountIndex,
  tagSlugs,
  value,
  onChange,
  texts,
  disabled = false,
  name,
  required = false,
  error,
}: {
  accountIndex: number;
  tagSlugs?: readonly string[];
  value: PartnerChoice | null;
  onChange: (partner: PartnerChoice | null) => void;
  texts: PartnerSelectorTexts;
  disabled?: boolean;
  name?: string;
  /** Marks the label (the star is hidden from screen readers, which hear aria-required). */
  required?: boolean;
  /** A translated message shown under the control and tied to it. */
  error?: string | undefined;
}) {
  const tags = (tagSlugs ?? []).join(',');
  const loadPage = useCallback(
    async (search: string, pageToken: string | null, signal: AbortSignal) => {
      const result = await listPartners(
        accountIndex,
        {
          pageSize: PARTNER_SELECTOR_PAGE_SIZE,
          page: pageToken ? Number(pageToken) : 1,
          search,
          tagSlugs: tags ? tags.split(',') : [],
        },
        signal,
      );
      return { items: result.items as PartnerOption[], nextPageToken: result.nextPageToken };
    },
    [accountIndex, tags],
  );
  return (
    <AsyncCombobox<PartnerOption>
      value={value}
      onChange={(choice) =>
        onChange(choice ? { code: choice.code, displayName: choice.displayName } : null)
      }
      loadPage={loadPage}
      keyOf={(p) => p.code}
      labelOf={(p) => p.displayName}
      detailOf={(p) => p.partnerNumber}
      texts={texts}
      disabled={disabled}
      required={required}
      error={error}
      testId="partner-options"
      {...(name === undefined ? {} : { name })}
    />
  );
}
