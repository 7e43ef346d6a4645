import type { LabelLanguage } from '#common/name-labels.ts';
import { DEFAULT_OBJECT_FIELDS } from './insurance-product-routes.ts';

/**
 * The demo products' texts in German, English and Polish (issue 15, point 4): a product manager
 * of a German insurer types labels once and uploads a translation file per language; the demo
 * tenant has done so for every object, field, premium item and fixed value of its products, so a
 * user reads the tariff in their own language. The keys are those of the translation service:
 * `product.name`, `<object>.label`, `<object>.<field>`, `<object>.<field>.<value>` (a stored
 * value's label) and `formula.<name>` (a premium item).
 */

type Texts = Readonly<Record<LabelLanguage, string>>;

const t = (de: string, en: string, pl: string): Texts => ({ de, en, pl });

const PRODUCT_NAMES: Readonly<Record<string, Texts>> = {
  'car-comfort': t(
    'Kfz-Versicherung Komfort',
    'Car insurance comfort',
    'Ubezpieczenie auta Komfort',
  ),
  'travel-world': t('Reiseschutz Welt', 'Travel cover worldwide', 'Ochrona podróży Świat'),
  'device-protect': t('Handyschutz Plus', 'Phone protection plus', 'Ochrona telefonu Plus'),
  'home-contents': t('Hausrat Zuhause', 'Home contents', 'Ubezpieczenie mienia domowego'),
  'accident-active': t('Unfallschutz Aktiv', 'Accident cover active', 'Ochrona NNW Aktiv'),
  'legal-private': t('Rechtsschutz Privat', 'Private legal protection', 'Ochrona prawna prywatna'),
  'device-household': t(
    'Geräteschutz Haushalt',
    'Household appliance cover',
    'Ochrona sprzętu AGD',
  ),
};

const OBJECTS: Readonly<Record<string, Texts>> = {
  default: t('Vertrag', 'Policy', 'Umowa'),
  vehicle: t('Fahrzeug', 'Vehicle', 'Pojazd'),
  driver: t('Hauptfahrer', 'Main driver', 'Główny kierowca'),
  traveller: t('Reisende Person', 'Traveller', 'Podróżny'),
  trip: t('Reise', 'Trip', 'Podróż'),
  'mobile-device': t('Mobilgerät', 'Mobile device', 'Urządzenie mobilne'),
  household: t('Haushalt', 'Household', 'Gospodarstwo domowe'),
  person: t('Versicherte Person', 'Insured person', 'Osoba ubezpieczona'),
  coverage: t('Deckung', 'Coverage', 'Zakres ochrony'),
  device: t('Gerät', 'Device', 'Urządzenie'),
};

const FIELDS: Readonly<Record<string, Texts>> = {
  policyStartDate: t('Vertragsbeginn', 'Policy start date', 'Data rozpoczęcia umowy'),
  policyDurationUnit: t('Einheit der Laufzeit', 'Policy duration unit', 'Jednostka okresu umowy'),
  policyDurationValue: t('Laufzeit', 'Policy duration', 'Okres umowy'),
  billingFrequencyUnit: t('Zahlungsweise', 'Billing frequency', 'Częstotliwość płatności'),
  recurringBillingDay: t('Abrechnungstag', 'Recurring billing day', 'Dzień rozliczenia'),
  vehicleValue: t('Fahrzeugwert', 'Vehicle value', 'Wartość pojazdu'),
  vehicleType: t('Fahrzeugart', 'Vehicle type', 'Rodzaj pojazdu'),
  firstRegistration: t('Erstzulassung', 'First registration', 'Pierwsza rejestracja'),
  isCommercial: t('Gewerbliche Nutzung', 'Commercial use', 'Użytek komercyjny'),
  birthDate: t('Geburtsdatum', 'Date of birth', 'Data urodzenia'),
  sfClass: t('Schadenfreiheitsklasse', 'No-claims class', 'Klasa bezszkodowa'),
  zipCode: t('Postleitzahl', 'Postcode', 'Kod pocztowy'),
  travelDays: t('Reisetage', 'Days of travel', 'Dni podróży'),
  destination: t('Reiseziel', 'Destination', 'Cel podróży'),
  tripCost: t('Reisepreis', 'Trip cost', 'Koszt podróży'),
  purchasePrice: t('Kaufpreis', 'Purchase price', 'Cena zakupu'),
  brand: t('Marke', 'Brand', 'Marka'),
  purchaseDate: t('Kaufdatum', 'Date of purchase', 'Data zakupu'),
  theftCover: t('Diebstahlschutz', 'Cover theft', 'Ochrona przed kradzieżą'),
  livingArea: t('Wohnfläche (m²)', 'Living area (m²)', 'Powierzchnia mieszkalna (m²)'),
  sumInsured: t('Versicherungssumme', 'Sum insured', 'Suma ubezpieczenia'),
  bicycleCover: t('Fahrräder mitversichert', 'Bicycles included', 'Rowery w ochronie'),
  occupationClass: t('Berufsgruppe', 'Occupation class', 'Grupa zawodowa'),
  disabilitySum: t('Invaliditätssumme', 'Disability sum', 'Suma na wypadek inwalidztwa'),
  privateCover: t('Privatrechtsschutz', 'Private legal matters', 'Sprawy prywatne'),
  trafficCover: t('Verkehrsrechtsschutz', 'Traffic legal matters', 'Sprawy drogowe'),
  deductible: t('Selbstbeteiligung', 'Deductible', 'Udział własny'),
  price: t('Preis', 'Price', 'Cena'),
  category: t('Gerätekategorie', 'Appliance category', 'Kategoria urządzenia'),
  age: t('Alter in Jahren', 'Age in years', 'Wiek w latach'),
};

