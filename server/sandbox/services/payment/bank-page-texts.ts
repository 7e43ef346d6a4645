/**
 * The texts of the sandbox's bank pages (bank-pages.ts) in the languages of the back office. The
 * pages stand in for an external banking app that the shell embeds, so their words are the
 * app's own, not the back office's locales.
 */
export const BANK_PAGE_LANGUAGES = ['de', 'en', 'pl'] as const;
export type BankPageLanguage = (typeof BANK_PAGE_LANGUAGES)[number];

export interface BankPageTexts {
  transactions: { title: string; intro: string; empty: string };
  orders: { title: string; intro: string; empty: string };
  columns: {
    date: string;
    amount: string;
    counterparty: string;
    reference: string;
    invoices: string;
    status: string;
    kind: string;
    account: string;
  };
  statuses: {
    credited: string;
    returned: string;
    scheduled: string;
    submitted: string;
  };
  kinds: { refund: string; 'direct-debit': string };
  methods: Record<'sepa' | 'invoice' | 'card' | 'bank-transfer', string>;
  mandate: string;
  latest: string;
  noInvoice: string;
}

export const BANK_PAGE_TEXTS: Record<BankPageLanguage, BankPageTexts> = {
  de: {
    transactions: {
      title: 'Kontoumsätze',
      intro: 'Zahlungseingänge auf dem Konto der Versicherung, den Rechnungen zugeordnet.',
      empty: 'Keine Zahlungseingänge.',
    },
    orders: {
      title: 'Zahlungsaufträge',
      intro: 'Erstattungen und Lastschrifteinzüge, die an die Bank gehen, mit ihren Rechnungen.',
      empty: 'Keine Zahlungsaufträge.',
    },
    columns: {
      date: 'Datum',
      amount: 'Betrag',
      counterparty: 'Gegenseite',
      reference: 'Verwendungszweck',
      invoices: 'Rechnung',
      status: 'Status',
      kind: 'Art',
      account: 'Konto',
    },
    statuses: {
      credited: 'Gutgeschrieben',
      returned: 'Zurückgebucht',
      scheduled: 'Geplant',
      submitted: 'Übermittelt',
    },
    kinds: { refund: 'Erstattung (Überweisung)', 'direct-debit': 'Lastschrifteinzug' },
    methods: {
      sepa: 'SEPA-Lastschrift',
      invoice: 'Rechnung',
      card: 'Karte',
      'bank-transfer': 'Überweisung',
    },
    mandate: 'Mandat',
    latest: 'Die neuesten {n} Einträge.',
    noInvoice: 'keine Rechnung',
  },
  en: {
    transactions: {
      title: 'Bank transactions',
      intro: "Incoming payments on the insurer's bank account, matched to their invoices.",
      empty: 'No incoming payments.',
    },
    orders: {
      title: 'Payment orders',
      intro: 'Refunds and direct debits sent to the bank, with their invoices.',
      empty: 'No payment orders.',
    },
    columns: {
      date: 'Date',
      amount: 'Amount',
      counterparty: 'Counterparty',
      reference: 'Reference',
      invoices: 'Invoice',
      status: 'Status',
      kind: 'Kind',
      account: 'Account',
    },
    statuses: {
      credited: 'Credited',
      returned: 'Returned',
      scheduled: 'Scheduled',
      submitted: 'Submitted',
    },
    kinds: { refund: 'Refund (credit transfer)', 'direct-debit': 'Direct debit' },
    methods: {
      sepa: 'SEPA direct debit',
      invoice: 'Invoice',
      card: 'Card',
      'bank-transfer': 'Bank transfer',
    },
    mandate: 'Mandate',
    latest: 'The latest {n} entries.',
    noInvoice: 'no invoice',
  },
  pl: {
    transactions: {
      title: 'Transakcje bankowe',
      intro: 'Wpływy na rachunek ubezpieczyciela, przypisane do faktur.',
      empty: 'Brak wpływów.',
    },
    orders: {
      title: 'Zlecenia płatnicze',
      intro: 'Zwroty i polecenia zapłaty wysyłane do banku, z ich fakturami.',
      empty: 'Brak zleceń płatniczych.',
    },
    columns: {
      date: 'Data',
      amount: 'Kwota',
      counterparty: 'Kontrahent',
      reference: 'Tytuł',
      invoices: 'Faktura',
      status: 'Status',
      kind: 'Rodzaj',
      account: 'Rachunek',
    },
    statuses: {
      credited: 'Zaksięgowana',
      returned: 'Zwrócona',
      scheduled: 'Zaplanowane',
      submitted: 'Przekazane',
    },
    kinds: { refund: 'Zwrot (przelew)', 'direct-debit': 'Polecenie zapłaty' },
    methods: {
      sepa: 'Polecenie zapłaty SEPA',
      invoice: 'Faktura',
      card: 'Karta',
      'bank-transfer': 'Przelew',
    },
    mandate: 'Mandat',
    latest: 'Najnowsze wpisy: {n}.',
    noInvoice: 'brak faktury',
  },
};
