import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { displayNameOf } from '#client/api/accounts-client.ts';
import { usePageTitle } from '#client/ui/page-title.ts';
import { useToast } from '#client/ui/toast.tsx';
import { CustomerDataForm } from './customer-data-form.tsx';
import { useCustomerAbilities } from './use-customer-abilities.ts';

/**
 * /customers/new: the customer form without a record behind it. The service assigns number and
 * code; on success the new customer opens, so that a policy or an application can follow.
 */
export default function NewCustomerPage() {
  const { t } = useTranslation('customers');
  usePageTitle(t('new_customer.title'));
  const abilities = useCustomerAbilities();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <div className="flex flex-col gap-4">
      <Link
        to={`/u/${abilities.accountIndex}/customers`}
        className="text-sm text-blue-800 underline-offset-2 hover:underline"
      >
        {t('new_customer.back')}
      </Link>
      <h1 className="text-2xl font-bold text-slate-900">{t('new_customer.title')}</h1>
      <CustomerDataForm
        account={null}
        abilities={abilities}
        onSaved={(account) => {
          toast({ message: t('new_customer.created', { name: displayNameOf(account) }) });
          void navigate(`/u/${abilities.accountIndex}/customers/${account.code}`);
        }}
      />
    </div>
  );
}
