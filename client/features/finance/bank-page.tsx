import { useTranslation } from 'react-i18next';
import { useBillingAbilities } from '#client/entities/invoice/use-billing-abilities.ts';
import { ListFrame } from '#client/entities/list-view/list-page.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';

type BankPageKind = 'transactions' | 'orders';

/**
 * The spec's embedded apps `/bank/transactions` and `/bank/orders` (docs/decisions/015-bank-pages.md):
 * the payment service's page, served by the BFF under this origin (it fetches it with the
 * session's token) and framed here. The frame runs no script and shares nothing with the shell
 * (`sandbox` without `allow-same-origin`); a click on an invoice may open it in the whole window
 * (`allow-top-navigation-by-user-activation`), nothing else. The page comes in the user's language.
 */
function BankPage({ kind }: { kind: BankPageKind }) {
  const { t, i18n } = useTranslation('finance');
  const { accountIndex } = useBillingAbilities();
  const title = t(`bank.${kind}.title`);
  usePageTitle(title);
  const lang = ['de', 'en', 'pl'].includes(i18n.language) ? i18n.language : 'en';
  return (
    <ListFrame title={title}>
      <p className="text-sm text-slate-700">{t(`bank.${kind}.intro`)}</p>
      <iframe
        key={lang}
        title={t(`bank.${kind}.frame_title`)}
        src={`/embedded/bank/${accountIndex}/${kind}?lang=${lang}`}
        sandbox="allow-top-navigation-by-user-activation"
        referrerPolicy="same-origin"
        className="h-[70vh] min-h-96 w-full rounded-md border border-slate-200 bg-white"
        data-testid="bank-frame"
      />
    </ListFrame>
  );
}

export function BankTransactionsPage() {
  return <BankPage kind="transactions" />;
}

export function BankOrdersPage() {
  return <BankPage kind="orders" />;
}