/** Labels of the stored values the demo policies use, by field name. */
const VALUES: Readonly<Record<string, Readonly<Record<string, Texts>>>> = {
  vehicleType: {
    car: t('Pkw', 'Car', 'Samochód osobowy'),
    suv: t('SUV', 'SUV', 'SUV'),
    van: t('Transporter', 'Van', 'Furgonetka'),
    cabrio: t('Cabrio', 'Convertible', 'Kabriolet'),
  },
  category: {
    Waschmaschine: t('Waschmaschine', 'Washing machine', 'Pralka'),
    Kühlschrank: t('Kühlschrank', 'Refrigerator', 'Lodówka'),
    Geschirrspüler: t('Geschirrspüler', 'Dishwasher', 'Zmywarka'),
    Trockner: t('Trockner', 'Tumble dryer', 'Suszarka'),
  },
};

const FORMULAS: Readonly<Record<string, Texts>> = {
  'Base premium': t('Grundbeitrag', 'Base premium', 'Składka podstawowa'),
  'Young driver surcharge': t(
    'Zuschlag junge Fahrer',
    'Young driver surcharge',
    'Dopłata za młodego kierowcę',
  ),
  'No-claims discount': t(
    'Schadenfreiheitsrabatt',
    'No-claims discount',
    'Zniżka za bezszkodowość',
  ),
  'Commercial use': t('Gewerbliche Nutzung', 'Commercial use', 'Użytek komercyjny'),
  'Region and age': t('Region und Alter', 'Region and age', 'Region i wiek'),
  'Cancellation cover': t('Reiserücktritt', 'Cancellation cover', 'Rezygnacja z podróży'),
  'Travel health cover': t(
    'Auslandskrankenschutz',
    'Travel health cover',
    'Koszty leczenia w podróży',
  ),
  'Damage cover': t('Schadenschutz', 'Damage cover', 'Ochrona od uszkodzeń'),
  'Theft cover': t('Diebstahlschutz', 'Theft cover', 'Ochrona od kradzieży'),
  'Contents premium': t('Hausratbeitrag', 'Contents premium', 'Składka za mienie'),
  'Bicycle cover': t('Fahrradschutz', 'Bicycle cover', 'Ochrona rowerów'),
  'Disability cover': t(
    'Invaliditätsleistung',
    'Disability cover',
    'Świadczenie z tytułu inwalidztwa',
  ),
  'Legal protection': t('Rechtsschutz', 'Legal protection', 'Ochrona prawna'),
  'Appliance cover': t('Geräteschutz', 'Appliance cover', 'Ochrona urządzeń'),
};

/** What the texts are written for: a product's slug, objects with fields, and formula names. */
export interface TextedProduct {
  slug: string;
  objects: readonly { name: string; fields: readonly { name: string }[] }[];
  formulas: readonly { name: string }[];
  /** The tariff parts one version adds (e.g. the car product's regional formula). */
  extras?: { formulas: readonly { name: string }[] };
}

/**
 * The translation file of a demo product in one language. A name the dictionaries lack throws:
 * the demo world is complete, and a seeded field without texts is a mistake to see at once.
 */
export function demoProductTexts(
  product: TextedProduct,
  language: LabelLanguage,
): Record<string, string> {
  const pick = (texts: Texts | undefined, what: string) => {
    if (!texts) throw new Error(`the demo texts lack ${what}`);
    return texts[language];
  };
  const texts: Record<string, string> = {
    'product.name': pick(PRODUCT_NAMES[product.slug], `the product ${product.slug}`),
  };
  const objects = [{ name: 'default', fields: DEFAULT_OBJECT_FIELDS }, ...product.objects];
  for (const object of objects) {
    texts[`${object.name}.label`] = pick(OBJECTS[object.name], `the object ${object.name}`);
    for (const field of object.fields) {
      texts[`${object.name}.${field.name}`] = pick(FIELDS[field.name], `the field ${field.name}`);
      for (const [value, labels] of Object.entries(VALUES[field.name] ?? {})) {
        texts[`${object.name}.${field.name}.${value}`] = labels[language];
      }
    }
  }
  for (const formula of [...product.formulas, ...(product.extras?.formulas ?? [])]) {
    texts[`formula.${formula.name}`] = pick(FORMULAS[formula.name], `the formula ${formula.name}`);
  }
  return texts;
}
